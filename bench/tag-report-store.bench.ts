/**
 * What storing one station's tag report costs on SQLite, per tag, for the statement forms the
 * report handler has used (apps/server/src/delivery/gateway/tags/repository.ts):
 *
 *   node --import tsx bench/tag-report-store.bench.ts [--tags 2000000] [--rounds 5] [--only TEXT]
 *
 * A file database with the server's migrations and `--tags` tags in one store; reports of 500
 * consecutive tags (one station's message) are stored 300 times per measurement, each report in
 * its own transaction, as the handler does. CPU time (user + system) of this process per tag,
 * median of `--rounds`; compare rows within one run.
 *   - lookup: the 500 tags by hardware id — an IN list of 500 parameters vs one JSON parameter.
 *   - update: one UPDATE unpacking a JSON parameter (before) vs one prepared UPDATE per row
 *     (after), with the (store_id, last_seen) index (before) and without it (after, migration 018),
 *     and with station_id written for every row vs only for a moved tag.
 *   - report: a whole report as the handler stores it, its rows looked up first (before) or the
 *     UPDATE checking in its WHERE what the look-up was for (after, storeHeardInPlace).
 *   - status: the report's tags' status by the whole rule as a second statement per row (before),
 *     vs set in the row's own UPDATE (naming status rewrites its index entry), vs left alone by an
 *     UPDATE guarded by the picture and status the handler decided from (after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { tagStatusSql } from '../apps/server/src/delivery/gateway/tags/repository';
import { thresholdsFromJson } from '../apps/server/src/delivery/gateway/tags/status';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { newKeys } from '../apps/server/src/modules/tenants/service';

const { values } = parseArgs({
  options: {
    tags: { type: 'string', default: '2000000' },
    rounds: { type: 'string', default: '5' },
    // Only the rows whose name contains this (e.g. `report:`).
    only: { type: 'string', default: '' },
    // Rows as a rendered label's (its picture's hashes, render key and prices), not bare ones.
    rendered: { type: 'boolean', default: false },
  },
});
const N = Number(values.tags);
const ROUNDS = Number(values.rounds);
const REPORTS = 300;
const dir = mkdtempSync(join(tmpdir(), 'esl-report-'));
const file = join(dir, 'bench.db');

async function seed() {
  const d = openDatabase(`sqlite:${file}`);
  await migrateToLatest(d);
  const now = Date.now();
  const t = await d.db
    .insertInto('tenants')
    .values({ name: 'B', company: '', description: '', account: 'b', appid: '', ...newKeys(), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const s = await d.db
    .insertInto('stores')
    .values({ tenant_id: t.id, name: 'L', code: 'L', address: '', contact: '', phone: '', remark: '', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await d.close();
  const raw = new SQLite(file);
  const station = raw
    .prepare(
      `insert into stations (tenant_id, store_id, sn, name, module, secret_hash, ip, mac, wifi_password, ntp_server,
        gateway, mask, server_address, upgrade_url, firmware, online, created_at)
       values (?, ?, 'S1', '', '', '', '', '', '', '', '', '', '', '', '', 1, ?)`,
    )
    .run(t.id, s.id, now);
  const ins = raw.prepare(
    `insert into tags (tenant_id, store_id, hardware_id, model, colour, product_id, station_id, status, signal,
      battery, temperature, hardware_model, last_seen, created_at)
     values (?, ?, ?, '05', 'bwr', null, ?, 'unknown', null, null, null, '', null, ?)`,
  );
  raw.transaction(() => {
    for (let i = 0; i < N; i++) ins.run(t.id, s.id, hw(i), station.lastInsertRowid, now);
  })();
  raw.close();
  return Number(station.lastInsertRowid);
}

const hw = (i: number) => `AB${String(i).padStart(14, '0')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const stationId = await seed();
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
const firstId = (db.prepare('select min(id) as a from tags').get() as { a: number }).a;
let clock = Date.now();

type Row = [number, number, number, number, number, string, number, number, string, string];
/** Report k: 500 consecutive tags, a new time each report. */
function report(k: number): Row[] {
  const base = (k * 7919 * 500) % (N - 500);
  clock += 10;
  return Array.from({ length: 500 }, (_, i) => [
    firstId + base + i,
    stationId,
    -60 - (i % 5),
    80,
    21,
    'HS-0213',
    clock,
    40,
    'abcdef0123456789',
    '1.0',
  ]);
}
const hardwareIds = (k: number) => Array.from({ length: 500 }, (_, i) => hw(((k * 7919 * 500) % (N - 500)) + i));

