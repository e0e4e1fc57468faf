import type { Kysely, Updateable } from 'kysely';
import { contains, offsetOf } from '../../db/query';
import type { Database, NewStore, StoreTable } from '../../db/schema';

/**
 * Whose stores: `userId` null means every store of the tenant (administrators); otherwise only
 * the stores assigned to that user.
 */
export interface StoreScope {
  tenantId: number;
  userId: number | null;
}

function scoped(db: Kysely<Database>, scope: StoreScope) {
  let q = db.selectFrom('stores').where('stores.tenant_id', '=', scope.tenantId);
  if (scope.userId !== null) {
    const userId = scope.userId;
    q = q.where((eb) =>
      eb(
        'stores.id',
        'in',
        eb.selectFrom('user_stores').select('user_stores.store_id').where('user_stores.user_id', '=', userId),
      ),
    );
  }
  return q;
}

/** Id, name and code of every store in scope, by id (the store picker and /user/info). */
export function listStoreRefs(db: Kysely<Database>, scope: StoreScope) {
  return scoped(db, scope).select(['stores.id', 'stores.name', 'stores.code']).orderBy('stores.id').execute();
}

export interface StoreFilter {
  page: number;
  limit: number;
  name?: string;
  code?: string;
}

export async function listStores(db: Kysely<Database>, scope: StoreScope, f: StoreFilter) {
  let q = scoped(db, scope);
  if (f.name) q = q.where(contains('stores.name', f.name));
  if (f.code) q = q.where(contains('stores.code', f.code));
  const [rows, total] = await Promise.all([
    q.selectAll('stores').orderBy('stores.id').limit(f.limit).offset(offsetOf(f)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export function findStore(db: Kysely<Database>, scope: StoreScope, id: number) {
  return scoped(db, scope).selectAll('stores').where('stores.id', '=', id).executeTakeFirst();
}

export async function codeTaken(db: Kysely<Database>, tenantId: number, code: string, exceptId = 0) {
  const row = await db
    .selectFrom('stores')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('code', '=', code)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertStore(db: Kysely<Database>, row: NewStore) {
  return db.insertInto('stores').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateStore(
  db: Kysely<Database>,
  tenantId: number,
  id: number,
  patch: Omit<Updateable<StoreTable>, 'id' | 'tenant_id' | 'created_at'>,
) {
  return db
    .updateTable('stores')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** How many of the ids are stores of the tenant. */
export async function countTenantStores(db: Kysely<Database>, tenantId: number, ids: readonly number[]) {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteStores(db: Kysely<Database>, tenantId: number, ids: readonly number[]) {
  const result = await db.deleteFrom('stores').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function findParams(db: Kysely<Database>, tenantId: number, storeId: number) {
  const row = await db
    .selectFrom('store_params')
    .select('params')
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return row?.params;
}

export async function saveParams(db: Kysely<Database>, tenantId: number, storeId: number, params: string, now: number) {
  await db
    .insertInto('store_params')
    .values({ store_id: storeId, tenant_id: tenantId, params, updated_at: now })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ params, updated_at: now }))
    .execute();
}
