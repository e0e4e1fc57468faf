import type { Kysely } from 'kysely';
import { contains, offsetOf } from '../../db/query';
import type { Database } from '../../db/schema';

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

/** Operation-log rows of one tenant (null = platform rows), newest first. */
export async function listOpLogs(db: Kysely<Database>, tenantId: number | null, f: OpLogFilter) {
  let q = db
    .selectFrom('op_logs as l')
    .where((eb) => (tenantId === null ? eb('l.tenant_id', 'is', null) : eb('l.tenant_id', '=', tenantId)));
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
}

/** System-log rows of one tenant (null = platform rows), newest first. */
export async function listSysLogs(db: Kysely<Database>, tenantId: number | null, f: SysLogFilter) {
  let q = db
    .selectFrom('sys_logs')
    .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)));
  if (f.level) q = q.where('level', '=', f.level);
  if (f.event) q = q.where(contains('event', f.event));
  if (f.from !== undefined) q = q.where('time', '>=', f.from);
  if (f.to !== undefined) q = q.where('time', '<=', f.to);
  const [rows, total] = await Promise.all([
    q
      .select(['id', 'time', 'level', 'event', 'message'])
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
