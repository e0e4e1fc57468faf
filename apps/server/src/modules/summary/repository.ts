import { SCHEDULE_TAG_LOG_KIND } from '@esl/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/schema';
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

// Delivery figures: the task slots (device_tasks) and the tag log (tag_log) of the store.

/** Refresh tasks as the tag log names them (the engine's job kind, or the operation's). */
export const REFRESH_KINDS = ['image', 'refresh'] as const;

/** Task slots of the store per state. */
export function tasksByState(db: Db, at: CurrentStore) {
  return db
    .selectFrom('device_tasks')
    .select((eb) => ['state', eb.fn.countAll<DbCount>().as('n')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .groupBy('state')
    .execute();
}

/** Tag-log rows of the store finished in [from, now], per result (scheduled changes' records aside: no work). */
export function tagLogByResult(db: Db, at: CurrentStore, from: number) {
  return db
    .selectFrom('tag_log')
    .select((eb) => ['result', eb.fn.countAll<DbCount>().as('n')])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('finished_at', '>=', from)
    .where('kind', '<>', SCHEDULE_TAG_LOG_KIND)
    .groupBy('result')
    .execute();
}

/**
 * The median of finished − queued over the refreshes the tags confirmed since `from`, ms; null
 * when there were none. Counted, then the one or two middle values read by offset: both dialects
 * alike (SQLite has no percentile function).
 */
export async function medianLatencyMs(db: Db, at: CurrentStore, from: number): Promise<number | null> {
  const base = db
    .selectFrom('tag_log')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('finished_at', '>=', from)
    .where('result', '=', 'ok')
    .where('kind', 'in', REFRESH_KINDS)
    .where('queued_at', 'is not', null);
  const counted = await base.select((eb) => eb.fn.countAll<DbCount>().as('n')).executeTakeFirstOrThrow();
  const n = Number(counted.n);
  if (n === 0) return null;
  const latency = sql<DbCount>`${sql.ref('finished_at')} - ${sql.ref('queued_at')}`;
  const middle = await base
    .select(latency.as('ms'))
    .orderBy(latency)
    .limit(n % 2 === 1 ? 1 : 2)
    .offset(Math.floor((n - 1) / 2))
    .execute();
  const values = middle.map((r) => Number(r.ms));
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Refreshes of the store per day and result (ok, failed), as `changesPerDay` buckets days. */
export function deliveriesPerDay(db: Db, at: CurrentStore, window: { from: number; days: number }) {
  const to = window.from + window.days * DAY_MS;
  const rows = db
    .selectFrom('tag_log')
    .select([
      'result',
      sql<DbCount>`cast((${sql.ref('finished_at')} - ${window.from}) / ${DAY_MS} as integer)`.as('day'),
    ])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('kind', 'in', REFRESH_KINDS)
    .where('result', 'in', ['ok', 'failed'])
    .where('finished_at', '>=', window.from)
    .where('finished_at', '<', to);
  return db
    .selectFrom(rows.as('d'))
    .select((eb) => ['d.day', 'd.result', eb.fn.countAll<DbCount>().as('n')])
    .groupBy(['d.day', 'd.result'])
    .execute();
}
