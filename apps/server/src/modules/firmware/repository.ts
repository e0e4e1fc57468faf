import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, FirmwareTaskKind, FirmwareTaskState } from '../../infra/db/schema';

/*
 * SQL of firmware upgrades: the platform's firmware files (the `firmware` table, shared with the
 * operator's version list in modules/tenants) and the upgrade slots (`firmware_tasks`). Every
 * state change is one conditional UPDATE on (id, rev, state), so a late or repeated station
 * message changes nothing.
 */

type Db = Kysely<Database> | Transaction<Database>;

export const ACTIVE: readonly FirmwareTaskState[] = ['queued', 'sent', 'accepted', 'installing'];
export const AT_STATION: readonly FirmwareTaskState[] = ['sent', 'accepted'];

// -------------------------------------------------------------------------------------------
// Firmware files

export interface NewFirmware {
  kind: 'ap' | 'module' | 'tag';
  version: string;
  name: string;
  bytes: Uint8Array;
  hash: string;
  payloadHash: string;
  models: readonly string[];
  hw: readonly string[];
  now: number;
}

export function firmwareByHash(db: Db, hash: string) {
  return db
    .selectFrom('firmware')
    .select(['id', 'kind', 'version', 'name', 'size', 'hash', 'models', 'hw', 'created_at'])
    .where('hash', '=', hash)
    .executeTakeFirst();
}

