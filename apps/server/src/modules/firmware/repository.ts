import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, FirmwareTaskKind, FirmwareTaskState } from '../../infra/db/schema';

/*
 * SQL of firmware upgrades: the platform's firmware files (the `firmware` table, shared with the
 * operator's version list in modules/tenants) and the upgrade slots (`firmware_tasks`). Every
 * state change is one conditional UPDATE on (id, rev, state), so a late or repeated station
 * message changes nothing.
 */

export type Db = Kysely<Database> | Transaction<Database>;

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

/** Upgrade slots with their tag's hardware id and model and their station's serial. */
export function taskRows(db: Db) {
  return db
    .selectFrom('firmware_tasks')
    .leftJoin('tags', 'tags.id', 'firmware_tasks.tag_id')
    .leftJoin('stations', 'stations.id', 'firmware_tasks.station_id')
    .select([...TASK_COLUMNS, 'tags.hardware_id', 'tags.model as tag_model', 'stations.sn']);
}
export type TaskRow = Awaited<ReturnType<ReturnType<typeof taskRows>['executeTakeFirstOrThrow']>>;

/** Upgrades of one station's devices that are still open (for its hello and reports). */

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
  let q = taskRows(db)
    .where('firmware_tasks.tenant_id', '=', f.tenantId)
    .where('firmware_tasks.store_id', '=', f.storeId);
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
