import type SQLite from 'better-sqlite3';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dialectOfDb, holdingSqliteWriter, sqliteHandleOf } from '../../../infra/db/database';
import { transact, withRetry } from '../../../infra/db/retry';
import type { Database } from '../../../infra/db/schema';
import { type StatusThresholds, thresholdsFromJson } from './status';

/* SQL of the gateway's tag reports: the reported tags stored, their status recomputed. */

type Db = Kysely<Database>;

export interface ReportedTag {
  id: number;
  tenant_id: number;
  store_id: number;
  hardware_id: string;
  station_id: number | null;
  signal: number | null;
  desired_hash: string | null;
  wake_s: number | null;
  status: string;
  station_online: number | null;
  /** Its model (catalogue code or learned key) and colour type. */
  model: string;
  colour: string;
}

/**
 * Prepared statements of the report handler's hot path on SQLite, per database handle: one
 * statement run per row inside one transaction costs a third of what the JSON-unpacking UPDATE
 * did (no JSON to build and parse, no index move for an unchanged station), measured in
 * bench/tag-report-store.bench.ts.
 */
interface HotStatements {
  lookup: SQLite.Statement;
  same: SQLite.Statement;
  moved: SQLite.Statement;
  apply: (updates: readonly TagUpdate[], status?: ReportStatus) => void;
  /** storeHeardInPlace's transaction. */
  inPlace: (station: InPlaceStation, heard: readonly HeardTag[], now: number, th: StatusThresholds) => number[];
  /** The status statement by SQL text (the thresholds and the time are its parameters). */
  statuses: Map<string, SQLite.Statement>;
}
const hot = new WeakMap<SQLite.Database, HotStatements>();

/**
 * How a report's transaction keeps status right. A tag heard within its wake allowance (nearly
 * every reported tag) is normal or online, and only its picture decides which: when that is the
 * status the row had at the lookup (`kept`), the row's UPDATE leaves status alone, guarded by the
 * desired picture and status it was decided from — naming status in SET rewrites its index entry
 * even for the same value, which cost as much as a second statement (bench/tag-report-store.bench.ts).
 * Any other tag, or a row whose guard no longer holds (a render or the sweep came between), gets
 * the whole rule, tagStatusSql, as a second statement (`stmt`, the tag's id its last parameter).
 */
interface ReportStatus {
  stmt: SQLite.Statement;
  params: unknown[];
  kept: (u: TagUpdate) => boolean;
}

const REPORT_SET = `signal = ?, battery = ?, temperature = coalesce(?, temperature), hardware_model = ?,
  last_seen = case when last_seen is null or ? > last_seen then ? else last_seen end,
  wake_s = coalesce(?, wake_s), shown_ver = ?, shown_page = ?, fw = coalesce(?, fw),
  next_wake_at = case when ? is null then next_wake_at else ? + ? * 1000 end`;

