/**
 * One against several server processes on one PostgreSQL database and one Mosquitto (issue 16
 * part 2, docs/DEPLOY.md and docs/PERFORMANCE.md "Several server processes"). Not a test.
 *
 *   node --import tsx bench/cluster.bench.ts [--servers 1] [--tags 2000] [--stations 8]
 *     [--speed 10] [--report-s 30] [--limit 600]
 *
 * Sets up exactly what apps/server/src/cluster/two-servers.test.ts does (DEPLOY.md's Mosquitto
 * configuration and accounts, DEPLOY.md's environment, a fresh database), with `--servers`
 * server processes, `--stations` simulated stations (`oepl-2g4`, 40 s wake, one channel each)
 * holding `--tags` bound tags, on a simulated clock paced at up to ×`--speed`. Then:
 *
 * 1. steady state for `--report-s` real seconds (heartbeats and tag reports): the servers' CPU
 *    seconds against the tag entries and messages they stored, i.e. what one process could take
 *    at a full core;
 * 2. a full-store refresh: real and simulated time to done, the radio bound of DELIVERY §7 for
 *    one station's tags (the simulator's channelBound), the servers' CPU per tag refreshed.
 *
 * CPU is user + system time of the server processes (Linux /proc); prints one JSON line.
 */
import { cpus, loadavg, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { AddStationData, Template } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { randomHex } from '../apps/server/src/infra/lib/random';
import { buildShop, insertBoundTags } from '../apps/server/src/test/business';
import { recipeEnv, type ServerChild, scrape, startMosquitto, startServer } from '../apps/server/src/test/cluster';
import { callApi } from '../apps/server/src/test/harness';
import { channelBound, profileByName, startSimulator } from '../apps/simulator/src/index';
import { cpuSeconds } from './server-process';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: '1' },
    tags: { type: 'string', default: '2000' },
    stations: { type: 'string', default: '8' },
    speed: { type: 'string', default: '10' },
    'report-s': { type: 'string', default: '30' },
    limit: { type: 'string', default: '600' },
  },
});
const SERVERS = Number(values.servers);
const TAGS = Number(values.tags);
const STATIONS = Number(values.stations);
const SPEED = Number(values.speed);
const WAKE_S = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function main() {
  const adminUrl =
    process.env.DATABASE_URL ||
    `postgres://${userInfo().username === 'root' ? 'postgres' : userInfo().username}@127.0.0.1:5432/postgres`;
  const name = `esl_bench_${randomHex(6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const broker = await startMosquitto();
  const servers: ServerChild[] = [];
  try {
    const setup = openDatabase(dbUrl);
    await migrateToLatest(setup);
    const app = await buildApp(testConfig({ databaseUrl: dbUrl }), setup);
    await app.ready();
    const world = await buildShop(app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const template = await callApi<Template>(app, '/mgr/templ/addtemple', { name: 'bench', model: '05' }, { token });
    await callApi(
      app,
      '/mgr/templ/alerttempData',
      {
        id: template.data.id,
        doc: priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' }),
      },
      { token },
    );
    await callApi(app, '/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.data.id }, { token });
    const hws = (
      await insertBoundTags(setup.db, at, TAGS, { hwPrefix: 'B0', priceCents: (i) => 100 + i, now: Date.now() })
    ).map((x) => x.hw);
    await app.close();

    const metricsToken = randomHex(8);
    const env = recipeEnv((v) =>
      v
        .replace(/^postgres:\/\/.*$/, dbUrl)
        .replace('mqtt://broker-host:1883', broker.url)
        .replace('SERVER-PASSWORD', broker.server.password)
        .replace('ADMIN-PASSWORD', broker.admin.password)
        .replace('METRICS-TOKEN', metricsToken),
    );
    for (let i = 0; i < SERVERS; i++)
      servers.push(
        await startServer({
          ...env,
          PORT: '0',
          HOST: '127.0.0.1',
          INSTANCE_ID: `bench-${i}`,
          RENDER_WORKERS: '1',
          ESL_ADMIN_PASSWORD: randomHex(8),
        }),
      );
    const first = servers[0] as ServerChild;
    const call = async <T>(path: string, body: object): Promise<T> => {
      const res = await fetch(`${first.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; msg: string; data: T };
      if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
      return json.data;
    };
    const stations: AddStationData[] = [];
    for (let i = 0; i < STATIONS; i++) stations.push(await call<AddStationData>('/mgr/ap/add', { sn: `BN-${i}` }));
    const perStation = Math.ceil(TAGS / STATIONS);
    const sim = await startSimulator({
      url: broker.url,
      stations: stations.map((st, s) => ({
        tenantId: at.tenantId,
        sn: st.sn,
        secret: st.secret,
        tags: hws.slice(s * perStation, (s + 1) * perStation).map((hw, i) => ({
          id: hw,
          hw: '05',
          wakeS: WAKE_S,
          x: 1 + (i % 10),
          y: 1 + (Math.floor(i / 10) % 10),
        })),
      })),
      speed: 0,
      start: Date.now(),
      seed: 'cluster-bench',
    });
    let pacing = true;
    const paced = (async () => {
      while (pacing) {
        await sim.clock.advance(50 * SPEED);
        await sleep(50);
      }
    })();
    const db = openDatabase(dbUrl);
    const routed = async () =>
      (
        await db.db
          .selectFrom('tags')
          .select('id')
          .where('store_id', '=', at.storeId)
          .where('station_id', 'is not', null)
          .execute()
      ).length;
    const limit = performance.now() + Number(values.limit) * 1000;
    while ((await routed()) < 0.95 * TAGS && performance.now() < limit) await sleep(500);
    const cpu = () => servers.reduce((n, s) => n + cpuSeconds(s.child.pid as number), 0);
    const sum = async (metric: string) => {
      let n = 0;
      for (const s of servers) n += (await scrape(s.url, metricsToken)).get(metric) ?? 0;
      return n;
    };

    // 1. Steady state: heartbeats and tag reports.
    const c0 = cpu();
    const e0 = await sum('esl_tag_entries_total');
    const m0 =
      (await sum('esl_station_messages_total{kind="tags"}')) +
      (await sum('esl_station_messages_total{kind="heartbeat"}'));
    const v0 = sim.clock.now();
    const r0 = performance.now();
    await sleep(Number(values['report-s']) * 1000);
    const steadyCpu = cpu() - c0;
    const entries = (await sum('esl_tag_entries_total')) - e0;
    const messages =
      (await sum('esl_station_messages_total{kind="tags"}')) +
      (await sum('esl_station_messages_total{kind="heartbeat"}')) -
      m0;
    const steadyWall = (performance.now() - r0) / 1000;
    const steadySim = (sim.clock.now() - v0) / 1000;

    // 2. A full-store refresh.
    const c1 = cpu();
    const t1 = performance.now();
    const s1 = sim.clock.now();
    const full = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashallesl', {});
    let status = '';
    while (performance.now() < limit) {
      status = (await call<{ status: string }>('/mgr/request/get', { id: full.requestId })).status;
      if (status === 'done') break;
      await sleep(250);
    }
    const refreshWall = (performance.now() - t1) / 1000;
    const refreshSim = (sim.clock.now() - s1) / 1000;
    const refreshCpu = cpu() - c1;
    const progress = await call<{ done: number; failed: number; total: number }>('/mgr/request/get', {
      id: full.requestId,
    });
    const sizes = await db.db.selectFrom('device_tasks').select('size').where('kind', '=', 'image').execute();
    const avg = sizes.reduce((n, r) => n + Number(r.size ?? 0), 0) / Math.max(1, sizes.length);
    const boundS = channelBound(profileByName('oepl-2g4'), {
      sizes: Array(perStation).fill(avg),
      wakeS: Array(perStation).fill(WAKE_S),
    }).boundS;
    const renders = await sum('esl_renders_total');
    const perServerRenders = [];
    for (const s of servers) perServerRenders.push((await scrape(s.url, metricsToken)).get('esl_renders_total') ?? 0);
    const online = (await scrape(first.url, metricsToken)).get('esl_stations{online="true"}');
    pacing = false;
    await paced;
    await Promise.race([sim.stop(), sleep(5000)]);
    await db.close();
    console.log(
      JSON.stringify({
        servers: SERVERS,
        tags: TAGS,
        stations: STATIONS,
        online,
        steady: {
          wallS: round(steadyWall),
          simS: round(steadySim),
          entriesPerS: round(entries / steadyWall),
          messagesPerS: round(messages / steadyWall, 2),
          cpuS: round(steadyCpu, 2),
          entriesPerCpuS: round(entries / Math.max(0.01, steadyCpu)),
        },
        refresh: {
          status,
          progress,
          wallS: round(refreshWall),
          simS: round(refreshSim),
          boundS: round(boundS),
          efficiencyPct: round((boundS / refreshSim) * 100),
          cpuS: round(refreshCpu, 1),
          cpuMsPerTag: round((refreshCpu * 1000) / TAGS, 2),
          renders,
          perServerRenders,
          labelBytes: Math.round(avg),
        },
        loadavg: loadavg().map((x) => round(x, 1)),
        cpu: cpus()[0]?.model,
      }),
    );
  } finally {
    for (const s of servers) s.child.kill('SIGKILL');
    await broker.stop();
    await sleep(500);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