function cpuPerTag(fn: (k: number) => void): number {
  const c0 = process.cpuUsage();
  for (let k = 0; k < REPORTS; k++) fn(k);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / REPORTS / 500;
}

const SET = `signal = ?, battery = ?, temperature = coalesce(?, temperature), hardware_model = ?,
  last_seen = case when last_seen is null or ? > last_seen then ? else last_seen end,
  wake_s = coalesce(?, wake_s), shown_ver = ?, fw = coalesce(?, fw),
  next_wake_at = case when ? is null then next_wake_at else ? + ? * 1000 end`;
const jsonUpdate = db.prepare(`with v as (select
    cast(value ->> 0 as bigint) as id, cast(value ->> 1 as bigint) as station_id, cast(value ->> 2 as integer) as signal,
    cast(value ->> 3 as integer) as battery, cast(value ->> 4 as integer) as temperature,
    cast(value ->> 5 as text) as hardware_model, cast(value ->> 6 as bigint) as last_seen,
    cast(value ->> 7 as integer) as wake_s, cast(value ->> 8 as text) as shown_ver, cast(value ->> 9 as text) as fw
    from json_each(?))
  update tags set station_id = v.station_id, signal = v.signal, battery = v.battery,
    temperature = coalesce(v.temperature, tags.temperature), hardware_model = v.hardware_model,
    last_seen = case when tags.last_seen is null or v.last_seen > tags.last_seen then v.last_seen else tags.last_seen end,
    wake_s = coalesce(v.wake_s, tags.wake_s), shown_ver = v.shown_ver, fw = coalesce(v.fw, tags.fw),
    next_wake_at = case when v.wake_s is null then tags.next_wake_at else v.last_seen + cast(v.wake_s as bigint) * 1000 end
  from v where tags.id = v.id`);
const same = db.prepare(`update tags set ${SET} where id = ?`);
const moved = db.prepare(`update tags set station_id = ?, ${SET} where id = ?`);
const args = (r: Row) => [r[2], r[3], r[4], r[5], r[6], r[6], r[7], r[8], r[9], r[7], r[6], r[7], r[0]];
const perRow = (always: boolean) =>
  db.transaction((rows: Row[]) => {
    for (const r of rows) {
      if (always) moved.run(r[1], ...args(r));
      else same.run(...args(r));
    }
  });
const perRowSame = perRow(false);
const perRowStation = perRow(true);
// The migrations of today no longer have the index; the rounds put it back and take it away.
const cols = `t.id, t.tenant_id, t.store_id, t.hardware_id, t.station_id, t.signal, t.desired_hash, s.online`;
const inList = db.prepare(
  `select ${cols} from tags t left join stations s on s.id = t.station_id where t.hardware_id in (${Array(500).fill('?').join(',')})`,
);
const jsonLookup = db.prepare(
  `select ${cols} from json_each(?) j join tags t on t.hardware_id = j.value left join stations s on s.id = t.station_id`,
);

// The status statement as the handler compiles it (the thresholds and the time its parameters).
const compiler = openDatabase(`sqlite:${file}`);
const th = thresholdsFromJson(null);
const compiledStatus = (now: number) =>
  compiler.db
    .updateTable('tags')
    .set({ status: tagStatusSql(now, th) })
    .where(({ eb }) => eb('status', '<>', tagStatusSql(now, th)))
    .where('id', '=', 0)
    .compile();
const statusStmt = db.prepare(compiledStatus(0).sql);
const sameHeard = db.prepare(
  `update tags set ${SET}, status = case when desired_hash is null or substr(desired_hash, 1, 16) = ? then 'normal' else 'online' end where id = ?`,
);
const sameKept = db.prepare(`update tags set ${SET} where id = ? and desired_hash is ? and status = ?`);
const withStatusStatement = db.transaction((rows: Row[]) => {
  const params = [...compiledStatus(clock).parameters];
  for (const r of rows) {
    same.run(...args(r));
    params[params.length - 1] = r[0];
    statusStmt.run(...params);
  }
});
const statusInUpdate = db.transaction((rows: Row[]) => {
  for (const r of rows) sameHeard.run(...args(r).slice(0, -1), r[8], r[0]);
});
// The seeded rows want no picture (desired_hash null); the first rounds made them 'normal'.
const statusKept = db.transaction((rows: Row[]) => {
  for (const r of rows) {
    if (sameKept.run(...args(r), null, 'normal').changes !== 1) throw new Error('guard did not hold');
  }
});

