import type { Kysely } from 'kysely';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database } from '../../infra/db/schema';

// Reading the operation and system logs; the rows are written by audit/ (below every module).

interface Range {
  from?: number;
  to?: number;
}

export interface OpLogFilter extends Range {
  page: number;
  limit: number;
  username?: string;
  call?: string;
  storeId?: number;
}

/**
 * A store-scoped reader (not an administrator): the rows of `storeIds`, and of no store only
 * their own (`username`) — never another store's.
 */
export interface OpLogReader {
  storeIds: readonly number[];
  username: string;
}

/** Operation-log rows of one tenant (null = platform rows), newest first; a scoped reader's only. */
export async function listOpLogs(
  db: Kysely<Database>,
  tenantId: number | null,
  f: OpLogFilter,
  reader: OpLogReader | null = null,
) {
  let q = db
    .selectFrom('op_logs as l')
    .where((eb) => (tenantId === null ? eb('l.tenant_id', 'is', null) : eb('l.tenant_id', '=', tenantId)));
  if (reader) {
    const ids = reader.storeIds.length ? [...reader.storeIds] : [0];
    q = q.where((eb) =>
      eb.or([
        eb('l.store_id', 'in', ids),
        eb.and([eb('l.store_id', 'is', null), eb('l.username', '=', reader.username)]),
      ]),
    );
  }
  if (f.username) q = q.where(contains('l.username', f.username));
  if (f.call) q = q.where(contains('l.call', f.call));
  if (f.storeId !== undefined) q = q.where('l.store_id', '=', f.storeId);
  if (f.from !== undefined) q = q.where('l.time', '>=', f.from);
  if (f.to !== undefined) q = q.where('l.time', '<=', f.to);
  const [rows, total] = await Promise.all([
    q
      .leftJoin('stores as s', (j) => j.onRef('s.id', '=', 'l.store_id').onRef('s.tenant_id', '=', 'l.tenant_id'))
      .select(['l.id', 'l.time', 'l.username', 'l.store_id', 's.name as store_name', 'l.call', 'l.target', 'l.code'])
      .select(['l.msg', 'l.ip'])
      .orderBy('l.id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export interface SysLogFilter extends Range {
  page: number;
  limit: number;
  level?: 'info' | 'warn' | 'error';
  event?: string;
  storeId?: number;
}

/**
 * System-log rows of one tenant (null = platform rows), newest first. A store-scoped reader (not
 * an administrator) gets the rows of `storeIds` and their own rows of no store (their sign-ins);
 * the other tenant-wide rows (others' sign-ins, firmware files) are the administrators'.
 */
export async function listSysLogs(
  db: Kysely<Database>,
  tenantId: number | null,
  f: SysLogFilter,
  reader: { storeIds: readonly number[]; userId: number } | null = null,
) {
  let q = db
    .selectFrom('sys_logs as l')
    .where((eb) => (tenantId === null ? eb('l.tenant_id', 'is', null) : eb('l.tenant_id', '=', tenantId)));
  if (reader) {
    const ids = reader.storeIds.length ? [...reader.storeIds] : [0];
    q = q.where((eb) =>
      eb.or([eb('l.store_id', 'in', ids), eb.and([eb('l.store_id', 'is', null), eb('l.user_id', '=', reader.userId)])]),
    );
  }
  if (f.level) q = q.where('l.level', '=', f.level);
  if (f.event) q = q.where(contains('l.event', f.event));
  if (f.storeId !== undefined) q = q.where('l.store_id', '=', f.storeId);
  if (f.from !== undefined) q = q.where('l.time', '>=', f.from);
  if (f.to !== undefined) q = q.where('l.time', '<=', f.to);
  const [rows, total] = await Promise.all([
    q
      .leftJoin('stores as s', (j) => j.onRef('s.id', '=', 'l.store_id').onRef('s.tenant_id', '=', 'l.tenant_id'))
      .select(['l.id', 'l.time', 'l.level', 'l.event', 'l.message', 'l.store_id', 's.name as store_name'])
      .orderBy('l.id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

// The delivery layer's logs (tag_log, push_log); the rows are written by delivery/logs/.

/** A store of a tenant: every delivery-log read is scoped to both. */
export interface StoreScope {
  tenantId: number;
  storeId: number;
}

export interface TagLogFilter extends Range {
  page: number;
  limit: number;
  hardwareId?: string;
  result?: 'ok' | 'skipped' | 'failed' | 'cancelled' | 'replaced';
  hideSkipped?: boolean;
  stationSn?: string;
  requestId?: number;
}

/** Tag-log rows of one store, newest first (by finish time). */
export async function listTagLogs(db: Kysely<Database>, at: StoreScope, f: TagLogFilter) {
  let q = db.selectFrom('tag_log').where('tenant_id', '=', at.tenantId).where('store_id', '=', at.storeId);
  if (f.hardwareId) {
    // A scanned ID of a tag the tenant has reads the index; a part of one is searched for.
    const whole = await db
      .selectFrom('tags')
      .select('id')
      .where('tenant_id', '=', at.tenantId)
      .where('hardware_id', '=', f.hardwareId)
      .executeTakeFirst();
    q = whole ? q.where('hardware_id', '=', f.hardwareId) : q.where(contains('hardware_id', f.hardwareId));
  }
  if (f.result) q = q.where('result', '=', f.result);
  else if (f.hideSkipped) q = q.where('result', '!=', 'skipped');
  if (f.stationSn) q = q.where('station_sn', '=', f.stationSn);
  if (f.requestId !== undefined) q = q.where('request_id', '=', f.requestId);
  if (f.from !== undefined) q = q.where('finished_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('finished_at', '<=', f.to);
  const [rows, total] = await Promise.all([
    q
      .select(['id', 'tag_id', 'hardware_id', 'request_id', 'kind', 'rev', 'result', 'code', 'hash', 'station_sn'])
      .select(['attempts', 'queued_at', 'sent_at', 'finished_at', 'air_ms', 'rssi', 'detail'])
      .orderBy('finished_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
export type TagLogRow = Awaited<ReturnType<typeof listTagLogs>>['rows'][number];

export interface PushLogFilter extends Range {
  page: number;
  limit: number;
  source?: 'console' | 'import' | 'api' | 'schedule' | 'callback';
  hideCallbacks?: boolean;
}

/** Data-push rows of one store, newest first (by start time), with the pushing user's name. */
export async function listPushLogs(db: Kysely<Database>, at: StoreScope, f: PushLogFilter) {
  let q = db.selectFrom('push_log as p').where('p.tenant_id', '=', at.tenantId).where('p.store_id', '=', at.storeId);
  if (f.source) q = q.where('p.source', '=', f.source);
  else if (f.hideCallbacks) q = q.where('p.source', '!=', 'callback');
  if (f.from !== undefined) q = q.where('p.started_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('p.started_at', '<=', f.to);
  const [rows, total] = await Promise.all([
    q
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'p.user_id').onRef('u.tenant_id', '=', 'p.tenant_id'))
      .select(['p.id', 'p.source', 'u.username', 'p.products', 'p.tags_affected', 'p.rendered', 'p.failed'])
      .select(['p.exceptions', 'p.exception_count', 'p.started_at', 'p.finished_at'])
      .orderBy('p.started_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
export type PushLogRow = Awaited<ReturnType<typeof listPushLogs>>['rows'][number];
