import type { FirmwareTaskState } from '../../infra/db/schema';
import { ACTIVE, AT_STATION, type Db, taskRows } from '../../modules/firmware/repository';

/*
 * SQL of the firmware rollout engine: which upgrades are due where, moving an upgrade from state
 * to state (one conditional UPDATE on (id, rev, state), so a late or repeated station message
 * changes nothing), and the chunks it serves. The upgrades themselves are opened and listed by
 * modules/firmware (the console's calls); their shared parts are re-exported here for the engine.
 */

/** One upgrade's expected state: it moves only from one of `from`, at revision `rev`. */
interface Move {
  id: number;
  rev: number;
  from: readonly FirmwareTaskState[];
}

export {
  ACTIVE,
  AT_STATION,
  cancelQueuedTagTasks,
  type TaskRow,
} from '../../modules/firmware/repository';

export async function firmwareBytes(db: Db, hash: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('firmware').select('bytes').where('hash', '=', hash).executeTakeFirst();
  return row ? new Uint8Array(row.bytes) : null;
}

export function stationById(db: Db, id: number) {
  return db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'store_id', 'sn', 'online', 'firmware', 'module_firmware'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Whether label work (priority 0–1: interactive, data changes) holds tag upgrades at a station:
 * a slot running there (sent, accepted), or one ready to go to it now — routed to it (its tag's
 * station; a roll call's own) and not waiting out a retry backoff, to be rendered or queued. A
 * slot backing off (a tag not heard, say) holds nothing until it is due again.
 */
export async function labelWorkWaits(db: Db, stationId: number, now: number): Promise<boolean> {
  const running = await db
    .selectFrom('device_tasks')
    .select('id')
    .where('station_id', '=', stationId)
    .where('prio', '<=', 1)
    .where('state', 'in', ['sent', 'accepted'])
    .limit(1)
    .executeTakeFirst();
  if (running) return true;
  const ready = await db
    .selectFrom('device_tasks')
    .leftJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .select('device_tasks.id')
    .where('device_tasks.prio', '<=', 1)
    .where('device_tasks.state', 'in', ['render', 'queued'])
    .where('device_tasks.not_before', '<=', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('device_tasks.kind', '=', 'rollcall'), eb('device_tasks.station_id', '=', stationId)]),
        eb.and([eb('device_tasks.kind', '<>', 'rollcall'), eb('tags.station_id', '=', stationId)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return ready !== undefined;
}

export function taskById(db: Db, id: number) {
  return taskRows(db).where('firmware_tasks.id', '=', id).executeTakeFirst();
}

export function tasksByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return taskRows(db).where('firmware_tasks.id', 'in', ids).execute();
}

/** Whether the store has a tag upgrade not yet ended (firmware_tasks_store index). */
export async function storeHasOpenTagTasks(db: Db, tenantId: number, storeId: number): Promise<boolean> {
  const row = await db
    .selectFrom('firmware_tasks')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .where('kind', '=', 'tagfw')
    .where('state', 'in', ACTIVE)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function openTasksOfStation(db: Db, stationId: number) {
  return taskRows(db)
    .where('firmware_tasks.station_id', '=', stationId)
    .where('firmware_tasks.state', 'in', ACTIVE)
    .execute();
}

/** Stations with upgrades due now, online, with the tag transfers each runs at once. */
export function stationsWithDueTasks(db: Db, now: number) {
  return db
    .selectFrom('firmware_tasks')
    .innerJoin('stations', 'stations.id', 'firmware_tasks.station_id')
    .select(['stations.id', 'stations.tenant_id', 'stations.store_id', 'stations.sn', 'stations.fw_concurrent'])
    .where('firmware_tasks.state', '=', 'queued')
    .where('firmware_tasks.not_before', '<=', now)
    .where('stations.online', '=', 1)
    .groupBy(['stations.id', 'stations.tenant_id', 'stations.store_id', 'stations.sn', 'stations.fw_concurrent'])
    .execute();
}

export function dueTasksOfStation(db: Db, stationId: number, now: number, limit: number) {
  return taskRows(db)
    .where('firmware_tasks.station_id', '=', stationId)
    .where('firmware_tasks.state', '=', 'queued')
    .where('firmware_tasks.not_before', '<=', now)
    .orderBy('firmware_tasks.id')
    .limit(limit)
    .execute();
}

/** How many upgrades of each kind run at a station now (sent, accepted, installing). */
export async function runningAt(db: Db, stationId: number) {
  const rows = await db
    .selectFrom('firmware_tasks')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('station_id', '=', stationId)
    .where('state', 'in', ['sent', 'accepted', 'installing'])
    .groupBy(['kind', 'state'])
    .execute();
  let station = 0;
  let tagTransfers = 0;
  for (const r of rows) {
    if (r.kind === 'tagfw') {
      if (r.state !== 'installing') tagTransfers += Number(r.n);
    } else station += Number(r.n);
  }
  return { station, tagTransfers };
}

export async function move(
  db: Db,
  m: Move,
  set: Partial<{
    state: FirmwareTaskState;
    code: string;
    attempt: number;
    not_before: number;
    deadline: number | null;
    sent_at: number;
    accepted_at: number;
    installing_at: number;
    finished_at: number;
    done_bytes: number;
    came_back_on: string;
  }>,
): Promise<boolean> {
  const r = await db
    .updateTable('firmware_tasks')
    // Sent again from the queue: a version a station came back on belonged to the last attempt.
    .set(set.state === 'queued' ? { ...set, came_back_on: null } : set)
    .where('id', '=', m.id)
    .where('rev', '=', m.rev)
    .where('state', 'in', m.from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Bytes the station holds of a running transfer (never goes down within a revision). Answers
 * 'tenth' when this report is the first into a new tenth of the file (one system-log row per tenth,
 * whichever process handles the reports), 'moved' when it only moved on, null when it changed nothing.
 */
export async function setDoneBytes(
  db: Db,
  t: { id: number; rev: number; size: number },
  done: number,
): Promise<'tenth' | 'moved' | null> {
  const update = (below: number) =>
    db
      .updateTable('firmware_tasks')
      .set({ done_bytes: done })
      .where('id', '=', t.id)
      .where('rev', '=', t.rev)
      .where('state', 'in', AT_STATION)
      .where('done_bytes', '<', below)
      .executeTakeFirst();
  // The first byte of the tenth `done` is in: held before, fewer than that → a new tenth.
  const firstOfTenth = Math.ceil((Math.floor((done * 10) / Math.max(1, t.size)) * t.size) / 10);
  if (Number((await update(firstOfTenth)).numUpdatedRows) > 0) return 'tenth';
  return Number((await update(done)).numUpdatedRows) > 0 ? 'moved' : null;
}

/** Tasks whose current state has run out of time. */
export function overdue(db: Db, now: number) {
  return taskRows(db)
    .where('firmware_tasks.state', 'in', ['sent', 'accepted', 'installing'])
    .where('firmware_tasks.deadline', '<', now)
    .limit(500)
    .execute();
}

/** Tag upgrades of a store at a station now (sent, accepted). */
export function tagTasksAtStations(db: Db, tenantId: number, storeId: number) {
  return taskRows(db)
    .where('firmware_tasks.tenant_id', '=', tenantId)
    .where('firmware_tasks.store_id', '=', storeId)
    .where('firmware_tasks.kind', '=', 'tagfw')
    .where('firmware_tasks.state', 'in', AT_STATION)
    .execute();
}

/**
 * Queued tag upgrades follow their tag's route: those of tags now routed to this station (a tag
 * that had none when the upgrade was asked for, or moved) are sent from here. Answers how many moved.
 */
export async function routeQueuedTagTasks(db: Db, tenantId: number, stationId: number, hardwareIds: string[]) {
  if (hardwareIds.length === 0) return 0;
  const r = await db
    .updateTable('firmware_tasks')
    .set({ station_id: stationId })
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'tagfw')
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('station_id', 'is', null), eb('station_id', '<>', stationId)]))
    .where('tag_id', 'in', (eb) =>
      eb
        .selectFrom('tags')
        .select('tags.id')
        .where('tags.tenant_id', '=', tenantId)
        .where('tags.station_id', '=', stationId)
        .where('tags.hardware_id', 'in', hardwareIds),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