function hotStatements(raw: SQLite.Database): HotStatements {
  let s = hot.get(raw);
  if (s) return s;
  const lookup = raw.prepare(`select t.id, t.tenant_id, t.store_id, t.hardware_id, t.station_id, t.signal,
      t.desired_hash, t.wake_s, t.status, s.online as station_online, t.model, t.colour
    from json_each(?) j join tags t on t.hardware_id = j.value left join stations s on s.id = t.station_id`);
  const same = raw.prepare(`update tags set ${REPORT_SET} where id = ?`);
  // Naming station_id in SET moves the row in the station index even when the value is the same:
  // only a tag routed to another station takes this statement.
  const moved = raw.prepare(`update tags set station_id = ?, ${REPORT_SET} where id = ?`);
  const guard = 'where id = ? and desired_hash is ? and status = ?';
  const sameKept = raw.prepare(`update tags set ${REPORT_SET} ${guard}`);
  const movedKept = raw.prepare(`update tags set station_id = ?, ${REPORT_SET} ${guard}`);
  const apply = raw.transaction((updates: readonly TagUpdate[], status?: ReportStatus) => {
    for (const u of updates) {
      const values = [
        u.signal,
        u.battery,
        u.temperature,
        u.hardwareModel,
        u.lastSeen,
        u.lastSeen,
        u.wakeS,
        u.shownVer,
        u.shownPage,
        u.fw,
        u.wakeS,
        u.lastSeen,
        u.wakeS,
      ];
      if (status?.kept(u)) {
        const done = u.stationChanged
          ? movedKept.run(u.stationId, ...values, u.id, u.desiredBefore, u.statusBefore)
          : sameKept.run(...values, u.id, u.desiredBefore, u.statusBefore);
        if (done.changes === 1) continue;
      }
      if (u.stationChanged) moved.run(u.stationId, ...values, u.id);
      else same.run(...values, u.id);
      if (status) {
        // The tag's id is the statement's last parameter.
        status.params[status.params.length - 1] = u.id;
        status.stmt.run(...status.params);
      }
    }
  });
  // A tag stored in place (storeHeardInPlace): its id by the hardware-id index alone, then one
  // UPDATE whose WHERE holds everything the handler would otherwise have looked at the row for:
  // the station's tenant and store; the route rule of report.ts routeTo, staying where it is (this
  // station's, or another online station's that does not hear it 6 dB better: the signal kept is
  // that route's); status kept — heard within the allowance by this entry, 'normal', showing the
  // picture it should (nothing for the task engine); the learned model it already has.
  const idOf = raw.prepare('select id from tags where hardware_id = ?').pluck(true);
  const inPlaceStmt =
    raw.prepare(`update tags set signal = case when station_id = ? then ? else signal end, battery = ?,
      temperature = coalesce(?, temperature), hardware_model = ?, last_seen = max(coalesce(last_seen, 0), ?),
      wake_s = coalesce(?, wake_s), shown_ver = ?, shown_page = ?, fw = coalesce(?, fw),
      next_wake_at = coalesce(?, next_wake_at)
    where id = ? and tenant_id = ? and store_id = ?
      and (station_id = ? or (signal is not null and ? < signal + 6
        and exists (select 1 from stations s where s.id = tags.station_id and s.online <> 0)))
      and status = 'normal' and (desired_hash is null or substr(desired_hash, 1, 16) = ?)
      and model = coalesce(?, model) and coalesce(?, wake_s, ?) * ? >= ?`);
  // Else (a first report, a tag moving here, a status coming back to normal): routed to this
  // station by the same rule, 'normal' by the same conditions. Naming station_id and status
  // rewrites their index entries, so this is only the second try.
  const hereStmt = raw.prepare(`update tags set station_id = ?, signal = ?, battery = ?,
      temperature = coalesce(?, temperature), hardware_model = ?, last_seen = max(coalesce(last_seen, 0), ?),
      wake_s = coalesce(?, wake_s), shown_ver = ?, shown_page = ?, fw = coalesce(?, fw),
      next_wake_at = coalesce(?, next_wake_at), status = 'normal'
    where id = ? and tenant_id = ? and store_id = ?
      and (station_id is null or station_id = ? or signal is null or ? >= signal + 6
        or not exists (select 1 from stations s where s.id = tags.station_id and s.online <> 0))
      and (desired_hash is null or substr(desired_hash, 1, 16) = ?)
      and model = coalesce(?, model) and coalesce(?, wake_s, ?) * ? >= ?`);
  const inPlace = raw.transaction(
    (station: InPlaceStation, heard: readonly HeardTag[], now: number, th: StatusThresholds): number[] => {
      const out: number[] = new Array(heard.length);
      const me = station.id;
      const missedMs = th.missedWakes * 1000;
      for (let i = 0; i < heard.length; i++) {
        const h = heard[i] as HeardTag;
        const id = idOf.get(h.hardwareId) as number | undefined;
        if (id === undefined) {
          out[i] = 0;
          continue;
        }
        // Heard within the allowance (the last condition: this entry within missedWakes × the wake
        // interval, the entry's or else the row's) and not lost: then, as in tagStatusSql, the picture decides.
        if (!(h.lastSeen > now - th.lostMs)) {
          out[i] = -id;
          continue;
        }
        const params = [
          me,
          h.rssi,
          h.battery,
          h.temperature,
          h.hardwareModel,
          h.lastSeen,
          h.wakeS,
          h.shownVer,
          h.shownPage,
          h.fw,
          nextWakeOf(h),
          id,
          station.tenantId,
          station.storeId,
          me,
          h.rssi,
          h.shownVer,
          h.learnedModel,
          h.wakeS,
          th.defaultWakeS,
          missedMs,
          now - h.lastSeen,
        ];
        out[i] = inPlaceStmt.run(params).changes === 1 || hereStmt.run(params).changes === 1 ? id : -id;
      }
      return out;
    },
  );
  s = { lookup, same, moved, apply, inPlace, statuses: new Map() };
  hot.set(raw, s);
  return s;
}

