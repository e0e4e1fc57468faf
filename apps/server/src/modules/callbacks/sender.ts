import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import type { AddressPolicy, Resolver } from '../../infra/lib/address';
import { addToPush, closePush, latestPush, openPush } from '../../infra/logs';
import { type Attempt, postEvent } from './post';
import * as repo from './repository';

export { CALLBACK_HEADERS, EXCERPT_CHARS } from './post';

/*
 * The callback sender: a background loop of the server (started and stopped with it) that works
 * through the outbox. Each round it leases the due rows that are first in line for their key (a
 * tag, a request) — a row waits while an earlier row of its key is pending — so one tag's events
 * arrive in the order they happened, and two server processes never send the same row. A failed
 * attempt (no answer within the timeout, a refused address, a status other than 2xx) is tried again
 * after an exponential backoff with jitter, for at least a day (a receiver down overnight loses
 * nothing); after MAX_ATTEMPTS the event is given up ('failed'), and the console or the API can
 * put it back in line (repository.ts `resendFailed`).
 */

/**
 * Attempts before an event is given up. With the backoff below, the waits between the first
 * attempt and the last add up to 24.1–32.1 hours (11 doublings from 2 s, then 31 capped hours,
 * each 75–100 % of its step): never less than a day.
 */
export const MAX_ATTEMPTS = 43;
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_CAP_MS = 60 * 60_000;
/** The least share of its step a delay keeps after jitter. */
export const JITTER_MIN = 0.75;
/** Finished events (sent, given up, dropped) are kept this long for the console, then deleted. */
export const KEEP_FINISHED_MS = 7 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5000;

/** Delay before attempt `attempts + 1` after `attempts` failures: 2 s · 2^(n−1), at most 1 h, times 0.75–1 (jitter). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(full * (JITTER_MIN + (1 - JITTER_MIN) * random()));
}

export interface SenderOptions {
  db: Kysely<Database>;
  now: () => number;
  policy: AddressPolicy;
  /** Longest wait for one delivery's answer, ms. */
  timeoutMs: number;
  /** Period of the loop, ms; 0: no timer (tests call `tick()`). */
  tickMs: number;
  /** This server's public address (PUBLIC_URL): refused whatever it resolves to (address.ts isSelf). */
  selfUrls?: readonly string[];
  resolver?: Resolver;
  random?: () => number;
  onError?: (err: unknown) => void;
  /** Rows leased per round. */
  batch?: number;
}

export interface CallbackSender {
  /** One round: answers how many deliveries were attempted. */
  tick(): Promise<number>;
  /** Deletes finished events older than KEEP_FINISHED_MS; answers how many. */
  prune(): Promise<number>;
  stop(): Promise<void>;
}

type Row = {
  id: number;
  tenant_id: number;
  store_id: number | null;
  event_id: string;
  type: string;
  payload: string;
  attempts: number;
};

export function startCallbackSender(o: SenderOptions): CallbackSender {
  const { db } = o;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = o.timeoutMs * 2 + 30_000;
  const batch = o.batch ?? 50;
  const random = o.random ?? Math.random;
  let running: Promise<number> | null = null;
  let stopped = false;

  async function claim(t: number): Promise<Row[]> {
    const due = await repo.dueHeads(db, t, batch);
    const got = await repo.lease(
      db,
      due.map((r) => Number(r.id)),
      owner,
      t,
      t + leaseMs,
    );
    return due.filter((r) => got.has(Number(r.id))).map((r) => ({ ...r, attempts: Number(r.attempts) }));
  }

  async function record(row: Row, a: Attempt, t: number) {
    const attempts = row.attempts + 1;
    const giveUp = !a.ok && attempts >= MAX_ATTEMPTS;
    await repo.recordAttempt(db, row.id, owner, {
      state: a.ok ? 'sent' : giveUp ? 'failed' : 'pending',
      attempts,
      next_at: a.ok || giveUp ? t : t + backoffMs(attempts, random),
      finished_at: a.ok || giveUp ? t : null,
      last_status: a.status,
      last_error: a.error,
      excerpt: a.excerpt,
    });
  }

  /**
   * One data-push row per tenant and store per round: events attempted, delivered, failed. A
   * receiver failing again the same way is the same problem: the round is counted on the store's
   * last callback row when that one, too, delivered nothing and failed for this one reason
   * (issue 27 item 5: not a row a second burying the price pushes).
   */
  async function log(results: Array<{ row: Row; a: Attempt }>, t: number) {
    const groups = new Map<string, Array<{ row: Row; a: Attempt }>>();
    for (const r of results) {
      if (r.row.store_id === null) continue;
      const key = `${r.row.tenant_id}:${r.row.store_id}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const group of groups.values()) {
      const first = (group[0] as { row: Row }).row;
      const failed = group.filter((g) => !g.a.ok);
      const reasons = [...new Set(failed.map((g) => g.a.error))];
      if (failed.length === group.length && reasons.length === 1) {
        const last = await latestPush(db, { tenantId: first.tenant_id, storeId: first.store_id as number }, 'callback');
        if (last && Number(last.rendered) === 0 && last.exceptions === JSON.stringify(reasons)) {
          await addToPush(db, last.id, { tagsAffected: group.length, failed: group.length });
          await closePush(db, last.id, o.now());
          continue;
        }
      }
      const id = await openPush(db, {
        tenantId: first.tenant_id,
        storeId: first.store_id as number,
        source: 'callback',
        tagsAffected: group.length,
        startedAt: t,
      });
      await addToPush(db, id, { rendered: group.length - failed.length, failed: failed.length });
      // One reason: the failed count says how many; several: each with its own count.
      for (const reason of reasons) {
        const n = failed.filter((g) => g.a.error === reason).length;
        await addToPush(db, id, { exception: reasons.length === 1 ? reason : `${reason}: ${n}` });
      }
      await closePush(db, id, o.now());
    }
  }

  async function round(): Promise<number> {
    const t = o.now();
    const rows = await claim(t);
    if (rows.length === 0) return 0;
    const tenantIds = [...new Set(rows.map((r) => r.tenant_id))];
    const targets = new Map((await repo.targets(db, tenantIds)).map((r) => [r.id, r]));
    const results: Array<{ row: Row; a: Attempt }> = [];
    // Every leased row is the head of its key, so they may go out together.
    await Promise.all(
      rows.map(async (row) => {
        const target = targets.get(row.tenant_id);
        if (!target || target.url === '') {
          await repo.drop(db, row.id, owner, t);
          return;
        }
        const a = await postEvent(row, target, row.attempts + 1, o);
        await record(row, a, o.now());
        results.push({ row, a });
      }),
    );
    await log(results, t);
    return rows.length;
  }

  async function prune(): Promise<number> {
    const before = o.now() - KEEP_FINISHED_MS;
    let total = 0;
    for (;;) {
      const n = await repo.pruneFinished(db, before, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  let prunedAt = 0;
  function tick(): Promise<number> {
    if (running) return running;
    running = round().finally(() => {
      running = null;
    });
    return running;
  }

  let timer: NodeJS.Timeout | null = null;
  const loop = async () => {
    try {
      // Keep going while there is work (the next of each key is due at once).
      while (!stopped && (await tick()) > 0);
      if (!stopped && o.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = o.now();
        await prune();
      }
    } catch (err) {
      o.onError?.(err);
    }
    if (!stopped) timer = setTimeout(loop, o.tickMs);
  };
  if (o.tickMs > 0) timer = setTimeout(loop, o.tickMs);

  return {
    tick,
    prune,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (running) await running.catch(() => {});
    },
  };
}
