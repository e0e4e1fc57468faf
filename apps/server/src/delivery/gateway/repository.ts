import type { HeartbeatMsg, HelloMsg, StationKey } from '@esl/contract/protocol';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/schema';

/* SQL of the gateway about stations: presence, runtime figures, configuration (tags/repository.ts: tag reports). */

type Db = Kysely<Database>;

export function findStation(db: Db, key: StationKey) {
  return db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'store_id', 'sn', 'online', 'conn_id', 'clock_skew_ms', 'alarms'])
    .where('tenant_id', '=', key.tenantId)
    .where('sn', '=', key.sn)
    .executeTakeFirst();
}
export type StationIdentity = NonNullable<Awaited<ReturnType<typeof findStation>>>;

/**
 * findStation for a tag report, with its store's saved parameters (the status thresholds): one
 * statement per report instead of two.
 */
export function findReportingStation(db: Db, key: StationKey) {
  return db
    .selectFrom('stations')
    .leftJoin('store_params', 'store_params.store_id', 'stations.store_id')
    .select([
      'stations.id',
      'stations.tenant_id',
      'stations.store_id',
      'stations.sn',
      'stations.online',
      'stations.conn_id',
      'stations.clock_skew_ms',
      'stations.alarms',
      'store_params.params as store_params',
    ])
    .where('stations.tenant_id', '=', key.tenantId)
    .where('stations.sn', '=', key.sn)
    .executeTakeFirst();
}

/** A station's MQTT secret hash (the broker's directory). */
export async function secretHashOf(db: Db, key: StationKey): Promise<string | null> {
  const row = await db
    .selectFrom('stations')
    .select('secret_hash')
    .where('tenant_id', '=', key.tenantId)
    .where('sn', '=', key.sn)
    .executeTakeFirst();
  return row?.secret_hash ?? null;
}

/** Online with this connection (its retained status or its hello); the heartbeat clock restarts. */
export async function markOnline(db: Db, id: number, connId: string, now: number, wasOnline: boolean) {
  await db
    .updateTable('stations')
    .set({ online: 1, conn_id: connId, last_heartbeat: now, ...(wasOnline ? {} : { status_at: now }) })
    .where('id', '=', id)
    .execute();
}

export async function applyHello(db: Db, id: number, m: HelloMsg, now: number, wasOnline: boolean) {
  await db
    .updateTable('stations')
    .set({
      online: 1,
      conn_id: m.connId,
      boot: m.boot,
      last_heartbeat: now,
      ...(wasOnline ? {} : { status_at: now }),
      ip: m.net.ip,
      mac: m.net.mac.toUpperCase(),
      ...(m.net.gw ? { gateway: m.net.gw } : {}),
      ...(m.net.mask ? { mask: m.net.mask } : {}),
      ...(m.net.ntp ? { ntp_server: m.net.ntp } : {}),
      firmware: m.fw.ap,
      module_firmware: m.fw.module ?? '',
      station_model: m.model,
      fw_concurrent: m.caps.fwConcurrent,
      clock_skew_ms: Math.round(m.time - now),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Offline, but only when `connId` is the station's current connection: the Will of an older
 * connection can arrive after the station is back. Answers whether it applied.
 */
export async function markOffline(db: Db, id: number, connId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('stations')
    .set({ online: 0, status_at: now })
    .where('id', '=', id)
    .where('conn_id', '=', connId)
    .where('online', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The heartbeat's figures; `alarms` the known alarms it raised (each heartbeat replaces the last's)
 * and the bridge's access point as it described it.
 */
export function applyHeartbeat(
  db: Db,
  id: number,
  m: HeartbeatMsg,
  now: number,
  wasOnline: boolean,
  alarms: readonly string[],
) {
  return db
    .updateTable('stations')
    .set({
      online: 1,
      ...(wasOnline ? {} : { status_at: now }),
      last_heartbeat: now,
      cpu: m.cpu,
      memory: m.mem,
      disk: m.disk,
      uptime_s: m.uptimeS,
      queue_jobs: m.queue.jobs,
      queue_bytes: m.queue.bytes,
      radio_busy_pct: m.radio.busyPct,
      tags_heard: m.tagsHeard,
      clock_skew_ms: Math.round(m.at - now),
      alarms: alarms.join(','),
      ap_state: m.ap ? JSON.stringify(m.ap) : '',
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Stations silent for more than `missed` heartbeat intervals go offline; answers them. */
export function markSilentOffline(db: Db, now: number, missed: number) {
  return db
    .updateTable('stations')
    .set({ online: 0, status_at: now })
    .where('online', '=', 1)
    .where((eb) =>
      eb.or([
        eb('last_heartbeat', 'is', null),
        eb('last_heartbeat', '<', sql<number>`cast(${now} as bigint) - cast(${missed * 1000} as bigint) * heartbeat_s`),
      ]),
    )
    .returning(['id', 'tenant_id', 'store_id', 'sn', 'last_heartbeat'])
    .execute();
}

/** Every online station's id and topic key (the time sweep tells each the server's clock). */
export function onlineStationKeys(db: Db) {
  return db.selectFrom('stations').select(['id', 'tenant_id', 'sn']).where('online', '=', 1).orderBy('id').execute();
}

export function stationRow(db: Db, id: number) {
  return db.selectFrom('stations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What `down/config` is made of: the desired configuration, its revision, the write-only password. */
export function desiredConfig(db: Db, id: number) {
  return db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'sn', 'online', 'config', 'cfg_rev', 'cfg_applied_rev', 'wifi_password'])
    .where('id', '=', id)
    .executeTakeFirst();
}
export type DesiredConfig = NonNullable<Awaited<ReturnType<typeof desiredConfig>>>;

/**
 * The revision the station reports applied. Once it is the desired one, the heartbeat interval
 * the silence sweep expects becomes the configured one (not before: the station beats at its old
 * rate until it applies).
 */
export async function setAppliedRev(db: Db, id: number, rev: number, heartbeatS: number | null) {
  await db
    .updateTable('stations')
    .set({ cfg_applied_rev: rev, ...(heartbeatS === null ? {} : { heartbeat_s: heartbeatS }) })
    .where('id', '=', id)
    .execute();
}