interface StatusStatement {
  stmt: SQLite.Statement;
  /** The tag's id is the last. */
  params: unknown[];
}

/** The status statement (tagStatusSql for one row by id), prepared once per SQL text. */
function statusStatement(db: Db, raw: SQLite.Database, now: number, th: StatusThresholds): StatusStatement {
  const hotOnes = hotStatements(raw);
  const compiled = db
    .updateTable('tags')
    .set({ status: tagStatusSql(now, th) })
    .where(({ eb }) => eb('status', '<>', tagStatusSql(now, th)))
    .where('id', '=', 0)
    .compile();
  let stmt = hotOnes.statuses.get(compiled.sql);
  if (!stmt) {
    stmt = raw.prepare(compiled.sql);
    if (hotOnes.statuses.size > 16) hotOnes.statuses.clear();
    hotOnes.statuses.set(compiled.sql, stmt);
  }
  return { stmt, params: [...compiled.parameters] };
}

/** The registered tags among `hardwareIds`, with the online state of the station each was last heard by. */
export async function tagsByHardwareId(db: Db, hardwareIds: readonly string[]): Promise<ReportedTag[]> {
  const raw = sqliteHandleOf(db);
  if (raw) {
    const json = JSON.stringify(hardwareIds);
    return holdingSqliteWriter(db, () => hotStatements(raw).lookup.all(json) as ReportedTag[]);
  }
  return db
    .selectFrom('tags')
    .leftJoin('stations', 'stations.id', 'tags.station_id')
    .select([
      'tags.id',
      'tags.tenant_id',
      'tags.store_id',
      'tags.hardware_id',
      'tags.station_id',
      'tags.signal',
      'tags.desired_hash',
      'tags.wake_s',
      'tags.status',
      'stations.online as station_online',
      'tags.model',
      'tags.colour',
    ])
    .where('tags.hardware_id', 'in', hardwareIds)
    .execute();
}

export interface TagUpdate {
  id: number;
  stationId: number;
  signal: number;
  battery: number;
  temperature: number | null;
  hardwareModel: string;
  lastSeen: number;
  wakeS: number | null;
  /** The row as the lookup read it: the wake interval (the status rule falls back to it), the
   * picture it should show, its status. */
  wakeSBefore: number | null;
  desiredBefore: string | null;
  statusBefore: string;
  shownVer: string | null;
  /** The page the tag shows (docs/PAGES.md): 1 when the entry names none. */
  shownPage: number;
  fw: string | null;
  /** Routed to another station than the row holds (SQLite: only then is station_id written). */
  stationChanged: boolean;
}

type Cast = 'bigint' | 'integer' | 'text';

/**
 * The select list that unpacks rows sent as one JSON parameter of arrays (`value`, of json_each on
 * SQLite or jsonb_array_elements on PostgreSQL): element k as the k-th column, cast to its type.
 * The arrays are built in the same order as the list (applyTagUpdates, storeInPlacePg).
 */
function unpacked(columns: ReadonlyArray<readonly [name: string, type: Cast]>): RawBuilder<unknown> {
  return sql.raw(columns.map(([name, type], k) => `cast(value ->> ${k} as ${type}) as ${name}`).join(', '));
}

/** applyTagUpdates' rows, in the order of its arrays. */
const UPDATE_COLUMNS = [
  ['id', 'bigint'],
  ['station_id', 'bigint'],
  ['signal', 'integer'],
  ['battery', 'integer'],
  ['temperature', 'integer'],
  ['hardware_model', 'text'],
  ['last_seen', 'bigint'],
  ['wake_s', 'integer'],
  ['shown_ver', 'text'],
  ['fw', 'text'],
  ['shown_page', 'integer'],
] as const;

