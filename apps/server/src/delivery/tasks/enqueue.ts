import { EventEmitter } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import * as repo from './repository';

/*
 * What the domain modules call, inside the transaction of their own write (transactional
 * outbox): a product, a binding, a template or an assignment changed, so these tags must show a
 * fresh render. The slot's revision goes up ("latest wins"); the engine renders and sends it
 * once the caller commits and calls `tasksChanged()`.
 */

type Db = Kysely<Database> | Transaction<Database>;

const signal = new EventEmitter();
signal.setMaxListeners(0);

/** After commit: wakes the engines of this process (a timer picks up what this misses). */
export function tasksChanged(): void {
  signal.emit('changed');
}

export function onTasksChanged(listener: () => void): () => void {
  signal.on('changed', listener);
  return () => signal.off('changed', listener);
}

/** Priorities (DELIVERY.md §5.2). */
export const PRIO = { interactive: 0, data: 1, bulk: 2, firmware: 3 } as const;

/** These tags of a store show something else now (their product changed, they were (un)bound, …). */
export async function relabelTags(
  db: Db,
  at: { tenantId: number; storeId: number },
  tagIds: readonly number[],
  now: number,
): Promise<number> {
  if (tagIds.length === 0) return 0;
  return repo.upsertImageSlots(db, { ...at, tagIds, prio: PRIO.data, force: false, requestId: null, now });
}

/** Every tag of every store of a tenant may show something else (a template or rule changed). */
export async function relabelTenant(db: Db, tenantId: number, now: number): Promise<number> {
  let n = 0;
  for (const s of await repo.storesOfTenant(db, tenantId)) {
    n += await repo.upsertImageSlots(db, {
      tenantId,
      storeId: s.id,
      tagIds: null,
      prio: PRIO.bulk,
      force: false,
      requestId: null,
      now,
    });
  }
  return n;
}
