import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { Database, ScheduledChangeTable } from '../../infra/db/schema';

/* SQL of scheduled product changes (docs/SCHEDULE.md): what the console and the ERP API add, edit and cancel. */

type Db = Kysely<Database> | Transaction<Database>;

export function insertChanges(db: Db, rows: Insertable<ScheduledChangeTable>[]) {
  return db.insertInto('scheduled_changes').values(rows).returning('id').execute();
}

/**
 * PostgreSQL's statistics of `scheduled_changes` brought up to date (after a large file is
 * committed): planned on the statistics of a table that was nearly empty, the scheduler's reads by
 * product walked all 100,000 pending changes, 370 ms a call, until autovacuum's analyze came.
 */
export async function refreshStatistics(db: Kysely<Database>): Promise<void> {
  await sql`analyze scheduled_changes`.execute(db);
}

const columns = [
  's.id',
  's.tenant_id',
  's.store_id',
  's.product_id',
  's.changes',
  's.effective_at',
  's.status',
  's.note',
  's.created_at',
  's.updated_at',
  's.applied_at',
  'p.barcode',
  'p.name as product_name',
] as const;

export type ChangeRow = Awaited<ReturnType<typeof findChange>> & object;

export function findChange(db: Db, at: { tenantId: number; storeId: number }, id: number) {
  return db
    .selectFrom('scheduled_changes as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select(columns)
    .where('s.tenant_id', '=', at.tenantId)
    .where('s.store_id', '=', at.storeId)
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** A store's changes, pending first (soonest first), then the rest newest first. */
export async function listChanges(
  db: Db,
  at: { tenantId: number; storeId: number },
  f: { status?: string; productId?: number; page: number; limit: number },
) {
  let q = db
    .selectFrom('scheduled_changes as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .where('s.tenant_id', '=', at.tenantId)
    .where('s.store_id', '=', at.storeId);
  if (f.status) q = q.where('s.status', '=', f.status);
  if (f.productId) q = q.where('s.product_id', '=', f.productId);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(columns)
    .orderBy((eb) => eb.case().when('s.status', '=', 'pending').then(0).else(1).end())
    .orderBy((eb) => eb.case().when('s.status', '=', 'pending').then(eb.ref('s.effective_at')).else(0).end())
    .orderBy('s.id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, count: Number(n) };
}

export async function updatePending(
  db: Db,
  at: { tenantId: number; storeId: number },
  id: number,
  set: { effective_at?: number; changes?: string; updated_at: number },
): Promise<boolean> {
  const r = await db
    .updateTable('scheduled_changes')
    .set({ ...set, planned: 0 })
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function pendingIn(db: Db, at: { tenantId: number; storeId: number }, ids: readonly number[]) {
  const rows = await db
    .selectFrom('scheduled_changes')
    .select('id')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('status', '=', 'pending')
    .where('id', 'in', ids)
    .execute();
  return rows.length;
}

export async function cancelPending(
  db: Db,
  at: { tenantId: number; storeId: number },
  ids: readonly number[],
  now: number,
) {
  const r = await db
    .updateTable('scheduled_changes')
    .set({ status: 'cancelled', updated_at: now, planned: 0 })
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('status', '=', 'pending')
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Delivery ahead of the pending changes among `rows`: per change, the tags of the store showing
 * its product, and those whose timed label is held for the change's time (docs/SCHEDULE.md).
 */
export async function progressOf(
  db: Db,
  at: { tenantId: number; storeId: number },
  rows: readonly { id: number; product_id: number; effective_at: number; status: string }[],
): Promise<Map<number, { held: number; tags: number }>> {
  const pending = rows.filter((r) => r.status === 'pending');
  const out = new Map<number, { held: number; tags: number }>();
  if (pending.length === 0) return out;
  const productIds = [...new Set(pending.map((r) => r.product_id))];
  const tags = await db
    .selectFrom('tags')
    .select(['product_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('product_id', 'in', productIds)
    .groupBy('product_id')
    .execute();
  const held = await db
    .selectFrom('timed_labels as l')
    .innerJoin('tags as t', 't.id', 'l.tag_id')
    .select(['t.product_id', 'l.show_at', (eb) => eb.fn.countAll<number>().as('n')])
    .where('l.tenant_id', '=', at.tenantId)
    .where('l.store_id', '=', at.storeId)
    .where('l.state', '=', 'held')
    .where('t.product_id', 'in', productIds)
    .groupBy(['t.product_id', 'l.show_at'])
    .execute();
  const tagsOf = new Map(tags.map((r) => [r.product_id, Number(r.n)]));
  const heldOf = new Map(held.map((r) => [`${r.product_id}|${Number(r.show_at)}`, Number(r.n)]));
  for (const r of pending) {
    out.set(r.id, {
      held: heldOf.get(`${r.product_id}|${Number(r.effective_at)}`) ?? 0,
      tags: tagsOf.get(r.product_id) ?? 0,
    });
  }
  return out;
}

/** The tags of a store showing any of these products, in id order (the apply step's records). */
export function tagsShowingAny(db: Db, at: { tenantId: number; storeId: number }, productIds: readonly number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select(['id', 'hardware_id', 'product_id'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('product_id', 'in', [...productIds])
    .orderBy('id')
    .execute();
}

/** These products' names, by id. */
export async function productNames(
  db: Db,
  at: { tenantId: number; storeId: number },
  productIds: readonly number[],
): Promise<Map<number, string>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('products')
    .select(['id', 'name'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', [...productIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