// A whole report as the handler stores it: look-up then the guarded UPDATE (before), against the
// id by the hardware-id index and one UPDATE that checks route, status and picture in its WHERE
// (after; tags/repository.ts storeHeardInPlace).
const reportLookedUp = (k: number) => {
  const rows = jsonLookup.all(JSON.stringify(hardwareIds(k))) as Array<{ id: number; desired_hash: string | null }>;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const updates = report(k).filter((r) => byId.has(r[0]));
  statusKept(updates);
};
const idOf = db.prepare('select id from tags where hardware_id = ?').pluck(true);
const inPlace = db.prepare(`update tags set signal = case when station_id = ? then ? else signal end, battery = ?,
      temperature = coalesce(?, temperature), hardware_model = ?,
      last_seen = case when last_seen is null or ? > last_seen then ? else last_seen end,
      wake_s = coalesce(?, wake_s), shown_ver = ?, fw = coalesce(?, fw),
      next_wake_at = case when ? is null then next_wake_at else ? + ? * 1000 end
    where id = ? and tenant_id = ? and store_id = ?
      and (station_id = ? or (signal is not null and ? < signal + 6
        and exists (select 1 from stations s where s.id = tags.station_id and s.online <> 0)))
      and status = 'normal' and (desired_hash is null or substr(desired_hash, 1, 16) = ?)
      and ? > ? and ? >= ? - ? * coalesce(?, wake_s, ?)
      and (? is null or model = ?)`);
const { tenant_id: tenantId, store_id: storeId } = db.prepare('select tenant_id, store_id from tags limit 1').get() as {
  tenant_id: number;
  store_id: number;
};
const inPlaceTx = db.transaction((rows: Row[], ids: string[]) => {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as Row;
    const id = idOf.get(ids[i]) as number;
    const done = inPlace.run(
      ...[stationId, r[2], r[3], r[4], r[5], r[6], r[6], r[7], r[8], r[9], r[7], r[6], r[7], id, tenantId, storeId],
      ...[stationId, r[2], r[8], r[6], clock - th.lostMs, r[6], clock, th.missedWakes * 1000, r[7], th.defaultWakeS],
      ...[null, null],
    );
    if (done.changes !== 1) throw new Error('not stored in place');
  }
});
const reportInPlace = (k: number) => inPlaceTx(report(k), hardwareIds(k));

// The same report written to a narrow table of the reported columns (one row per tag, its id the
// tag's), the conditions read from the tag's row without writing it.
db.exec(`create table if not exists tag_heard (id integer primary key, signal integer, battery integer,
  temperature integer, hardware_model text not null default '', last_seen integer, wake_s integer, shown_ver text,
  shown_page integer not null default 1, fw text not null default '', next_wake_at integer)`);
db.exec(`insert or ignore into tag_heard (id, signal, battery, temperature, hardware_model, last_seen, wake_s, shown_ver, fw, next_wake_at)
  select id, signal, battery, temperature, hardware_model, last_seen, wake_s, shown_ver, fw, next_wake_at from tags`);
const narrow = db.prepare(`update tag_heard set signal = ?, battery = ?,
      temperature = coalesce(?, temperature), hardware_model = ?,
      last_seen = case when last_seen is null or ? > last_seen then ? else last_seen end,
      wake_s = coalesce(?, wake_s), shown_ver = ?, fw = coalesce(?, fw),
      next_wake_at = case when ? is null then next_wake_at else ? + ? * 1000 end
    where id = ? and exists (select 1 from tags t where t.id = tag_heard.id and t.tenant_id = ? and t.store_id = ?
      and (t.station_id = ? or (tag_heard.signal is not null and ? < tag_heard.signal + 6
        and exists (select 1 from stations s where s.id = t.station_id and s.online <> 0)))
      and t.status = 'normal' and (t.desired_hash is null or substr(t.desired_hash, 1, 16) = ?)
      and (? is null or t.model = ?))
      and ? > ? and ? >= ? - ? * coalesce(?, wake_s, ?)`);
