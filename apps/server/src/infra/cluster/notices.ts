import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Notices, RelayedNotice } from '../notice/notices';

/*
 * Console notices between the server processes of one PostgreSQL database (docs/DEPLOY.md): a
 * notice raised in one process (a station's result handled there, say) reaches the consoles whose
 * sockets are on any other. Each process LISTENs on a connection of its own; a notice goes out
 * with pg_notify, which PostgreSQL hands to every listener. The sender delivers to its own
 * consoles at once and skips its own announcement when it comes back.
 *
 * Notices are hints for the console (it re-reads what they name), so one lost while the channel
 * is down costs a stale screen until the next, never data.
 */

export const NOTICE_CHANNEL = 'esl_notice';
/** pg_notify refuses payloads of 8000 bytes or more; a longer notice is split or dropped. */
const MAX_PAYLOAD = 7900;
const RETRY_MS = 1000;

export interface NoticeRelay {
  /** Announcements sent and received (for /metrics). */
  readonly counters: { sent: number; received: number; dropped: number };
  /** Resolves once this process listens (the first time). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

interface Wire extends RelayedNotice {
  /** The sending process. */
  o: string;
}

/** Splits a notice too long for one announcement by its `ids` list; null when it cannot be. */
export function splitNotice(n: RelayedNotice, fits: (n: RelayedNotice) => boolean): RelayedNotice[] | null {
  if (fits(n)) return [n];
  const ids = n.notice.ids;
  if (!Array.isArray(ids) || ids.length < 2) return null;
  const half = Math.ceil(ids.length / 2);
  const a = splitNotice({ ...n, notice: { ...n.notice, ids: ids.slice(0, half) } }, fits);
  const b = splitNotice({ ...n, notice: { ...n.notice, ids: ids.slice(half) } }, fits);
  return a && b ? [...a, ...b] : null;
}

export function startNoticeRelay(
  url: string,
  notices: Notices,
  notify: (channel: string, payload: string) => Promise<void>,
  onError: (message: string) => void = () => {},
): NoticeRelay {
  const me = randomUUID();
  const counters = { sent: 0, received: 0, dropped: 0 };
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let listening: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    listening = resolve;
  });

  const wire = (n: RelayedNotice) => JSON.stringify({ o: me, ...n } satisfies Wire);
  notices.relay = (n) => {
    const parts = splitNotice(n, (x) => Buffer.byteLength(wire(x)) < MAX_PAYLOAD);
    if (!parts) {
      counters.dropped++;
      onError(
        `a console notice (${n.notice.type}) is too long for the other server processes; only local consoles got it`,
      );
      return;
    }
    for (const p of parts) {
      counters.sent++;
      notify(NOTICE_CHANNEL, wire(p)).catch((err: Error) => {
        counters.dropped++;
        onError(`a console notice did not reach the other server processes (${err.message})`);
      });
    }
  };

  const connect = async () => {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    const lost = (reason: string) => {
      if (client !== c) return;
      client = null;
      c.end().catch(() => {});
      if (!closed) {
        onError(`notice channel lost (${reason}); consoles on other server processes miss notices until it is back`);
        timer = setTimeout(connect, RETRY_MS);
      }
    };
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('connection ended'));
    c.on('notification', (msg) => {
      if (msg.channel !== NOTICE_CHANNEL || !msg.payload) return;
      try {
        const w = JSON.parse(msg.payload) as Wire;
        if (w.o === me) return;
        counters.received++;
        notices.deliver(w);
      } catch {
        counters.dropped++;
      }
    });
    try {
      client = c;
      await c.connect();
      await c.query(`LISTEN ${NOTICE_CHANNEL}`);
      if (closed || client !== c) await c.end().catch(() => {});
      else listening();
    } catch (err) {
      lost((err as Error).message);
    }
  };
  void connect();

  return {
    counters,
    ready,
    async close() {
      closed = true;
      notices.relay = null;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