export async function insertFirmware(db: Db, f: NewFirmware): Promise<number> {
  const row = await db
    .insertInto('firmware')
    .values({
      kind: f.kind,
      version: f.version,
      name: f.name,
      size: f.bytes.length,
      bytes: f.bytes,
      created_at: f.now,
      hash: f.hash,
      payload_hash: f.payloadHash,
      models: JSON.stringify(f.models),
      hw: JSON.stringify(f.hw),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Firmware a tenant may install: every uploaded file with a header (platform-wide list). */
export function firmwareChoices(db: Db, kind?: 'ap' | 'module' | 'tag') {
  let q = db
    .selectFrom('firmware')
    .select(['id', 'kind', 'version', 'name', 'size', 'hash', 'models', 'hw', 'created_at'])
    .where('hash', '<>', '');
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('id', 'desc').limit(500).execute();
}

export function firmwareById(db: Db, id: number) {
  return db
    .selectFrom('firmware')
    .select(['id', 'kind', 'version', 'name', 'size', 'hash', 'models', 'hw'])
    .where('id', '=', id)
    .where('hash', '<>', '')
    .executeTakeFirst();
}

export async function firmwareBytes(db: Db, hash: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('firmware').select('bytes').where('hash', '=', hash).executeTakeFirst();
  return row ? new Uint8Array(row.bytes) : null;
}

// -------------------------------------------------------------------------------------------
// Devices (read)

export function stationsOfStore(db: Db, tenantId: number, storeId: number, ids?: readonly number[]) {
  let q = db
    .selectFrom('stations')
    .select(['id', 'sn', 'station_model', 'firmware', 'module_firmware', 'online'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId);
  if (ids) q = q.where('id', 'in', ids.length ? ids : [0]);
  return q.orderBy('id').execute();
}

export function tagsOfStore(db: Db, tenantId: number, storeId: number, models: readonly string[], ids?: number[]) {
  let q = db
    .selectFrom('tags')
    .select(['id', 'hardware_id', 'model', 'fw', 'station_id'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId);
  if (ids) q = q.where('id', 'in', ids.length ? ids : [0]);
  if (models.length === 0) return Promise.resolve([]);
  return q.where('model', 'in', models).orderBy('id').execute();
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

// -------------------------------------------------------------------------------------------
// Upgrade slots

export interface NewTask {
  tenantId: number;
  storeId: number;
  targetKey: string;
  kind: FirmwareTaskKind;
  stationId: number | null;
  tagId: number | null;
  firmwareId: number;
  version: string;
  hash: string;
  size: number;
  fromVersion: string;
  createdBy: number | null;
  now: number;
}

/**
 * Opens the device's slot for this firmware: a new row, or the device's old slot reused with the
 * next revision (a task still running at the station is replaced: its results no longer count).
 */
export async function openTask(db: Db, t: NewTask): Promise<number> {
  const fields = {
    store_id: t.storeId,
    station_id: t.stationId,
    tag_id: t.tagId,
    firmware_id: t.firmwareId,
    version: t.version,
    hash: t.hash,
    size: t.size,
    from_version: t.fromVersion,
    state: 'queued' as const,
    code: '',
    attempt: 0,
    done_bytes: 0,
    not_before: 0,
    deadline: null,
    created_by: t.createdBy,
    created_at: t.now,
    sent_at: null,
    accepted_at: null,
    installing_at: null,
    finished_at: null,
    came_back_on: null,
  };
  const row = await db
    .insertInto('firmware_tasks')
    .values({ tenant_id: t.tenantId, target_key: t.targetKey, kind: t.kind, ...fields })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'target_key', 'kind']).doUpdateSet({ ...fields, rev: sql`firmware_tasks.rev + 1` }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const TASK_COLUMNS = [
  'firmware_tasks.id',
  'firmware_tasks.tenant_id',
  'firmware_tasks.store_id',
  'firmware_tasks.kind',
  'firmware_tasks.station_id',
  'firmware_tasks.tag_id',
  'firmware_tasks.version',
  'firmware_tasks.hash',
  'firmware_tasks.size',
  'firmware_tasks.from_version',
  'firmware_tasks.state',
  'firmware_tasks.code',
  'firmware_tasks.rev',
  'firmware_tasks.attempt',
  'firmware_tasks.done_bytes',
  'firmware_tasks.installing_at',
  'firmware_tasks.created_at',
  'firmware_tasks.sent_at',
  'firmware_tasks.finished_at',
  'firmware_tasks.came_back_on',
] as const;

function tasks(db: Db) {
  return db
    .selectFrom('firmware_tasks')
    .leftJoin('tags', 'tags.id', 'firmware_tasks.tag_id')
    .leftJoin('stations', 'stations.id', 'firmware_tasks.station_id')
    .select([...TASK_COLUMNS, 'tags.hardware_id', 'tags.model as tag_model', 'stations.sn']);
}
export type TaskRow = Awaited<ReturnType<ReturnType<typeof tasks>['executeTakeFirstOrThrow']>>;

export function taskById(db: Db, id: number) {
  return tasks(db).where('firmware_tasks.id', '=', id).executeTakeFirst();
}

export function tasksByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return tasks(db).where('firmware_tasks.id', 'in', ids).execute();
}

/** Upgrades of one station's devices that are still open (for its hello and reports). */
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
  return tasks(db)
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
  return tasks(db)
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

interface Move {
  id: number;
  rev: number;
  from: readonly FirmwareTaskState[];
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
  return tasks(db)
    .where('firmware_tasks.state', 'in', ['sent', 'accepted', 'installing'])
    .where('firmware_tasks.deadline', '<', now)
    .limit(500)
    .execute();
}

/** Tag upgrades of a store at a station now (sent, accepted). */
export function tagTasksAtStations(db: Db, tenantId: number, storeId: number) {
  return tasks(db)
    .where('firmware_tasks.tenant_id', '=', tenantId)
    .where('firmware_tasks.store_id', '=', storeId)
    .where('firmware_tasks.kind', '=', 'tagfw')
    .where('firmware_tasks.state', 'in', AT_STATION)
    .execute();
}

/** Cancels a store's queued tag upgrades in one statement; answers their ids. */
export async function cancelQueuedTagTasks(db: Db, tenantId: number, storeId: number, now: number) {
  const rows = await db
    .updateTable('firmware_tasks')
    .set({ state: 'cancelled', code: 'stopped', finished_at: now, deadline: null })
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .where('kind', '=', 'tagfw')
    .where('state', '=', 'queued')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Upgrade slots by kind and state, the whole deployment's (/metrics). */
export async function upgradeCounts(db: Db) {
  const rows = await db
    .selectFrom('firmware_tasks')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['kind', 'state'])
    .execute();
  return rows.map((r) => ({ kind: r.kind, state: r.state, n: Number(r.n) }));
}

export interface TaskFilter {
  tenantId: number;
  storeId: number;
  kind?: FirmwareTaskKind;
  state?: FirmwareTaskState;
  page: number;
  limit: number;
}

export async function listTasks(db: Db, f: TaskFilter) {
  let q = tasks(db).where('firmware_tasks.tenant_id', '=', f.tenantId).where('firmware_tasks.store_id', '=', f.storeId);
  if (f.kind) q = q.where('firmware_tasks.kind', '=', f.kind);
  if (f.state) q = q.where('firmware_tasks.state', '=', f.state);
  let c = db
    .selectFrom('firmware_tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', f.tenantId)
    .where('store_id', '=', f.storeId);
  if (f.kind) c = c.where('kind', '=', f.kind);
  if (f.state) c = c.where('state', '=', f.state);
  const [rows, total] = await Promise.all([
    q
      .orderBy('firmware_tasks.id', 'desc')
      .limit(f.limit)
      .offset((f.page - 1) * f.limit)
      .execute(),
    c.executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
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
