/**
 * Integration API figures of issue 15 (docs/PERFORMANCE.md, "Integration API: bulk upsert"). Not a test.
 *
 *   node --import tsx bench/open-upsert.bench.ts [--products 100000] [--calls 100] [--tags 4000]
 *     [--stations 10] [--speed 10] [--runs 3] [--limit 900] [--database sqlite|postgres]
 *
 * The real server as its own process (apps/server/src/main.ts), a database seeded directly with
 * one store of `--products` products, the first `--tags` of them shown by bound tags (model 05,
 * 250 × 122 black/white/red, one price template), and `--stations` simulated stations in this
 * process (one channel each, `oepl-2g4`, 40 s wake) on a clock paced at up to ×`--speed` of real
 * time, as bench/delivery.bench.ts does.
 *
 * Each run sets a new price on every product: `--calls` signed POST /open/v1/products/upsert calls
 * one after the other (as one ERP client would send them), each naming products/calls products
 * by barcode with only `price`, sent by a client process of its own. Measured per run:
 * 1. upsert: real time from the first call leaving here to the last answer (goal ≤ 10 s for
 *    100,000 products in 100 calls), and the slowest call;
 * 2. labels: from the run's start (the client's launch) to every bound tag showing — decoded by the tag — a label
 *    rendered since the run began (its desired hash moved): real time, simulated time, and the
 *    radio bound for one station's tags at the measured label size (channelBound of the
 *    simulator, as bench/delivery.bench.ts computes it).
 * Medians over the runs are printed at the end.
 */
