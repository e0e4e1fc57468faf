import { type Kysely, sql, type Updateable } from 'kysely';
import { cached } from '../../infra/cache/shared';
import { compiledOnce, contains, containsPattern, offsetOf, runCached } from '../../infra/db/query';
import type { Database, NewStore, StoreTable } from '../../infra/db/schema';

/**
 * Whose stores: `userId` null means every store of the tenant (administrators); otherwise only
 * the stores assigned to that user.
 */
export interface StoreScope {
  tenantId: number;
  userId: number | null;
}

function scoped(db: Kysely<Database>, scope: StoreScope) {
  if (scope.userId === null) return db.selectFrom('stores').where('stores.tenant_id', '=', scope.tenantId);
  // Driven by the user's few assignments, not by a scan of the tenant's stores.
  return db
    .selectFrom('user_stores')
    .innerJoin('stores', 'stores.id', 'user_stores.store_id')
    .where('user_stores.user_id', '=', scope.userId)
    .where('stores.tenant_id', '=', scope.tenantId);
}

const allRefs = compiledOnce('stores.refs.all', (db, tenantId: number) =>
  db.selectFrom('stores').select(['id', 'name', 'code']).where('tenant_id', '=', tenantId).orderBy('id'),
);
const assignedRefs = compiledOnce('stores.refs.assigned', (db, userId: number, tenantId: number) =>
  db
    .selectFrom('user_stores as us')
    .innerJoin('stores as s', 's.id', 'us.store_id')
    .select(['s.id', 's.name', 's.code'])
    .where('us.user_id', '=', userId)
    .where('s.tenant_id', '=', tenantId)
    // The key order of user_stores: ordering by s.id would make SQLite scan the tenant's stores.
    .orderBy('us.store_id'),
);

/** Id, name and code of every store in scope, by id (the store picker and /user/info). */
export function listStoreRefs(db: Kysely<Database>, scope: StoreScope) {
  return cached(db, `stores.refs:${scopeId(scope)}`, scope.tenantId, STORE_CACHE_MS, () =>
    scope.userId === null ? allRefs(db, scope.tenantId) : assignedRefs(db, scope.userId, scope.tenantId),
  );
}

/**
 * Stores are tenant configuration, read on nearly every request (the caller's current store, the
 * picker, /user/info) and changed rarely, always through a call: reads go through the shared cache
 * (cache/shared.ts), which every change call of the tenant empties, in every process.
 */
const STORE_CACHE_MS = 60_000;
const scopeId = (scope: StoreScope) => `${scope.tenantId}:${scope.userId ?? 'all'}`;

export interface StoreFilter {
  page: number;
  limit: number;
  name?: string;
  code?: string;
}

/** The scope's parameters, in the order `scoped` uses them. */
const scopeArgs = (scope: StoreScope) => (scope.userId === null ? [scope.tenantId] : [scope.userId, scope.tenantId]);
const scopeKey = (scope: StoreScope) => (scope.userId === null ? 'all' : 'assigned');

/** A page of the scope's stores in id order, and how many there are (a hot path: cached SQL). */
export function listStores(db: Kysely<Database>, scope: StoreScope, f: StoreFilter) {
  const key = `stores.list:${scopeId(scope)}:${JSON.stringify([f.page, f.limit, f.name ?? '', f.code ?? ''])}`;
  return cached(db, key, scope.tenantId, STORE_CACHE_MS, () => readStores(db, scope, f));
}

async function readStores(db: Kysely<Database>, scope: StoreScope, f: StoreFilter) {
  // Built only when the SQL for this shape is not cached yet.
  const filtered = () => {
    let q = scoped(db, scope);
    if (f.name) q = q.where(contains('stores.name', f.name));
    if (f.code) q = q.where(contains('stores.code', f.code));
    return q;
  };
  const args: unknown[] = scopeArgs(scope);
  if (f.name) args.push(containsPattern(f.name));
  if (f.code) args.push(containsPattern(f.code));
  const key = `stores.list.${scopeKey(scope)}.${f.name ? 'n' : ''}${f.code ? 'c' : ''}`;
  const [rows, total] = await Promise.all([
    runCached(db, `${key}.rows`, [...args, f.limit, offsetOf(f)], () =>
      filtered()
        .selectAll('stores')
        .orderBy(sql.ref(scope.userId === null ? 'stores.id' : 'user_stores.store_id'))
        .limit(f.limit)
        .offset(offsetOf(f)),
    ),
    runCached(db, `${key}.count`, args, () => filtered().select((eb) => eb.fn.countAll<number>().as('n'))),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** A store of the scope by id, or undefined (every per-store call checks this). */
export async function findStore(db: Kysely<Database>, scope: StoreScope, id: number) {
  const row = await cached(db, `stores.find:${scopeId(scope)}:${id}`, scope.tenantId, STORE_CACHE_MS, async () => {
    const rows = await runCached(db, `stores.find.${scopeKey(scope)}`, [...scopeArgs(scope), id], () =>
      scoped(db, scope).selectAll('stores').where('stores.id', '=', id),
    );
    return rows[0] ?? null;
  });
  return row ?? undefined;
}

/** A store of the tenant by its code, or undefined (integration calls name stores by code). */
export function findStoreByCode(db: Kysely<Database>, tenantId: number, code: string) {
  return db
    .selectFrom('stores')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('code', '=', code)
    .executeTakeFirst();
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
