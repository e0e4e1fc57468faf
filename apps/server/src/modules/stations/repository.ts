import type { Insertable, Kysely } from 'kysely';
import { contains, offsetOf } from '../../db/query';
import type { Database, DeviceRequestTable, StationTable } from '../../db/schema';
import type { CurrentStore } from '../stores/service';

type Db = Kysely<Database>;

function inStore(db: Db, at: CurrentStore) {
  return db.selectFrom('stations').where('tenant_id', '=', at.tenantId).where('store_id', '=', at.storeId);
}

export interface StationFilter {
  page: number;
  limit: number;
  text?: string;
  online?: boolean;
}

export async function listStations(db: Db, at: CurrentStore, f: StationFilter) {
  let q = inStore(db, at);
  if (f.text) {
    const text = f.text;
    q = q.where((eb) => eb.or([contains('sn', text), contains('name', text)]));
  }
  if (f.online !== undefined) q = q.where('online', '=', f.online ? 1 : 0);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(f.limit).offset(offsetOf(f)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Whether any tenant holds the serial: a base station belongs to one tenant of the platform. */
export async function snTaken(db: Db, sn: string): Promise<boolean> {
  const row = await db.selectFrom('stations').select('id').where('sn', '=', sn).executeTakeFirst();
  return row !== undefined;
}

export function insertStation(db: Db, row: Insertable<StationTable>) {
  return db.insertInto('stations').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findStation(db: Db, at: CurrentStore, id: number) {
  return inStore(db, at).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids among `ids` that are base stations of the store. */
export async function stationIdsIn(db: Db, at: CurrentStore, ids: readonly number[]): Promise<Set<number>> {
  const rows = await inStore(db, at).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function deleteStations(db: Db, at: CurrentStore, ids: readonly number[]): Promise<number> {
  const result = await db
    .deleteFrom('stations')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids)
    .execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function insertDeviceRequests(db: Db, rows: Insertable<DeviceRequestTable>[]): Promise<void> {
  // 9 columns a row: 1000 rows stay under SQLite's and PostgreSQL's bound-parameter limits.
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('device_requests')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
}