import { spawn } from 'node:child_process';
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
import { cpuSeconds, startServer } from './server-process';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    calls: { type: 'string', default: '100' },
    tags: { type: 'string', default: '4000' },
    stations: { type: 'string', default: '10' },
    speed: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    limit: { type: 'string', default: '900' },
    database: { type: 'string', default: 'sqlite' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const PRODUCTS = Number(values.products);
const CALLS = Number(values.calls);
const TAGS = Number(values.tags);
const STATIONS = Number(values.stations);
const SPEED = Number(values.speed);
const RUNS = Number(values.runs);
const WAKE_S = 40;
const PER_CALL = Math.ceil(PRODUCTS / CALLS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const barcodeOf = (i: number) => `69${String(i).padStart(11, '0')}`;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

/** The store, stations, template, products and bound tags, written before the server starts. */
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
  for (let i = 0; i < STATIONS; i++) stations.push(await ok<AddStationData>('/mgr/ap/add', { sn: `OPEN-${i}` }));
  const template = await ok<Template>('/mgr/templ/addtemple', { name: 'bench', model: '05' });
  await ok('/mgr/templ/alerttempData', { id: template.id, doc });
  await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
  const now = Date.now();
  // Products 0 … TAGS−1 with their tags (barcodes 69 + eleven digits), then the rest without.
  const tags = await insertBoundTags(setup.db, at, TAGS, { hwPrefix: 'C0', priceCents: (i) => 100 + (i % 5000), now });
  for (let i = TAGS; i < PRODUCTS; i += 500) {
    const n = Math.min(500, PRODUCTS - i);
    await setup.db
      .insertInto('products')
      .values(
        Array.from({ length: n }, (_, k) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          barcode: barcodeOf(i + k),
          qrcode: '',
          name: `Plum ${i + k}`,
          price_cents: 100 + ((i + k) % 5000),
          original_price_cents: null,
          unit: '',
          spec: '',
          origin: '',
          grade: '',
          custom: '{}',
          price_changes: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  await app.close();
  await setup.close();
  return { at, stations, tags, key: { ck: world.tenant.ck, sk: world.tenant.sk }, store: world.store.code };
}

/**
 * The ERP client: its own node process (plain JavaScript, signing as docs/INTEGRATION.md shows),
 * so the simulator's work in this process does not delay its calls. Reads its settings from
 * ESL_BENCH (JSON) and prints one line of JSON: each call's milliseconds, and from the first call
 * leaving to the last answer.
 */
const CLIENT = `
const { createHash, createHmac, randomBytes } = await import('node:crypto');
const o = JSON.parse(process.env.ESL_BENCH);
const ms = [];
const start = performance.now();
for (let c = 0; c < o.calls; c++) {
  const from = c * o.perCall;
  const products = [];
  for (let k = 0; k < Math.min(o.perCall, o.products - from); k++) {
    const i = from + k;
    products.push({ barcode: '69' + String(i).padStart(11, '0'), price: ((o.run * 1000 + (i % 5000)) / 100).toFixed(2) });
  }
  const text = JSON.stringify({ store: o.store, products });
  const path = '/open/v1/products/upsert';
  const timestamp = String(Date.now());
  const nonce = randomBytes(16).toString('hex');
  const hash = createHash('sha256').update(text).digest('hex');
  const signature = createHmac('sha256', o.sk).update(['POST', path, timestamp, nonce, hash].join('\\n')).digest('hex');
  const t = performance.now();
  const res = await fetch(o.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-esl-key': o.ck, 'x-esl-timestamp': timestamp, 'x-esl-nonce': nonce, 'x-esl-signature': signature },
    body: text,
  });
  const json = await res.json();
  ms.push(performance.now() - t);
  if (json.code !== 0 || json.data.updated !== products.length) throw new Error('call ' + c + ': ' + JSON.stringify(json).slice(0, 300));
}
console.log(JSON.stringify({ ms, total: performance.now() - start }));
`;

/** Runs the client for one run; answers each call's milliseconds and the whole upsert's seconds. */
function upsertFromClient(settings: Record<string, unknown>): Promise<{ callMs: number[]; totalS: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], {
      env: { ...process.env, ESL_BENCH: JSON.stringify(settings) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`client exited with ${code}`));
      const { ms, total } = JSON.parse(out) as { ms: number[]; total: number };
      resolve({ callMs: ms, totalS: total / 1000 });
    });
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'esl-open-bench-'));
  const pgName = `bench_open_${Date.now().toString(36)}`;
  let url = `sqlite:${join(dir, 'esl.db')}`;
  if (values.database === 'postgres') {
    const admin = openDatabase('postgres://postgres@127.0.0.1:5432/postgres');
    await sql.raw(`create database ${pgName}`).execute(admin.db);
    await admin.close();
    url = `postgres://postgres@127.0.0.1:5432/${pgName}`;
  }
  const seedStart = performance.now();
  const { at, stations, tags, key, store } = await seed(url);
  const seedS = (performance.now() - seedStart) / 1000;
  const mqttPort = await freePort();
  const server = await startServer(
    {
      DATABASE_URL: url,
      DATA_DIR: dir,
      MQTT_PORT: String(mqttPort),
      SIM: 'off',
      ESL_ADMIN_PASSWORD: 'bench-operator-password',
      OPEN_RATE_LIMIT: '100000',
    },
    values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(process.cwd(), 'bench-profiles')}`] : [],
  );
  const pid = server.child.pid as number;
  const db = openDatabase(url);

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
    start: Date.now(),
    seed: 'open-upsert-bench',
  });
  let pacing = true;
  const paced = (async () => {
    while (pacing) {
      await sim.clock.advance(50 * SPEED);
      await sleep(50);
    }
  })();

  const desired = async () =>
    new Map(
      (
        await db.db
          .selectFrom('tags')
          .select(['hardware_id', 'desired_hash'])
          .where('store_id', '=', at.storeId)
          .execute()
      ).map((r) => [r.hardware_id, r.desired_hash]),
    );
  const routeStart = performance.now();
  const unrouted = async () =>
    Number(
      (
        await db.db
          .selectFrom('tags')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('station_id', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  while ((await unrouted()) > 0 && performance.now() - routeStart < 300_000) await sleep(1000);
  console.log(
    JSON.stringify(
      {
        setting: {
          database: values.database,
          products: PRODUCTS,
          calls: `${CALLS} × ${PER_CALL} products, one after the other`,
          tags: TAGS,
          stations: STATIONS,
          profile: 'oepl-2g4',
          wakeS: WAKE_S,
          paceSpeed: SPEED,
          seedS: round(seedS),
          routedS: round((performance.now() - routeStart) / 1000),
        },
      },
      null,
      2,
    ),
  );

  const profile = profileByName('oepl-2g4');
  const results: Array<Record<string, number>> = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const before = await desired();
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const v0 = sim.clock.now();
      const { callMs, totalS: upsertS } = await upsertFromClient({
        url: server.url,
        ck: key.ck,
        sk: key.sk,
        store,
        run,
        calls: CALLS,
        perCall: PER_CALL,
        products: PRODUCTS,
      });
      const slowest = Math.max(...callMs);
      const upsertCpuS = cpuSeconds(pid) - cpu0;
      // The calls naming products with tags (their tags are re-rendered in the call's transaction) and the others.
      const withTags = Math.ceil(TAGS / PER_CALL);
      const tagCallsS = callMs.slice(0, withTags).reduce((a, b) => a + b, 0) / 1000;
      const otherCallMedianMs = median(callMs.slice(withTags));
      console.log(
        JSON.stringify({
          run,
          upsertS: round(upsertS, 2),
          slowestCallMs: Math.round(slowest),
          tagCalls: withTags,
          tagCallsS: round(tagCallsS, 2),
          otherCallMedianMs: round(otherCallMedianMs),
        }),
      );

      let doneV: number | null = null;
      const limit = performance.now() + Number(values.limit) * 1000;
      while (doneV === null && performance.now() < limit) {
        const want = await desired();
        const all = tags.every((t) => {
          const h = want.get(t.hw);
          return h && h !== before.get(t.hw) && sim.tag(t.hw).screen()?.hash === h;
        });
        if (all) doneV = sim.clock.now();
        else await sleep(500);
      }
      const wallS = (performance.now() - t0) / 1000;
      const sizes = await db.db
        .selectFrom('device_tasks')
        .select('size')
        .where('kind', '=', 'image')
        .where('store_id', '=', at.storeId)
        .execute();
      const avg = sizes.reduce((s, r) => s + Number(r.size ?? 0), 0) / Math.max(1, sizes.length);
      const boundS = channelBound(profile, {
        sizes: Array(perStation).fill(avg),
        wakeS: Array(perStation).fill(WAKE_S),
      }).boundS;
      const simS = doneV === null ? Number.NaN : (doneV - v0) / 1000;
      const r = {
        run,
        upsertS: round(upsertS, 2),
        slowestCallMs: Math.round(slowest),
        upsertServerCpuS: round(upsertCpuS, 2),
        tagCallsS: round(tagCallsS, 2),
        otherCallMedianMs: round(otherCallMedianMs),
        labelsRealS: doneV === null ? Number.NaN : round(wallS),
        labelsSimS: round(simS),
        boundS: round(boundS),
        efficiencyPct: round((boundS / simS) * 100),
        labelBytes: Math.round(avg),
      };
      results.push(r);
      console.log(JSON.stringify(r));
    }
    const med = (k: string) => round(median(results.map((r) => r[k] as number)), 2);
    console.log(
      JSON.stringify(
        {
          medians: {
            runs: results.length,
            upsertS: med('upsertS'),
            slowestCallMs: med('slowestCallMs'),
            upsertServerCpuS: med('upsertServerCpuS'),
            tagCallsS: med('tagCallsS'),
            otherCallMedianMs: med('otherCallMedianMs'),
            labelsRealS: med('labelsRealS'),
            labelsSimS: med('labelsSimS'),
            boundS: med('boundS'),
            efficiencyPct: med('efficiencyPct'),
          },
          loadAverage: loadavg()
            .map((x) => x.toFixed(1))
            .join(' '),
          machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`,
        },
        null,
        2,
      ),
    );
  } finally {
    pacing = false;
    await paced;
    await Promise.race([sim.stop(), sleep(5000)]);
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGINT');
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