/**
 * Stores one report's tags. On SQLite (through the handle `openDatabase` opened) one prepared
 * UPDATE per row in one transaction, holding the writer connection (holdingSqliteWriter). Otherwise (PostgreSQL, or a
 * transaction's Kysely) one UPDATE per report: the rows travel as one JSON parameter that the
 * database unpacks (json_each on SQLite, jsonb_array_elements on PostgreSQL). A VALUES list of 500 rows bound
 * 5,000 parameters and cost ~40 ms to build and prepare before any row was written; the JSON form
 * takes 2–10 ms for the same 500 tags (bench/station-gateway.bench.ts, docs/PERFORMANCE.md).
 */
export async function applyTagUpdates(
  db: Db,
  updates: readonly TagUpdate[],
  /** Also sets each row's status by the rule over the values written (storeTagReport's, one statement). */
  status?: { now: number; th: StatusThresholds },
): Promise<void> {
  if (updates.length === 0) return;
  const raw = sqliteHandleOf(db);
  if (raw && !status) {
    await holdingSqliteWriter(db, () => hotStatements(raw).apply(updates));
    return;
  }
  const json = JSON.stringify(
    updates.map((u) => [
      u.id,
      u.stationId,
      u.signal,
      u.battery,
      u.temperature,
      u.hardwareModel,
      u.lastSeen,
      u.wakeS,
      u.shownVer,
      u.fw,
      u.shownPage,
    ]),
  );
  const rows =
    dialectOfDb(db) === 'postgres' ? sql`jsonb_array_elements(cast(${json} as jsonb))` : sql`json_each(${json})`;
  // SET expressions read the row as it was: the status is decided over the values written.
  const statusSet = status
    ? sql`,
      status = ${tagStatusOf(status.now, status.th, {
        lastSeen: sql`case when tags.last_seen is null or v.last_seen > tags.last_seen then v.last_seen else tags.last_seen end`,
        wakeS: sql`coalesce(v.wake_s, tags.wake_s)`,
        desiredHash: sql`tags.desired_hash`,
        shownVer: sql`v.shown_ver`,
        stationId: sql`v.station_id`,
      })}`
    : sql``;
  await sql`with v as (select ${unpacked(UPDATE_COLUMNS)}
      from ${rows})
    update tags set
      station_id = v.station_id,
      signal = v.signal,
      battery = v.battery,
      temperature = coalesce(v.temperature, tags.temperature),
      hardware_model = v.hardware_model,
      last_seen = case when tags.last_seen is null or v.last_seen > tags.last_seen then v.last_seen else tags.last_seen end,
      wake_s = coalesce(v.wake_s, tags.wake_s),
      shown_ver = v.shown_ver,
      shown_page = v.shown_page,
      fw = coalesce(v.fw, tags.fw),
      next_wake_at = case when v.wake_s is null then tags.next_wake_at
        else v.last_seen + cast(v.wake_s as bigint) * 1000 end${statusSet}
    from v where tags.id = v.id`.execute(db);
}

/** A report's entry as the in-place store writes it (storeHeardInPlace). */
export interface HeardTag {
  hardwareId: string;
  /** Rounded, dBm. */
  rssi: number;
  battery: number;
  temperature: number | null;
  hardwareModel: string;
  lastSeen: number;
  wakeS: number | null;
  shownVer: string | null;
  shownPage: number;
  fw: string | null;
  /** A learned model's key the tag should have (stored in place only when it has it), else null. */
  learnedModel: string | null;
}

/** When a heard tag wakes next: its last sighting plus its wake interval, or null when it sent none. */
const nextWakeOf = (h: HeardTag) => (h.wakeS === null ? null : h.lastSeen + h.wakeS * 1000);

/** The reporting station. */
export interface InPlaceStation {
  id: number;
  tenantId: number;
  storeId: number;
}

