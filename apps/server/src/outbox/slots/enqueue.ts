import { EventEmitter } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { addToPush, closeRenderedPushes, openPush, type PushSource } from '../../infra/logs';
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

/**
 * A batch of product data changed (console edit, import, API): one data-push row, and the tags
 * showing those products re-rendered at data priority, each counted on the push once rendered.
 * The push is running until none of its labels waits for its render (the render stage marks it
 * finished); one that touches no tag is finished at once. A label an earlier push was still to
 * render is taken over: it counts as rendered for the earlier push (the tag gets the newer data,
 * the earlier change with it), which finishes when nothing else of it waits.
 */
export async function dataPushed(
  db: Db,
  at: { tenantId: number; storeId: number },
  push: {
    source: PushSource;
    userId: number | null;
    products: number;
    tagIds: readonly number[];
    now: number;
    /** The request a caller follows the change by (requests.ts `dataChange`); none by default. */
    requestId?: number | null;
    /** Data priority by default; a scheduled change taking effect goes first in line (interactive). */
    prio?: number;
  },
): Promise<number> {
  const pushId = await openPush(db, {
    tenantId: at.tenantId,
    storeId: at.storeId,
    source: push.source,
    userId: push.userId,
    products: push.products,
    tagsAffected: push.tagIds.length,
    startedAt: push.now,
  });
  const earlier = new Set<number>();
  // A thousand at a time in ascending id order: the slots are locked in the order every writer takes.
  const all = [...push.tagIds].sort((x, y) => x - y);
  for (let i = 0; i < all.length; i += 1000) {
    const tagIds = all.slice(i, i + 1000);
    for (const p of await repo.pushesInRender(db, at, tagIds)) {
      await addToPush(db, p.push_id, { rendered: p.n });
      earlier.add(p.push_id);
    }
    await repo.upsertImageSlots(db, {
      ...at,
      tagIds,
      prio: push.prio ?? PRIO.data,
      force: false,
      requestId: push.requestId ?? null,
      pushId,
      now: push.now,
    });
  }
  await closeRenderedPushes(db, [...earlier, pushId], push.now);
  return pushId;
}

/**
 * These tags' labels must be drawn again although nothing they show changed (their template was
 * sent again, the fonts changed): the render key is forgotten so the render runs, and the tags
 * are re-opened at data priority under one data-push row. A tag that already shows the new
 * picture is skipped by its hash, so only changed pictures use the air.
 */
export async function rerenderTags(
  db: Db,
  at: { tenantId: number; storeId: number },
  push: { source: PushSource; userId: number | null; tagIds: readonly number[]; now: number },
): Promise<number> {
  await repo.forgetRenderKeys(db, at.tenantId, push.tagIds);
  return dataPushed(db, at, { ...push, products: 0 });
}

/** Every tag of a tenant with what chooses its template, a page at a time (ids after `afterId`). */
export async function labelTagsOfTenant(db: Db, tenantId: number, afterId: number, limit = 1000) {
  const rows = await repo.labelTagsOfTenant(db, tenantId, afterId, limit);
  return rows.map((r) => ({
    id: r.id,
    tenantId,
    storeId: r.store_id,
    model: r.model,
    colour: r.colour,
    productId: r.product_id,
  }));
}
