import { StoreParams } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import * as repo from './repository';

/*
 * Retention of the tag log and the data-push log: each store keeps `tagLogDays` days (store
 * parameter, 90 by default). Rows go in batches, so a store with millions of old rows never holds
 * one long transaction (or SQLite's one writer) for long.
 */

const DAY_MS = 86_400_000;
export const DEFAULT_LOG_DAYS = StoreParams.parse({}).tagLogDays;

/** The days a store's `store_params.params` JSON keeps the logs (the default when unset or unreadable). */
export function logDaysOf(json: string | null | undefined): number {
  if (json) {
    try {
      const parsed = StoreParams.safeParse(JSON.parse(json));
      if (parsed.success) return parsed.data.tagLogDays;
    } catch {
      // the default below
    }
  }
  return DEFAULT_LOG_DAYS;
}

export interface PruneOptions {
  /** Rows per DELETE (5,000). */
  batch?: number;
}

export interface Pruned {
  tagLog: number;
  pushLog: number;
}

/** Deletes the rows every store keeps no longer; answers how many went. */
export async function pruneDeliveryLogs(db: Kysely<Database>, now: number, opts: PruneOptions = {}): Promise<Pruned> {
  const batch = Math.max(1, opts.batch ?? 5000);
  const pruned: Pruned = { tagLog: 0, pushLog: 0 };
  for (const store of await repo.storesWithParams(db)) {
    const before = now - logDaysOf(store.params) * DAY_MS;
    for (;;) {
      const n = await repo.deleteOldTagLog(db, store.tenant_id, store.id, before, batch);
      pruned.tagLog += n;
      if (n < batch) break;
    }
    for (;;) {
      const n = await repo.deleteOldPushLog(db, store.tenant_id, store.id, before, batch);
      pruned.pushLog += n;
      if (n < batch) break;
    }
  }
  return pruned;
}

export interface LogRetention {
  /** Stops the timer and waits for a running prune to end. */
  stop(): Promise<void>;
}

export interface LogRetentionDeps {
  db: Kysely<Database>;
  now: () => number;
  onError: (err: unknown) => void;
  /** How often to prune, ms (6 h); the first run is one period after the start. */
  everyMs?: number;
}

/** Prunes both logs periodically (the timer does not keep the process alive). */
export function startLogRetention(deps: LogRetentionDeps): LogRetention {
  let running: Promise<void> | null = null;
  const timer = setInterval(
    () => {
      if (running) return;
      running = pruneDeliveryLogs(deps.db, deps.now())
        .then(() => undefined, deps.onError)
        .finally(() => {
          running = null;
        });
    },
    deps.everyMs ?? 6 * 3_600_000,
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
