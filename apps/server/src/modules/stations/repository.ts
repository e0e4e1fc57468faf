import type { Insertable, Kysely } from 'kysely';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database, DeviceRequestTable, StationTable } from '../../infra/db/schema';
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

export async function serialsOf(db: Db, at: CurrentStore, ids: readonly number[]): Promise<string[]> {
  const rows = await inStore(db, at).select('sn').where('id', 'in', ids).execute();
  return rows.map((r) => r.sn);
}

export async function setSecretHash(db: Db, at: CurrentStore, id: number, secretHash: string, now: number) {
  await db
    .updateTable('stations')
    .set({ secret_hash: secretHash, secret_at: now })
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .execute();
}

export async function updateStation(db: Db, at: CurrentStore, id: number, set: { name?: string; ap_url?: string }) {
  if (set.name === undefined && set.ap_url === undefined) return;
  await db
    .updateTable('stations')
    .set(set)
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .execute();
}

/** Every OpenEPaperLink station of the platform with its AP's address (the bridge manager's list). */
export function bridgedStations(db: Db) {
  return db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'sn', 'ap_url'])
    .where('kind', '=', 'oepl')
    .where('ap_url', '!=', '')
    .orderBy('id')
    .execute();
}

/** The hash of a secret the server issued itself (an OEPL station's in-process bridge). */
export async function setSecretHashById(db: Db, id: number, secretHash: string, now: number) {
  await db.updateTable('stations').set({ secret_hash: secretHash, secret_at: now }).where('id', '=', id).execute();
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

/**
 * Stores a new desired configuration with the next revision (the WiFi password only when it
 * changes); the columns the SPEC's console shows mirror the server address and upgrade URL.
 */
export async function setConfig(
  db: Db,
  at: CurrentStore,
  id: number,
  fields: {
    config: string;
    rev: number;
    wifiPassword?: string;
    serverHost: string;
    serverPort: number | null;
    upgradeUrl: string;
  },
) {
  await db
    .updateTable('stations')
    .set({
      config: fields.config,
      cfg_rev: fields.rev,
      ...(fields.wifiPassword === undefined ? {} : { wifi_password: fields.wifiPassword }),
      server_address: fields.serverHost,
      server_port: fields.serverPort,
      upgrade_url: fields.upgradeUrl,
    })
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .execute();
}
