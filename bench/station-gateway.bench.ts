/**
 * Stations on the real server (issue 12's figures, docs/PERFORMANCE.md). Not a test.
 *
 *   node --import tsx bench/station-gateway.bench.ts [--stations 1000] [--tags 200] [--report 30]
 *     [--heartbeat 60] [--seconds 60] [--database sqlite|postgres] [--heard] [--cpu-prof DIR]
 *
 * Unlike bench/station-load.ts (broker and schema check only), this runs the
 * whole server as its own process (apps/server/src/main.ts: embedded broker, gateway storing
 * hello, heartbeats and tag reports, tag status) on a database seeded directly with one store of
 * `--stations` stations and `--tags` registered tags per station. A child process
 * (station-load.ts --child --distinct) plays the stations: each reports its own tags, in full,
 * every `--report` s and a heartbeat every `--heartbeat` s, with random phases.
 *
 * Measured over `--seconds` of steady load: the server process's CPU (share of one core), its
 * resident memory, the entries offered per second, and whether storing keeps up — every tag's
 * last_seen moved during the last report period, and the system log holds no "dropped" row.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TAG_MODELS } from '@esl/contract';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { newKeys } from '../apps/server/src/modules/tenants/service';
import { loadTagId } from './load-ids';
import { cpuSeconds, memoryOf, startServer } from './server-process';

const ROOT = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '1000' },
    tags: { type: 'string', default: '200' },
    report: { type: 'string', default: '30' },
    heartbeat: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '60' },
    database: { type: 'string', default: 'sqlite' },
    // The PostgreSQL server the bench database is made on (with --database postgres).
    'pg-server': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    // A folder: the server runs with --cpu-prof and writes its profile there when it stops.
    'cpu-prof': { type: 'string' },
    // Tags seeded as a working store's: each routed to its station, heard as the server starts
    // with the wake interval the stations report, 'normal' (the steady state, as after a server
    // restart; heardNow). Without it every tag is heard for the first time while the stations
    // connect (routed, its status decided: the look-up path).
    heard: { type: 'boolean', default: false },
  },
});
const STATIONS = Number(values.stations);
const TAGS = Number(values.tags);
const REPORT_S = Number(values.report);
const SECONDS = Number(values.seconds);

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One tenant, one store, the stations (secret `secret-L{i}`) and their tags, written directly. */
async function seed(url: string): Promise<number> {
  const database = openDatabase(url);
  await migrateToLatest(database);
  const { db } = database;
  const now = Date.now();
  const tenant = await db
    .insertInto('tenants')
    .values({ name: 'Bench', company: '', description: '', account: 'b', appid: '', ...newKeys(), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const store = await db
    .insertInto('stores')
    .values({
      tenant_id: tenant.id,
      name: 'LOAD',
      code: 'LOAD',
      address: '',
      contact: '',
      phone: '',
      remark: '',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const at = { tenant_id: tenant.id, store_id: store.id };
  for (let i = 0; i < STATIONS; i += 500) {
    const rows = Array.from({ length: Math.min(500, STATIONS - i) }, (_, k) => ({
      ...at,
      sn: `L${i + k}`,
      name: '',
      module: '',
      secret_hash: sha(`secret-L${i + k}`),
      cpu: null,
      memory: null,
      disk: null,
      ip: '',
      mac: '',
      wifi_password: '',
      ntp_server: '',
      gateway: '',
      mask: '',
      server_address: '',
      server_port: null,
      upgrade_url: '',
      firmware: '',
      last_heartbeat: null,
      online: 0,
      created_at: now,
    }));
    await db.insertInto('stations').values(rows).execute();
  }
  const stationIds = values.heard
    ? (await db.selectFrom('stations').select('id').orderBy('id').execute()).map((r) => r.id)
    : [];
  const model = TAG_MODELS.find((m) => m.code === '05') ?? TAG_MODELS[0];
  for (let i = 0; i < STATIONS; i++) {
    const rows = Array.from({ length: TAGS }, (_, k) => ({
      ...at,
      hardware_id: loadTagId(i, k, TAGS, true),
      model: model.code,
      colour: model.colours[0],
      product_id: null,
      station_id: values.heard ? (stationIds[i] ?? null) : null,
      status: values.heard ? 'normal' : 'unknown',
      signal: values.heard ? -60 : null,
      battery: null,
      temperature: null,
      hardware_model: '',
      last_seen: values.heard ? now - 10_000 : null,
      created_at: now,
    }));
    for (let k = 0; k < rows.length; k += 1000) {
      await db
        .insertInto('tags')
        .values(rows.slice(k, k + 1000))
        .execute();
    }
  }
  await database.close();
  return tenant.id;
}

/**
 * `--heard`: every tag heard now, waking every 40 s as the load's stations say. Seeding 2,000,000
 * tags takes two minutes: stamped when written, the first tags were older than their allowance
 * (three wakes) when the server started, its status sweep turned them offline, and the first
 * report of each went through the look-up that a tag coming back takes (a restart's storm of
 * first reports, not the steady state the figure is about).
 */
async function heardNow(url: string): Promise<void> {
  const database = openDatabase(url);
  await database.db.updateTable('tags').set({ last_seen: Date.now(), wake_s: 40 }).execute();
  if (values.database === 'postgres') await sql`vacuum analyze tags`.execute(database.db);
  await database.close();
}

async function freshness(url: string, since: number) {
  const database = openDatabase(url);
  const { db } = database;
  const tags = await db
    .selectFrom('tags')
    .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('last_seen').as('heard')])
    .executeTakeFirstOrThrow();
  const fresh = await db
    .selectFrom('tags')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('last_seen', '>=', since)
    .executeTakeFirstOrThrow();
  const dropped = await db
    .selectFrom('sys_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('message', 'like', '%dropped%')
    .executeTakeFirstOrThrow();
  await database.close();
  return { all: Number(tags.all), heard: Number(tags.heard), fresh: Number(fresh.n), droppedRows: Number(dropped.n) };
}

async function onlineStations(url: string): Promise<number> {
  const database = openDatabase(url);
  const row = await database.db
    .selectFrom('stations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('online', '=', 1)
    .executeTakeFirstOrThrow();
  await database.close();
  return Number(row.n);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'esl-gw-bench-'));
  const pgName = `bench_gw_${Date.now().toString(36)}`;
  let url = `sqlite:${join(dir, 'esl.db')}`;
  if (values.database === 'postgres') {
    const admin = openDatabase(`${values['pg-server']}/postgres`);
    await sql.raw(`create database ${pgName}`).execute(admin.db);
    await admin.close();
    url = `${values['pg-server']}/${pgName}`;
  }
  const seedStart = performance.now();
  const tenantId = await seed(url);
  if (values.heard) await heardNow(url);
  const seedS = (performance.now() - seedStart) / 1000;
  const mqttPort = await freePort();
  const server = await startServer(
    { DATABASE_URL: url, DATA_DIR: dir, MQTT_PORT: String(mqttPort), SIM: 'off' },
    values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [],
  );
  const pid = server.child.pid as number;
  const gen = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'bench/station-load.ts'),
      '--child',
      `mqtt://127.0.0.1:${mqttPort}`,
      '--distinct',
      '--tenant',
      String(tenantId),
      '--stations',
      String(STATIONS),
      '--tags',
      String(TAGS),
      '--report',
      String(REPORT_S),
      '--heartbeat',
      values.heartbeat,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  try {
    // Connect (until every station is online in the database, at most 3 minutes), then one
    // report period so every station has sent its first reports.
    const connectStart = performance.now();
    let online = 0;
    while (performance.now() - connectStart < 180_000) {
      online = await onlineStations(url);
      if (online >= STATIONS) break;
      await sleep(1000);
    }
    const connectS = (performance.now() - connectStart) / 1000;
    await sleep(REPORT_S * 1000 + 5000);
    const cpu0 = cpuSeconds(pid);
    const genCpu0 = cpuSeconds(gen.pid as number);
    const t0 = performance.now();
    await sleep(SECONDS * 1000);
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(pid) - cpu0;
    const genCpu = cpuSeconds(gen.pid as number) - genCpu0;
    const rss = memoryOf(pid).rss;
    // Stop the load, give storing a moment to drain, then check every tag was stored lately.
    gen.kill();
    await sleep(3000);
    const f = await freshness(url, Date.now() - (REPORT_S + 5) * 1000 - 3000);
    console.log(
      JSON.stringify(
        {
          database: values.database,
          stations: STATIONS,
          tagsPerStation: TAGS,
          reportS: REPORT_S,
          heartbeatS: Number(values.heartbeat),
          seedS: Math.round(seedS),
          stationsOnline: `${online} / ${STATIONS}`,
          connectS: Math.round(connectS * 10) / 10,
          windowS: Math.round(wall),
          offeredEntriesPerS: Math.round((STATIONS * TAGS) / REPORT_S),
          serverCpuPctOfOneCore: Math.round((cpu / wall) * 1000) / 10,
          serverRssMb: rss,
          // The load generator is one process too: near 100 % it, not the server, is the limit.
          generatorCpuPctOfOneCore: Math.round((genCpu / wall) * 1000) / 10,
          loadAverage: loadavg()[0].toFixed(1),
          tagsHeard: `${f.heard} / ${f.all}`,
          tagsStoredInLastReportPeriod: `${f.fresh} / ${f.all}`,
          droppedSysLogRows: f.droppedRows,
          machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`,
        },
        null,
        2,
      ),
    );
  } finally {
    gen.kill();
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill();
    await Promise.race([exited, sleep(10_000)]);
    rmSync(dir, { recursive: true, force: true });
    if (values.database === 'postgres') {
      const admin = openDatabase(`${values['pg-server']}/postgres`);
      await sql.raw(`drop database if exists ${pgName} with (force)`).execute(admin.db);
      await admin.close();
    }
  }
}

await main();