/**
 * Stores a report's entries where that needs no look at the row first (SQLite, through the handle
 * `openDatabase` opened): a tag of the station's store that stays routed where it is, keeps its
 * status ('normal', heard within its allowance) and shows the picture it should — nearly every
 * entry of a working store — is found by the hardware-id index alone and written by one UPDATE
 * whose WHERE checks all that. One transaction, one commit per report. Answers per entry the
 * tag's id when stored, 0 when nobody registered the hardware id (on PostgreSQL −1 for every entry
 * not stored), −id when the row was left
 * alone: another tenant's or store's tag, one whose picture, model or status the report may
 * change — the caller looks those up (tagsByHardwareId) and stores them (storeTagReport). A first
 * report, a tag moving to this station or coming back to normal is a second in-place UPDATE that
 * writes station and status. On PostgreSQL the first rule only, as one statement (storeInPlacePg).
 * Answers null, having stored nothing, inside a transaction. report.test.ts holds both paths to
 * the same rows, on SQLite and on PostgreSQL.
 *
 * Looking at every row before writing it was nearly half of the database's share of a report,
 * and each looked-at row a JavaScript object: a report cost 4.91 µs of CPU a tag so against 7.04
 * (bench/tag-report-store.bench.ts `--only report:`, docs/performance-log.md 2026-12-03).
 */
export async function storeHeardInPlace(
  db: Db,
  station: InPlaceStation,
  heard: readonly HeardTag[],
  now: number,
  th: StatusThresholds,
): Promise<number[] | null> {
  const raw = sqliteHandleOf(db);
  if (!raw) {
    const pg = dialectOfDb(db) === 'postgres' && !db.isTransaction && inPlaceOnPostgres.on;
    return pg ? storeInPlacePg(db, station, heard, now, th) : null;
  }
  if (heard.length === 0) return [];
  return holdingSqliteWriter(db, () => hotStatements(raw).inPlace(station, heard, now, th));
}

/** Whether PostgreSQL stores reports in place (storeInPlacePg); report.test.ts turns it off to compare with the look-up. */
export const inPlaceOnPostgres = { on: true };

/**
 * storeInPlacePg's entries, in the order of its arrays: what the station said only. The entry's
 * place (`with ordinality`), its age and its next wake are worked out by the statement: sent,
 * they were three of fourteen values to write and parse a tag (performance log, "PostgreSQL by its
 * socket").
 */
const IN_PLACE_COLUMNS = [
  ['hw', 'text'],
  ['rssi', 'integer'],
  ['battery', 'integer'],
  ['temperature', 'integer'],
  ['hardware_model', 'text'],
  ['last_seen', 'bigint'],
  ['wake_s', 'integer'],
  ['shown_ver', 'text'],
  ['shown_page', 'integer'],
  ['fw', 'text'],
  ['learned_model', 'text'],
] as const;

/**
 * storeHeardInPlace on PostgreSQL: one statement for the whole report. The entries travel as one
 * JSON parameter; the reported tags are locked in ascending id order (the order every writer of
 * many tags takes, so three stations reporting the same tags at once do not deadlock); one UPDATE
 * stores those that stay as they are, by the conditions of SQLite's first in-place statement (its
 * WHERE the same rule: the station's tenant and store, the route kept, 'normal', heard within
 * its allowance and not lost, the picture it should show, the learned model it has); and the
 * answer is per entry the id stored, or −1: left to the look-up (which also counts a hardware id
 * nobody registered).
 * Tags routed here for the first time, moving, or changing status are left to the look-up
 * (lookUpAndStore), as every entry was before: in a working store that is nearly none, and the
 * look-up read 2,000 rows of twelve columns into the server for each report and locked them in a
 * statement of its own (docs/performance-log.md, "The gateway under 50 % of a core"). A lost deadlock or
 * serialisation runs the statement again; the statement is all or nothing.
 */