const narrowTx = db.transaction((rows: Row[], ids: string[]) => {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as Row;
    const id = idOf.get(ids[i]) as number;
    const done = narrow.run(
      ...[r[2], r[3], r[4], r[5], r[6], r[6], r[7], r[8], r[9], r[7], r[6], r[7], id, tenantId, storeId],
      ...[stationId, r[2], r[8], null, null],
      ...[r[6], clock - th.lostMs, r[6], clock, th.missedWakes * 1000, r[7], th.defaultWakeS],
    );
    if (done.changes !== 1) throw new Error('not stored in the narrow table');
  }
});
const reportNarrow = (k: number) => narrowTx(report(k), hardwareIds(k));

const cases: Array<[string, (k: number) => void]> = [
  ['lookup: IN list of 500 (before)', (k) => inList.all(...hardwareIds(k))],
  ['lookup: one JSON parameter (after)', (k) => jsonLookup.all(JSON.stringify(hardwareIds(k)))],
  ['update: JSON UPDATE, seen index (before)', (k) => jsonUpdate.run(JSON.stringify(report(k)))],
  ['update: per row, station written, seen index', (k) => perRowStation(report(k))],
  ['update: per row, seen index', (k) => perRowSame(report(k))],
];
const noIndexCases: Array<[string, (k: number) => void]> = [
  ['update: JSON UPDATE, no seen index', (k) => jsonUpdate.run(JSON.stringify(report(k)))],
  ['update: per row, no seen index (after)', (k) => perRowSame(report(k))],
  ['status: per row + status statement (before)', (k) => withStatusStatement(report(k))],
  ['status: set in the row’s UPDATE', (k) => statusInUpdate(report(k))],
  ['status: kept, guarded UPDATE (after)', (k) => statusKept(report(k))],
  ['report: look-up + guarded UPDATE', reportLookedUp],
  ['report: in place, one UPDATE checking route, status, picture', reportInPlace],
  ['report: in place, the reported columns in a narrow table', reportNarrow],
];
const results = new Map<string, number[]>();
const measure = (list: Array<[string, (k: number) => void]>) => {
  for (const [name, fn] of list) {
    if (!name.includes(values.only)) continue;
    results.set(name, [...(results.get(name) ?? []), cpuPerTag(fn)]);
  }
};
console.log(
  `${N} tags; load average ${loadavg()[0].toFixed(1)}; ${cpus().length} × ${cpus()[0]?.model}; Node ${process.version}`,
);
// The guarded and the in-place forms find the rows as the handler would after earlier reports.
db.exec(`update tags set status = 'normal'`);
if (values.rendered) {
  db.exec(`update tags set desired_hash = 'abcdef0123456789' || lower(hex(randomblob(24))), desired_rev = 3,
    desired_at = ${clock}, render_key = 'tpl:' || (id % 40) || ':7|prod:' || id || ':12|m:05|' || lower(hex(randomblob(8))),
    desired_price_cents = 1299, desired_product_id = 0, shown_price_cents = 1299, shown_product_id = 0,
    shown_priced_at = ${clock}, shown_at = ${clock}`);
  db.exec('update tags set shown_hash = desired_hash');
}
// Rounds alternate with and without the index, so both see the same machine.
for (let r = 0; r < ROUNDS; r++) {
  db.exec('create index if not exists tags_store_seen on tags (store_id, last_seen)');
  measure(cases);
  db.exec('drop index if exists tags_store_seen');
  measure(noIndexCases);
  // The page cache: SQLite's default (2 MB, no memory map) against a larger cache and a map.
  for (const [name, cache, mmap] of [
    ['pages: cache 64 MB', -65536, 0],
    ['pages: mmap 1 GB', -2000, 1 << 30],
    ['pages: cache 64 MB + mmap 1 GB', -65536, 1 << 30],
    ['pages: default (2 MB cache, no map)', -2000, 0],
  ] as const) {
    db.pragma(`cache_size = ${cache}`);
    db.pragma(`mmap_size = ${mmap}`);
    measure([
      [`${name}: update per row`, (k) => perRowSame(report(k))],
      [`${name}: lookup`, (k) => jsonLookup.all(JSON.stringify(hardwareIds(k)))],
    ]);
  }
}
for (const [name, xs] of results) console.log(`${name.padEnd(48)} ${median(xs).toFixed(2)} µs CPU per tag`);
console.log(`load average at the end ${loadavg()[0].toFixed(1)}`);
db.close();
await compiler.close();
rmSync(dir, { recursive: true, force: true });
