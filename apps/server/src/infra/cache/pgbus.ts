import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema';
import type { SharedCache } from './shared';

export const CHANNEL = 'esl_cache';
const RETRY_MS = 1000;

export interface CacheBus {
  close(): Promise<void>;
}

/** Announces a change on the application's pool: one short pg_notify per change call. */
export function notifyOn(db: Kysely<Database>) {
  return async (payload: string): Promise<void> => {
    await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
  };
}

/**
 * Carries cache invalidations between server processes that share one PostgreSQL database
 * (DESIGN.md §1: several processes behind a load balancer). Each process LISTENs on one
 * connection of its own; a change is announced with pg_notify, which PostgreSQL delivers to every
 * listener, this process included. While the listening connection is down the cache is switched
 * off (reads go to the database), and on reconnecting everything cached is dropped, since
 * announcements may have been missed meanwhile.
 *
 * `notify` runs the announcement on the application's pool (`notifyOn`).
 */
export function startPgBus(
  url: string,
  cache: SharedCache,
  notify: (payload: string) => Promise<void>,
  onError: (message: string) => void = () => {},
): CacheBus {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  cache.enabled = false;

  const connect = async () => {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    const lost = (reason: string) => {
      if (client !== c) return;
      client = null;
      cache.enabled = false;
      c.end().catch(() => {});
      if (!closed) {
        onError(`cache channel lost (${reason}); reading from the database until it is back`);
        timer = setTimeout(connect, RETRY_MS);
      }
    };
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('connection ended'));
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL) return;
      const id = Number(n.payload);
      cache.invalidate(n.payload === '*' || !Number.isInteger(id) ? null : id);
    });
    try {
      client = c;
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (closed || client !== c) {
        await c.end().catch(() => {});
        return;
      }
      cache.invalidate(null);
      cache.enabled = true;
    } catch (err) {
      lost((err as Error).message);
    }
  };

  cache.publish = (tenantId) => notify(tenantId === null ? '*' : String(tenantId));
  void connect();

  return {
    async close() {
      closed = true;
      cache.enabled = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