async function storeInPlacePg(
  db: Db,
  station: InPlaceStation,
  heard: readonly HeardTag[],
  now: number,
  th: StatusThresholds,
): Promise<number[]> {
  if (heard.length === 0) return [];
  const json = JSON.stringify(
    heard.map((h) => [
      h.hardwareId,
      h.rssi,
      h.battery,
      h.temperature,
      h.hardwareModel,
      h.lastSeen,
      h.wakeS,
      h.shownVer,
      h.shownPage,
      h.fw,
      h.learnedModel,
    ]),
  );
  const me = station.id;
  // The plan must not depend on statistics (a store whose tags all turned 'normal' since the last
  // ANALYZE had PostgreSQL walk them all, 0.8 s a report): `l` finds the reported rows by the
  // hardware-id index, joined to the entries, and locks them in id order; the UPDATE reaches each
  // by its primary key alone, and its conditions read the locked row as `l` has it (locked, it
  // cannot change before the UPDATE).
  const rows = await withRetry(() =>
    sql<{ i: number; id: string | number }>`with e as (select ${unpacked(IN_PLACE_COLUMNS)}, i
      from jsonb_array_elements(cast(${json} as jsonb)) with ordinality as a(value, i)),
    v as (select e.*, cast(${now} as bigint) - last_seen as age,
        case when wake_s is null then null else last_seen + cast(wake_s as bigint) * 1000 end as next_wake_at
      from e),
    l as materialized (select t.id, t.tenant_id, t.store_id, t.station_id, t.signal, t.status, t.desired_hash,
        t.model, t.wake_s as row_wake_s, v.*
      from v join tags t on t.hardware_id = v.hw order by t.id for update of t)
    update tags set
        signal = case when l.station_id = ${me} then l.rssi else tags.signal end,
        battery = l.battery,
        temperature = coalesce(l.temperature, tags.temperature),
        hardware_model = l.hardware_model,
        last_seen = greatest(coalesce(tags.last_seen, 0), l.last_seen),
        wake_s = coalesce(l.wake_s, tags.wake_s),
        shown_ver = l.shown_ver,
        shown_page = l.shown_page,
        fw = coalesce(l.fw, tags.fw),
        next_wake_at = coalesce(l.next_wake_at, tags.next_wake_at)
      from l
      where tags.id = l.id
        and l.tenant_id = ${station.tenantId} and l.store_id = ${station.storeId}
        and (l.station_id = ${me} or (l.signal is not null and l.rssi < l.signal + 6
          and exists (select 1 from stations s where s.id = l.station_id and s.online <> 0)))
        and l.status = 'normal' and (l.desired_hash is null or substr(l.desired_hash, 1, 16) = l.shown_ver)
        and l.model = coalesce(l.learned_model, l.model)
        and l.last_seen > cast(${now - th.lostMs} as bigint)
        and cast(coalesce(l.wake_s, l.row_wake_s, ${th.defaultWakeS}) as bigint) * cast(${th.missedWakes * 1000} as bigint) >= l.age
      returning l.i, tags.id`.execute(db),
  );
  // Not stored (or nobody's): −1, left to the look-up, which also counts the unregistered.
  const out: number[] = new Array(heard.length).fill(-1);
  for (const r of rows.rows) out[Number(r.i) - 1] = Number(r.id);
  return out;
}

/**
 * Stores one report's tags (applyTagUpdates) and recomputes their status (recomputeTagStatus). On
 * SQLite both run per tag in one transaction of prepared statements: one commit per report, and
 * no 500-parameter statement for Kysely to build.
 */
export async function storeTagReport(
  db: Db,
  updates: readonly TagUpdate[],
  now: number,
  th: StatusThresholds,
): Promise<void> {
  if (updates.length === 0) return;
  const raw = sqliteHandleOf(db);
  if (!raw) {
    // One transaction that locks the rows in ascending id order before writing them: three
    // stations hearing the same 500 tags report them at once, and an UPDATE … FROM locks rows in
    // whatever order its plan meets them, so two such reports deadlocked (docs/SERVER.md,
    // "Deadlocks and retries"). Lost anyway (another writer's order), the transaction runs again.
    // The rows and their status in one UPDATE (the status decided over the values it writes).
    const ids = updates.map((u) => u.id).sort((a, b) => a - b);
    await transact(db, async (trx) => {
      await lockTags(trx, ids);
      await applyTagUpdates(trx, updates, { now, th });
    });
    return;
  }
  const hotOnes = hotStatements(raw);
  const { stmt, params } = statusStatement(db, raw, now, th);
  // tagStatusSql's first branches for the row after the update: heard within its allowance (last
  // seen is at least the report's, the wake interval the report's or else the row's) and not lost.
  // Then the picture decides, as in tagStatusSql; kept when that is the status the row has.
  const kept = (u: TagUpdate) =>
    u.lastSeen > now - th.lostMs &&
    u.lastSeen >= now - th.missedWakes * 1000 * (u.wakeS ?? u.wakeSBefore ?? th.defaultWakeS) &&
    u.statusBefore === (u.desiredBefore === null || u.desiredBefore.slice(0, 16) === u.shownVer ? 'normal' : 'online');
  const status: ReportStatus = { stmt, params, kept };
  await holdingSqliteWriter(db, () => hotOnes.apply(updates, status));
}

