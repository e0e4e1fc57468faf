import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, PromotionTable } from '../../infra/db/schema';

/* SQL of promotions (docs/PROMOTIONS.md): the console's calls and the scheduler's moves. */

type Db = Kysely<Database> | Transaction<Database>;
export type PromotionRow = Awaited<ReturnType<typeof findPromotion>> & object;

export function insertPromotions(db: Db, rows: Insertable<PromotionTable>[]) {
  return db.insertInto('promotions').values(rows).returning('id').execute();
}

export function findPromotion(db: Db, at: { tenantId: number; storeId: number }, id: number) {
  return db
    .selectFrom('promotions')
    .selectAll()
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A store's promotions: started first, then upcoming (soonest first), then the rest newest first. */
export async function listPromotions(
  db: Db,
  at: { tenantId: number; storeId: number },
  f: { state?: string; page: number; limit: number },
) {
  let q = db.selectFrom('promotions').where('tenant_id', '=', at.tenantId).where('store_id', '=', at.storeId);
  if (f.state) q = q.where('state', '=', f.state);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy((eb) =>
      eb.case().when('state', '=', 'started').then(0).when('state', '=', 'pending').then(1).else(2).end(),
    )
    .orderBy((eb) => eb.case().when('state', 'in', ['started', 'pending']).then(eb.ref('start_at')).else(0).end())
    .orderBy('id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, count: Number(n) };
}

/** Writes a promotion that has not ended or been cancelled; false when it has. */
export async function updateOpen(
  db: Db,
  at: { tenantId: number; storeId: number },
  id: number,
  set: Updateable<PromotionTable>,
): Promise<boolean> {
  const r = await db
    .updateTable('promotions')
    .set(set)
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .where('state', 'in', ['pending', 'started'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function openIn(db: Db, at: { tenantId: number; storeId: number }, ids: readonly number[]) {
  return db
    .selectFrom('promotions')
    .selectAll()
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('state', 'in', ['pending', 'started'])
    .where('id', 'in', ids)
    .execute();
}

/** Every promotion not ended or cancelled (the scheduler's plan and moves). */
export function openPromotions(db: Db) {
  return db.selectFrom('promotions').selectAll().where('state', 'in', ['pending', 'started']).orderBy('id').execute();
}

/** A store's promotions that are not cancelled and cover some moment of [from, to). */
export function storePromotionsBetween(db: Db, at: { tenantId: number; storeId: number }, from: number, to: number) {
  return db
    .selectFrom('promotions')
    .selectAll()
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('state', '!=', 'cancelled')
    .where('start_at', '<', to)
    .where('end_at', '>', from)
    .execute();
}

/** The scheduler's conditional move (two processes never both make it). */
export async function move(db: Db, id: number, from: string, to: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('promotions')
    .set({ state: to, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
