/**
 * Delivery figures of issue 13 (docs/PERFORMANCE.md, "Delivery"). Not a test.
 *
 *   node --import tsx bench/delivery.bench.ts [--tags 20000] [--stations 10] [--changes 1000]
 *     [--speed 2] [--route-speed 10] [--queue 4096] [--per on|off] [--limit 900]
 *     [--database sqlite|postgres] [--profile DIR]
 *
 * Flags: `--tags` bound tags in one store, spread over `--stations` stations (tags in id order,
 * a slice each); `--changes` price changes timed one at a time; `--speed` the pace of the
 * simulated clock during the refreshes (× real time); `--route-speed` its pace while the tags
 * first check in and report (before anything is measured; tags are routed in the seed); `--queue` the jobs each simulated
 * station holds (`caps.queue`, what a station with 4 MiB of job memory holds of ~1 KB labels);
 * `--per off` skips the 2 % frame-loss refresh; `--limit` caps the wait for one refresh, s;
 * `--profile DIR` runs the server with `--cpu-prof` into DIR. With the defaults it takes about
 * 6 minutes on a quiet 2-core machine. It ends with a summary of every figure and its goal.
 *
 * The real server as its own process (apps/server/src/main.ts: embedded broker, task engine,
 * render workers), a database seeded directly with one store of `--tags` bound tags (model 05,
 * 250 × 122 black/white/red) and one price template, and `--stations` simulated stations in this
 * process, one channel each (`oepl-2g4`, 40 s wake). The simulated clock is paced by this process
 * at up to ×`--speed` of real time (it never runs ahead of what the stations have handled; a
 * late timer on a loaded machine would otherwise bunch wakes into one instant). The server runs on
 * real time, so its own delays count ×speed in simulated time: the lower the speed, the closer
 * the figure is to a real store (×1).
 *
 * Measured:
 * 1. Full-store refresh at loss 0: real time from the call to the first jobs message at a station
 *    and until no slot waits for a render; simulated time until every tag shows its new label,
 *    against the radio bound of DELIVERY §7 computed from the rendered sizes (efficiency =
 *    bound / measured); the server's resident memory before and at most during the refresh.
 * 2. The same, forced, at 2 % frame loss.
 * 3. `--changes` price changes, one at a time on distinct tags: from the request leaving here to
 *    the tag's job arriving at its station (includes HTTP, commit, render, dispatch, broker).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddStationData, Template } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { buildShop, insertBoundTags } from '../apps/server/src/test/business';
import { callApi } from '../apps/server/src/test/harness';
import { channelBound, profileByName, startSimulator } from '../apps/simulator/src/index';
import { cpuSeconds, memoryOf, startServer } from './server-process';

const { values } = parseArgs({
  options: {
    tags: { type: 'string', default: '20000' },
    stations: { type: 'string', default: '10' },
    speed: { type: 'string', default: '2' },
    'route-speed': { type: 'string', default: '10' },
    queue: { type: 'string', default: '4096' },
    changes: { type: 'string', default: '1000' },
    per: { type: 'string', default: 'on' },
    limit: { type: 'string', default: '900' },
    database: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
  },
});
const TAGS = Number(values.tags);
const STATIONS = Number(values.stations);
const SPEED = Number(values.speed);
const ROUTE_SPEED = Number(values['route-speed']);
const CHANGES = Number(values.changes);
const WAKE_S = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

/** The store, its stations, template, products and bound tags, written before the server starts. */
async function seed(url: string) {
  const setup = openDatabase(url);
  await migrateToLatest(setup);
  const app = await buildApp(testConfig({ databaseUrl: url }), setup);
  await app.ready();
  const world = await buildShop(app);
  const token = world.tokens.admin;
  const at = { tenantId: world.tenant.id, storeId: world.store.id };
  const ok = async <T>(path: string, body: object) => {
    const res = await callApi<T>(app, path, body, { token });
    if (res.code !== 0) throw new Error(`${path}: ${res.msg}`);
    return res.data as T;
  };
  const stations: AddStationData[] = [];
  for (let i = 0; i < STATIONS; i++) stations.push(await ok<AddStationData>('/mgr/ap/add', { sn: `BENCH-${i}` }));
  const template = await ok<Template>('/mgr/templ/addtemple', { name: 'bench', model: '05' });
  await ok('/mgr/templ/alerttempData', { id: template.id, doc });
  await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
  const now = Date.now();
  const tags = await insertBoundTags(setup.db, at, TAGS, {
    hwPrefix: 'B0',
    priceCents: (i) => 100 + (i % 5000),
    now,
  });
  // Routed as the stations' reports would route them (a slice each), so the bench does not wait
  // for 20,000 first reports; the tags still check in and report before anything is measured.
  const perStation = Math.ceil(TAGS / STATIONS);
  for (const [s, st] of stations.entries()) {
    const slice = tags.slice(s * perStation, (s + 1) * perStation).map((t) => t.hw);
    for (let i = 0; i < slice.length; i += 500) {
      await setup.db
        .updateTable('tags')
        .set({ station_id: st.id })
        .where('store_id', '=', at.storeId)
        .where('hardware_id', 'in', slice.slice(i, i + 500))
        .execute();
    }
  }
  await app.close();
  await setup.close();
  return { token, at, stations, tags };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'esl-delivery-bench-'));
  const pgName = `bench_dlv_${Date.now().toString(36)}`;
  let url = `sqlite:${join(dir, 'esl.db')}`;
  if (values.database === 'postgres') {
    const admin = openDatabase('postgres://postgres@127.0.0.1:5432/postgres');
    await sql.raw(`create database ${pgName}`).execute(admin.db);
    await admin.close();
    url = `postgres://postgres@127.0.0.1:5432/${pgName}`;
  }
  const seedStart = performance.now();
  const { token, at, stations, tags } = await seed(url);
  const seedS = (performance.now() - seedStart) / 1000;
  const mqttPort = await freePort();
  const server = await startServer(
    {
      DATABASE_URL: url,
      DATA_DIR: dir,
      MQTT_PORT: String(mqttPort),
      SIM: 'off',
      ESL_ADMIN_PASSWORD: 'bench-operator-password',
    },
    values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [],
  );
  const pid = server.child.pid as number;
  const db = openDatabase(url);
  const call = async <T>(path: string, body: object): Promise<T> => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
    return json.data;
  };

  // Jobs as they reach the stations: the first after a call, and per tag the first after a change.
  let firstJobAt: number | null = null;
  const jobFor = new Map<string, number>();
  const perStation = Math.ceil(TAGS / STATIONS);
  const sim = await startSimulator({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    stations: stations.map((st, s) => ({
      tenantId: at.tenantId,
      sn: st.sn,
      secret: st.secret,
      tags: tags.slice(s * perStation, (s + 1) * perStation).map((t, i) => ({
        id: t.hw,
        hw: '05',
        wakeS: WAKE_S,
        x: 1 + (i % 10),
        y: 1 + (Math.floor(i / 10) % 10),
      })),
    })),
    speed: 0,
    queueSize: Number(values.queue),
    start: Date.now(),
    seed: 'delivery-bench',
    onJobs: (_station, jobs) => {
      const t = performance.now();
      firstJobAt ??= t;
      for (const j of jobs) if ('tag' in j && !jobFor.has(j.tag)) jobFor.set(j.tag, t);
    },
  });
  let pacing = true;
  let pace = ROUTE_SPEED;
  const paced = (async () => {
    while (pacing) {
      await sim.clock.advance(50 * pace);
      await sleep(50);
    }
  })();

  const count = async (what: 'routed' | 'render') => {
    const q =
      what === 'routed'
        ? db.db
            .selectFrom('tags')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('station_id', 'is not', null)
        : db.db
            .selectFrom('device_tasks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('state', '=', 'render');
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  // Every station online and every tag heard once (a wake interval and a report interval).
  const routeStart = performance.now();
  const v0 = sim.clock.now();
  while (
    (!sim.stations.every((st) => st.isWelcomed) || sim.clock.now() - v0 < (WAKE_S + 35) * 1000) &&
    performance.now() - routeStart < 300_000
  )
    await sleep(200);
  const routedS = (performance.now() - routeStart) / 1000;
  const routed = await count('routed');
  pace = SPEED;

  const profile = profileByName('oepl-2g4');
  async function refresh(loss: number, force: boolean) {
    for (const st of sim.stations) st.setLoss(loss);
    await sleep(2000);
    const rss0 = memoryOf(pid).rss;
    let rssMax = rss0;
    firstJobAt = null;
    const before = new Map(tags.map((t) => [t.hw, sim.tag(t.hw).transfers]));
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    const v0 = sim.clock.now();
    const started = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashallesl', { force });
    let rendersDoneAt: number | null = null;
    let renderCpuS = 0;
    while (rendersDoneAt === null) {
      rssMax = Math.max(rssMax, memoryOf(pid).rss);
      if ((await count('render')) === 0) {
        rendersDoneAt = performance.now();
        renderCpuS = cpuSeconds(pid) - cpu0;
      } else await sleep(250);
    }
    // What each tag should show, once rendered; then wait until every tag shows it.
    const want = new Map(
      (
        await db.db
          .selectFrom('tags')
          .select(['hardware_id', 'desired_hash'])
          .where('store_id', '=', at.storeId)
          .execute()
      ).map((r) => [r.hardware_id, r.desired_hash]),
    );
    let doneV: number | null = null;
    let lastRss = performance.now();
    const limit = performance.now() + Number(values.limit) * 1000;
    while (doneV === null && performance.now() < limit) {
      // Done: every tag received a transfer since the call and shows what it should.
      const all = tags.every(
        (t) => sim.tag(t.hw).transfers > (before.get(t.hw) ?? 0) && sim.tag(t.hw).screen()?.hash === want.get(t.hw),
      );
      if (all) doneV = sim.clock.now();
      else await sleep(100);
      if (performance.now() - lastRss > 1000) {
        rssMax = Math.max(rssMax, memoryOf(pid).rss);
        lastRss = performance.now();
      }
    }
    const wallS = (performance.now() - t0) / 1000;
    // The bound from what was actually sent: each station's channel, its tags' label sizes.
    const sizes = await db.db
      .selectFrom('device_tasks')
      .select(['tag_id', 'size'])
      .where('kind', '=', 'image')
      .execute();
    const avg = sizes.reduce((s, r) => s + Number(r.size ?? 0), 0) / Math.max(1, sizes.length);
    const boundS = channelBound(profile, {
      sizes: Array(perStation).fill(avg),
      wakeS: Array(perStation).fill(WAKE_S),
    }).boundS;
    const measuredS = doneV === null ? Number.NaN : (doneV - v0) / 1000;
    const progress = await call<{ done: number; failed: number; total: number }>('/mgr/request/get', {
      id: started.requestId,
    });
    return {
      loss,
      tasks: started.tasks,
      firstJobS: firstJobAt === null ? null : round((firstJobAt - t0) / 1000, 2),
      rendersDoneS: round(((rendersDoneAt as number) - t0) / 1000),
      rendersServerCpuS: round(renderCpuS),
      labelBytes: Math.round(avg),
      boundS: round(boundS),
      measuredSimS: round(measuredS),
      efficiencyPct: round((boundS / measuredS) * 100),
      wallS: round(wallS),
      effectiveSpeed: round(measuredS / wallS),
      request: progress,
      rssBeforeMb: rss0,
      rssMaxMb: rssMax,
      rssGrowthMb: rssMax - rss0,
      loadAverage: loadNow(),
    };
  }

  const loadAtStart = loadNow();
  try {
    const setting = {
      database: values.database,
      tags: TAGS,
      stations: STATIONS,
      profile: 'oepl-2g4',
      wakeS: WAKE_S,
      paceSpeed: SPEED,
      routePaceSpeed: ROUTE_SPEED,
      stationQueue: Number(values.queue),
      renderWorkers: 'default (cores − 1)',
      seedS: round(seedS),
      routed: `${routed} / ${TAGS}; stations up and tags heard in ${round(routedS)} s`,
    };
    console.log(JSON.stringify({ setting }, null, 2));
    const clean = await refresh(0, false);
    console.log(JSON.stringify({ refreshLoss0: clean }, null, 2));
    const lossy = values.per === 'off' ? null : await refresh(0.02, true);
    if (lossy) console.log(JSON.stringify({ refreshPer2Forced: lossy }, null, 2));
    for (const st of sim.stations) st.setLoss(0);

    // Price changes, one at a time on distinct tags.
    await sleep(3000);
    const byProduct = tags.slice(0, Math.min(CHANGES, TAGS));
    const latencies: number[] = [];
    let missing = 0;
    for (const [i, t] of byProduct.entries()) {
      jobFor.delete(t.hw);
      const sent = performance.now();
      await call('/mgr/product/alert', { id: t.productId, price: `${(7 + (i % 90) / 10).toFixed(2)}` });
      const end = performance.now() + 10_000;
      while (!jobFor.has(t.hw) && performance.now() < end) await sleep(2);
      const got = jobFor.get(t.hw);
      if (got === undefined) missing++;
      else latencies.push(got - sent);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
    const changes = { n: latencies.length, missing, p50: pct(0.5), p99: pct(0.99), max: pct(1) };
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`;
    console.log(JSON.stringify({ priceChangeToJobMs: changes, loadAverage: loadNow(), machine }, null, 2));

    // Every figure beside its goal, readable without this file.
    type Run = Awaited<ReturnType<typeof refresh>>;
    const ok = (met: boolean) => (met ? 'met' : 'MISSED');
    const eff = (r: Run) =>
      Number.isNaN(r.measuredSimS)
        ? `not finished within --limit ${values.limit} s`
        : `${r.measuredSimS} s simulated → ${r.efficiencyPct} % of the bound`;
    const lines = [
      '',
      '== delivery bench (issue 13) ==',
      `machine: ${machine}; load average (1/5/15 min) at start ${loadAtStart}, at the end ${loadNow()}`,
      `setting: ${TAGS} tags in one store, ${STATIONS} simulated stations on ${STATIONS} channels, oepl-2g4, ` +
        `${WAKE_S} s wake, label ${clean.labelBytes} B, ${values.database}; simulated clock paced at ×${SPEED} ` +
        `of real time during the refreshes (server delays count ×${SPEED}); station queue ${values.queue} jobs`,
      `refresh, loss 0: radio bound ${clean.boundS} s; measured ${eff(clean)} — goal ≥ 90 %: ` +
        `${ok(clean.efficiencyPct >= 90)} (real ${clean.wallS} s at effective ×${clean.effectiveSpeed}; ` +
        `request ${clean.request.done} done / ${clean.request.failed} failed of ${clean.request.total})`,
      lossy
        ? `refresh, PER 2 % (forced, informative): radio bound ${lossy.boundS} s; measured ${eff(lossy)}`
        : 'refresh, PER 2 %: skipped (--per off)',
      `renders: all ${clean.tasks} done ${clean.rendersDoneS} s after the call — goal ≤ 15 s for 20,000: ` +
        `${ok(clean.rendersDoneS <= 15)} (the server process used ${clean.rendersServerCpuS} CPU-s meanwhile, ` +
        `render worker and main thread together)`,
      `first job at a station: ${clean.firstJobS} s after the call — goal ≤ 1 s: ${ok((clean.firstJobS ?? 99) <= 1)}`,
      `server RSS: ${clean.rssBeforeMb} MB before, ${clean.rssMaxMb} MB at most during the refresh, ` +
        `+${clean.rssGrowthMb} MB — goal ≤ +200 MB: ${ok(clean.rssGrowthMb <= 200)}`,
      `price change → job at its station: ${changes.n} changes (${missing} missing), p50 ${changes.p50} ms, ` +
        `p99 ${changes.p99} ms, max ${changes.max} ms — goal p50 < 100 ms and p99 < 500 ms: ` +
        `${ok(changes.p50 < 100 && changes.p99 < 500 && missing === 0)}`,
    ];
    console.log(lines.join('\n'));
  } finally {
    pacing = false;
    await paced;
    await Promise.race([sim.stop(), sleep(5000)]);
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill();
    await Promise.race([exited, sleep(10_000)]);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    if (values.database === 'postgres') {
      const admin = openDatabase('postgres://postgres@127.0.0.1:5432/postgres');
      await sql.raw(`drop database if exists ${pgName} with (force)`).execute(admin.db);
      await admin.close();
    }
  }
}

await main();