/** What a report's handler makes of the rows it looked up: the updates to store, and anything else it learnt. */
export interface ReportPlan<T> {
  updates: readonly TagUpdate[];
  result: T;
}

/**
 * Looks up the reported tags (tagsByHardwareId), lets `plan` decide their updates, and stores them
 * with their status (storeTagReport). On SQLite through the handle `openDatabase` opened, that is
 * what it says. Otherwise (PostgreSQL) one transaction of two statements: the look-up locks the
 * rows in ascending id order (`FOR UPDATE`, the order every writer of many tags takes; a report
 * once locked them in a statement of its own after looking them up outside), and one UPDATE writes
 * rows and status. A lost deadlock runs the transaction again, `plan` too: it must only compute.
 */
export async function lookUpAndStore<T>(
  db: Db,
  hardwareIds: readonly string[],
  plan: (known: readonly ReportedTag[]) => ReportPlan<T>,
  now: number,
  th: StatusThresholds,
): Promise<T> {
  if (sqliteHandleOf(db)) {
    const { updates, result } = plan(await tagsByHardwareId(db, hardwareIds));
    await storeTagReport(db, updates, now, th);
    return result;
  }
  const postgres = dialectOfDb(db) === 'postgres';
  const wanted = postgres
    ? sql`t.hardware_id = any(cast(${[...hardwareIds]} as text[]))`
    : sql`t.hardware_id in (select value from json_each(${JSON.stringify(hardwareIds)}))`;
  return transact(db, async (trx) => {
    const known = await sql<ReportedTag>`select t.id, t.tenant_id, t.store_id, t.hardware_id, t.station_id,
        t.signal, t.desired_hash, t.wake_s, t.status, s.online as station_online, t.model, t.colour
      from tags t left join stations s on s.id = t.station_id
      where ${wanted} order by t.id${postgres ? sql` for update of t` : sql``}`.execute(trx);
    const { updates, result } = plan(known.rows);
    await applyTagUpdates(trx, updates, { now, th });
    return result;
  });
}

/** Locks these tag rows (PostgreSQL), in ascending id order: the order every writer of many tags takes. */
export async function lockTags(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || dialectOfDb(db) !== 'postgres') return;
  const sorted = [...ids].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i += 1000) {
    await db
      .selectFrom('tags')
      .select('id')
      .where('id', 'in', sorted.slice(i, i + 1000))
      .orderBy('id')
      .forUpdate()
      .execute();
  }
}

