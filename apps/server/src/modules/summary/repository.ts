import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { CurrentStore } from '../stores/service';

type Db = Kysely<Database>;

/**
 * Which stores a tenant-wide count covers: every store of the tenant (`storeIds` null, an
 * administrator) or only these (the caller's assigned stores; never empty here).
 */
export interface CountScope {
  tenantId: number;
  storeIds: readonly number[] | null;
}

/** Counts come back as numbers from SQLite and as strings (bigint) from PostgreSQL. */
export type DbCount = number | string | bigint;

export function stationsByOnline(db: Db, at: CurrentStore) {
  return db
    .selectFrom('stations')
    .select((eb) => ['online', eb.fn.countAll<DbCount>().as('n')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .groupBy('online')
    .execute();
}

/** Per status: how many tags, and how many of them show a product. */
export function tagsByStatus(db: Db, at: CurrentStore) {
  return db
    .selectFrom('tags')
    .select((eb) => ['status', eb.fn.countAll<DbCount>().as('n'), eb.fn.count<DbCount>('product_id').as('bound')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .groupBy('status')
    .execute();
}

export function tagsByModel(db: Db, at: CurrentStore) {
  return db
    .selectFrom('tags')
    .select((eb) => ['model', eb.fn.countAll<DbCount>().as('n')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .groupBy('model')
    .execute();
}

export async function countProducts(db: Db, at: CurrentStore): Promise<DbCount> {
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<DbCount>().as('n'))
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function countTemplates(db: Db, tenantId: number): Promise<DbCount> {
  const row = await db
    .selectFrom('templates')
    .select((eb) => eb.fn.countAll<DbCount>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Rows of a per-store table within the scope. */
export async function countInScope(
  db: Db,
  table: 'stations' | 'tags' | 'products',
  scope: CountScope,
): Promise<DbCount> {
  let q = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<DbCount>().as('n'))
    .where('tenant_id', '=', scope.tenantId);
  if (scope.storeIds !== null) q = q.where('store_id', 'in', scope.storeIds);
  const row = await q.executeTakeFirstOrThrow();
  return row.n;
}

/** Tags per store within the scope; stores without tags have no row. */
export function tagsByStore(db: Db, scope: CountScope) {
  let q = db
    .selectFrom('tags')
    .select((eb) => ['store_id', eb.fn.countAll<DbCount>().as('n')])
    .where('tenant_id', '=', scope.tenantId);
  if (scope.storeIds !== null) q = q.where('store_id', 'in', scope.storeIds);
  return q.groupBy('store_id').execute();
}

export const DAY_MS = 86_400_000;

/**
 * Successful operation-log rows of the store for the given calls, per day and call, from `from`
 * (Unix ms, the start of day 0) for `days` days. The day number is worked out in an inner query
 * so both databases group by a plain column (PostgreSQL refuses to match a parameterised
 * expression in GROUP BY to the same one in SELECT).
 */
export function changesPerDay(
  db: Db,
  at: CurrentStore,
  calls: readonly string[],
  window: { from: number; days: number },
) {
  const to = window.from + window.days * DAY_MS;
  const rows = db
    .selectFrom('op_logs')
    .select([
      'call',
      // better-sqlite3 binds numbers as REAL, so the quotient is cast; time ≥ from keeps it
      // non-negative, where truncating is flooring.
      sql<DbCount>`cast((${sql.ref('time')} - ${window.from}) / ${DAY_MS} as integer)`.as('day'),
    ])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('code', '=', 0)
    .where('call', 'in', calls)
    .where('time', '>=', window.from)
    .where('time', '<', to);
  return db
    .selectFrom(rows.as('c'))
    .select((eb) => ['c.day', 'c.call', eb.fn.countAll<DbCount>().as('n')])
    .groupBy(['c.day', 'c.call'])
    .execute();
}
