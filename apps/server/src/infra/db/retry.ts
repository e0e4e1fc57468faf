import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/*
 * Transient database failures (docs/SERVER.md, "Deadlocks and retries"). PostgreSQL ends one of
 * two transactions that wait on each other's row locks (40P01, deadlock detected) and a
 * serialisable transaction whose reads another one changed (40001): nothing of the loser was
 * written, and running it again is the answer. Row locks are taken in one order everywhere
 * (ascending ids) so deadlocks are rare; this covers the rest. A locked SQLite file past its busy
 * timeout (SQLITE_BUSY, another process) is retried the same way.
 */

const TRANSIENT_PG = new Set(['40P01', '40001']);

/** Transient failures met in this process, by code (40P01, 40001, …): run again, or given up after the last run. */
export const transientFailures = { retried: new Map<string, number>(), gaveUp: new Map<string, number>() };

const count = (m: Map<string, number>, err: unknown) => {
  const code = String((err as { code?: unknown } | null)?.code ?? 'unknown');
  m.set(code, (m.get(code) ?? 0) + 1);
};

/** Whether `err` is a failure that running the same transaction again may not meet. */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return TRANSIENT_PG.has(code) || code === 'SQLITE_BUSY';
}

export interface RetryOptions {
  /** Runs in all, the first included (default 6). */
  attempts?: number;
  /** First wait (default 20 ms); each next one doubles, capped at `maxMs` (default 1,000 ms). */
  baseMs?: number;
  maxMs?: number;
  /** 0 ≤ x < 1; the wait is drawn between half and all of the step (jitter). */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Which failures are run again (default isTransient). */
  retryable?: (err: unknown) => boolean;
  /** Told of each transient failure that is retried. */
  onRetry?: (err: unknown, attempt: number) => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `attempt` (1 = the first retry): half to all of base × 2^(attempt−1), capped. */
export function retryDelayMs(attempt: number, random: number, baseMs = 20, maxMs = 1000): number {
  const step = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (step / 2) * random);
}

/**
 * Runs `run`, and again after a short jittered wait while it fails transiently, `attempts` times
 * at most; the last failure, or any other one, is thrown. `run` must be all-or-nothing (one
 * transaction) and have no effect outside the database before it resolves.
 */
export async function withRetry<T>(run: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const attempts = o.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!(o.retryable ?? isTransient)(err)) throw err;
      if (attempt >= attempts) {
        count(transientFailures.gaveUp, err);
        throw err;
      }
      count(transientFailures.retried, err);
      o.onRetry?.(err, attempt);
      await (o.sleep ?? wait)(retryDelayMs(attempt, (o.random ?? Math.random)(), o.baseMs, o.maxMs));
    }
  }
}

/**
 * `fn` in a transaction, run again (withRetry) when it loses a deadlock or a serialisation check.
 * Inside a caller's transaction `fn` runs in it, once: the caller's own retry covers it.
 */
export function transact<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
  o?: RetryOptions,
): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return withRetry(() => db.transaction().execute(fn), o);
}