/** Recomputes tag status in one store (only `ids`, when given); rows already right are left alone. */
export async function recomputeTagStatus(
  db: Db,
  store: { tenantId: number; storeId: number },
  now: number,
  th: StatusThresholds,
  ids?: readonly number[],
): Promise<number> {
  if (ids && ids.length === 0) return 0;
  const status = tagStatusSql(now, th);
  let q = db
    .updateTable('tags')
    .set({ status })
    .where(({ eb }) => eb('status', '<>', status));
  // With ids (the caller's tags of this store) the primary key finds the rows: also naming
  // store_id let SQLite pick the (store_id, last_seen) index and walk the whole store for every
  // report — 60–90 ms per 500 tags in a 200,000-tag store (bench/station-gateway.bench.ts).
  // Without ids, the store's rows through the (tenant_id, store_id, id) index.
  q = ids ? q.where('id', 'in', ids) : q.where('tenant_id', '=', store.tenantId).where('store_id', '=', store.storeId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every store with tags, with its status thresholds. */
export async function storesWithThresholds(
  db: Db,
): Promise<Array<{ tenantId: number; storeId: number; th: StatusThresholds }>> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('store_params', 'store_params.store_id', 'stores.id')
    .select(['stores.tenant_id', 'stores.id', 'store_params.params'])
    .execute();
  return rows.map((r) => ({ tenantId: r.tenant_id, storeId: r.id, th: thresholdsFromJson(r.params) }));
}

export async function thresholdsOfStore(db: Db, storeId: number): Promise<StatusThresholds> {
  const row = await db.selectFrom('store_params').select('params').where('store_id', '=', storeId).executeTakeFirst();
  return thresholdsFromJson(row?.params);
}

/** status.ts's rules over a `tags` row (SQLite and PostgreSQL); tested against them in ../rules.test.ts. */
export function tagStatusSql(now: number, th: StatusThresholds): RawBuilder<string> {
  return tagStatusOf(now, th, TAG_COLUMNS);
}

/** The columns tagStatusSql reads, as SQL expressions. */
interface StatusColumns {
  lastSeen: RawBuilder<unknown>;
  wakeS: RawBuilder<unknown>;
  desiredHash: RawBuilder<unknown>;
  shownVer: RawBuilder<unknown>;
  stationId: RawBuilder<unknown>;
}
const TAG_COLUMNS: StatusColumns = {
  lastSeen: sql`tags.last_seen`,
  wakeS: sql`tags.wake_s`,
  desiredHash: sql`tags.desired_hash`,
  shownVer: sql`tags.shown_ver`,
  stationId: sql`tags.station_id`,
};

/** tagStatusSql over other expressions than the row's columns (the values an UPDATE writes). */
function tagStatusOf(now: number, th: StatusThresholds, c: StatusColumns): RawBuilder<string> {
  // Casts: PostgreSQL types a bare parameter from its neighbour, and `integer` cannot hold Unix ms.
  const heardWithin = sql`cast(${now} as bigint) - cast(${th.missedWakes * 1000} as bigint) * coalesce(${c.wakeS}, cast(${th.defaultWakeS} as bigint))`;
  return sql<string>`case
    when ${c.lastSeen} is null then 'unknown'
    when ${c.lastSeen} <= ${now - th.lostMs} then 'lost'
    when ${c.lastSeen} >= ${heardWithin} then
      case when ${c.desiredHash} is null or substr(${c.desiredHash}, 1, 16) = ${c.shownVer} then 'normal' else 'online' end
    when exists (select 1 from stations s where s.id = ${c.stationId} and s.online = 0) then 'disconnected'
    when ${c.lastSeen} <= ${now - th.offlineMs} then 'offline'
    else 'interrupted' end`;
}

/**
 * Tags of a tenant take a learned model (docs/PROTOCOL.md §5.13): those with these ids, or every
 * one whose station reported the key; the colour type the model's when it has one. Answers the
 * tags whose model changed, by store.
 */
export async function adoptModel(
  db: Db,
  tenantId: number,
  key: string,
  colour: string | null,
  ids: readonly number[] | null,
): Promise<Array<{ id: number; store_id: number }>> {
  if (ids && ids.length === 0) return [];
  let q = db
    .updateTable('tags')
    .set({ model: key, ...(colour ? { colour } : {}) })
    .where('tenant_id', '=', tenantId)
    .where('model', '<>', key);
  q = ids ? q.where('id', 'in', ids) : q.where('hardware_model', '=', key);
  return q.returning(['id', 'store_id']).execute();
}

/** Tags of a tenant of these models (a learned model's size or colours changed). */
export function tagsOfModels(db: Db, tenantId: number, keys: readonly string[]) {
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select(['id', 'store_id'])
    .where('tenant_id', '=', tenantId)
    .where('model', 'in', keys)
    .execute();
}

/**
 * Tags of the tenant heard by a station of another store than theirs: which station and when
 * (docs/PROBLEMS.md, a misused tag while newer than the tag's own last sighting).
 */
export async function heardElsewhere(
  db: Kysely<Database>,
  tenantId: number,
  tagIds: readonly number[],
  stationId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('tags')
    .set({ foreign_station_id: stationId, foreign_seen_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', tagIds)
    .execute();
}
