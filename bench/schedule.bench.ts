/**
 * A chain-wide price file scheduled for T (issue 29, "Figures"; docs/SCHEDULE.md). Not a test.
 *
 *   node --import tsx bench/schedule.bench.ts [--stores 5] [--tags-per-store 1000]
 *     [--products-per-store 400] [--changes 2000] [--lead 3] [--after 20] [--keep | --reuse NAME]
 *
 * The issue's figure: --stores 100 --tags-per-store 10000 --products-per-store 2000 --changes 100000
 * --lead 45 --after 600 --keep (bench/README.md).
 *
 * A chain on one PostgreSQL database (`DATABASE_URL`'s server, default postgres://postgres@127.0.0.1:5432):
 * `--stores` stores of `--tags-per-store` tags (model 05, 250 × 122 black/white/red, one price
 * template; tag i of a store bound to the store's product i mod products, three in four bound, as
 * `chain.bench.ts` seeds) and `--products-per-store` products per store, the same barcodes in every
 * store; one station per store with every tag of its store. The real server runs as its own
 * process (apps/server/src/main.ts, embedded broker, render workers).
 *
 * The file: ONE signed ERP call, `/open/v1/products/schedule` with `scope: chain` — the first
 * `--changes / --stores` barcodes (at most 1,000 a call; more are sent as further calls), a new
 * price each, for T = the whole minute `--lead` minutes ahead on the stores' clock — so `--changes`
 * scheduled changes, one per product and store. Then, until every bound tag of those products has
 * its label for T at its station:
 *
 * - **Ready at the stations** means `timed_labels.state = 'held'`: the label was rendered, sent as a
 *   `timed` job, and its station answered `ack` and `result ok`. The stations are LIGHT clients in
 *   this process (one MQTT connection per store's station, `timed` in `caps.kinds`, images inline):
 *   they acknowledge a job and report it handed over at once (and send a heartbeat every 30 s), with
 *   no radio and no tags behind them
 *   — so the figure is the server's side (import, plan, render, dispatch, the stations' answers
 *   stored), not the radio's (DELIVERY §7 bounds that; a station hands labels to tags in its own
 *   time, hours ahead of T is the point of a timed image).
 * - Labels per CPU-second: timed labels rendered ÷ the server process's CPU (main thread and render
 *   workers, user + system, Linux /proc) over the same span. PostgreSQL's CPU is not in it.
 * - Console calls during it: the tag list (no filter; a text filter), the product search and the
 *   dashboard's figures, one after another without pause, as a user of the middle store; p50, p99, max.
 * - The server's resident memory, sampled every second: before, at most.
 *
 * At T: a tag holding its timed label switches by its own timer (the simulated-schedule tests show
 * every tag within 1 s of T); this bench has no tags, so it reports how many bound tags held their
 * label at T (they switch at T however long the transfers took; the others would get the new label
 * first in line after T), and how long after T the server took to apply all the changes (one
 * transaction each) — it waits at most `--after` s after T. `--keep` leaves the database (its name
 * is printed) and `--reuse NAME` runs on it again (the bench's stations, changes and timed labels
 * of the last run are removed first; the products keep the last run's prices).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { toLocalTime } from '@esl/contract';
import { encodeMessage, type Job, topics } from '@esl/contract/protocol';
import { priceLabel } from '@esl/labels/testing';
import mqtt from 'mqtt';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest } from '../apps/server/src/infra/lib/passwords';
import { freePort } from '../apps/server/src/test/cluster';
import { CHAIN_PASSWORD, seedChainTenant } from './chain-seed';
import { cpuSeconds, memoryOf, startServer } from './server-process';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: '5' },
    'tags-per-store': { type: 'string', default: '1000' },
    'products-per-store': { type: 'string', default: '400' },
    changes: { type: 'string', default: '2000' },
    lead: { type: 'string', default: '3' },
    after: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    // A folder: the server runs with --cpu-prof and writes its profile there when it stops.
    'cpu-prof': { type: 'string' },
  },
});
const STORES = Number(values.stores);
const TAGS_PER_STORE = Number(values['tags-per-store']);
const PRODUCTS_PER_STORE = Number(values['products-per-store']);
const CHANGES = Number(values.changes);
const BARCODES = Math.ceil(CHANGES / STORES);
const LEAD_MIN = Number(values.lead);
const PASSWORD = CHAIN_PASSWORD;
const ZONE = 'Asia/Shanghai';
const SN = (s: number) => `SCHB${String(s).padStart(4, '0')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
if (BARCODES > PRODUCTS_PER_STORE) throw new Error('--changes / --stores must not exceed --products-per-store');

/**
 * The chain in SQL (as chain.bench.ts seeds it, every tag model 05): stores, products, tags. The
 * tags were never heard (`last_seen` null, status `unknown`, as the status rules compute it): the
 * light stations report no tags, and tags seeded as heard at the seed's time would all change
 * status as the minutes pass — a rewrite of a million rows by the status sweep a few times in the
 * run, which is no part of a price file (the gateway's load is station-gateway.bench.ts's figure).
 */
async function seed(url: string): Promise<void> {
  const now = Date.now();
  const tenantId = await seedChainTenant(url, now);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const t = tenantId;
    await client.query(
      `insert into stores (tenant_id, name, code, address, contact, phone, remark, created_at)
       select $1, 'Store ' || s, 'S' || lpad(s::text, 3, '0'), '', '', '', '', $2 from generate_series(1, $3) s`,
      [t, now, STORES],
    );
    await client.query(
      `insert into products (tenant_id, store_id, barcode, qrcode, name, price_cents, original_price_cents, unit, spec,
         origin, grade, custom, price_changes, created_at, updated_at)
       select $1, st.id, '69' || lpad(p::text, 10, '0'), '', '红富士苹果 ' || p, 100 + (p * 7919) % 99900, null, '件', '',
         '中国', '', '{}', 0, $2, $2
       from stores st cross join generate_series(0, $3 - 1) p where st.tenant_id = $1`,
      [t, now, PRODUCTS_PER_STORE],
    );
    const stores = await client.query<{ id: number }>('select id from stores where tenant_id = $1 order by id', [t]);
    for (const [s, { id: storeId }] of stores.rows.entries()) {
      await client.query(
        `insert into tags (tenant_id, store_id, hardware_id, model, colour, product_id, station_id, status, signal,
           battery, temperature, hardware_model, last_seen, created_at)
         with p as (select id, (row_number() over (order by id) - 1)::int as n from products where store_id = $2)
         select $1, $2, upper(lpad(to_hex($2 * 100000 + i), 8, '0')), '05', 'bwr',
           case when i % 4 = 3 then null else p.id end, null, 'unknown', -60, 80, 21, 'HS-05', null, $3::bigint
         from generate_series(0, $5 - 1) i join p on p.n = i % $4`,
        [t, storeId, now, PRODUCTS_PER_STORE, TAGS_PER_STORE],
      );
      if ((s + 1) % 10 === 0) console.log(`  seeded ${s + 1} of ${STORES} stores`);
    }
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

type Answer<T = unknown> = { code: number; msg: string; data: T };

/** A light station: takes every job, answers `ack` and `result ok` at once; counts what it got. */
async function lightStation(
  url: string,
  tenantId: number,
  sn: string,
  secret: string,
  got: { timed: number; image: number },
) {
  const key = { tenantId, sn };
  const connId = randomBytes(4).toString('hex');
  const client = mqtt.connect(url, {
    clientId: `${tenantId}.${sn}`,
    username: `${tenantId}.${sn}`,
    password: secret,
    clean: true,
    keepalive: 60,
    reconnectPeriod: 0,
  });
  client.on('error', (err) => console.error(`station ${sn}: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  client.on('message', (topic, payload) => {
    if (process.env.DEBUG_STATION) console.log(`${new Date().toISOString()} ${sn} ${topic} ${payload.length} B`);
    if (!topic.endsWith('/down/jobs')) return;
    const jobs = (JSON.parse(payload.toString()) as { jobs: Job[] }).jobs;
    const at = Date.now();
    client.publish(
      topics.up(key, 'ack'),
      encodeMessage('ack', { v: 1, jobs: jobs.map((j) => ({ id: j.id, rev: j.rev, ok: true })) }),
      { qos: 1 },
    );
    for (const j of jobs) {
      if (j.kind === 'timed') got.timed++;
      else if (j.kind === 'image') got.image++;
    }
    const results = jobs.map((j) => ({
      id: j.id,
      rev: j.rev,
      code: 'ok' as const,
      ...('tag' in j && j.tag ? { tag: j.tag } : {}),
      ...('image' in j && j.image ? { ver: j.image.ver } : {}),
      at,
    }));
    client.publish(topics.up(key, 'result'), encodeMessage('result', { v: 1, results }), { qos: 1 });
  });
  await client.subscribeAsync(topics.downFilter(key), { qos: 1 });
  await client.publishAsync(
    topics.status(key),
    encodeMessage('status', { v: 1, online: true, connId, at: Date.now() }),
    {
      qos: 1,
      retain: true,
    },
  );
  await client.publishAsync(
    topics.up(key, 'hello'),
    encodeMessage('hello', {
      v: 1,
      connId,
      boot: 1,
      model: 'BENCH-LIGHT',
      fw: { ap: '1.0.0' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: {
        queue: 100_000,
        queueBytes: 1 << 30,
        inlineMax: 16_384,
        chunk: 16_384,
        fwConcurrent: 1,
        kinds: ['image', 'timed'],
      },
      queue: [],
      outbox: 0,
      net: { ip: '10.0.0.1', mac: '24:00:00:00:00:01' },
      cfgRev: 0,
      time: Date.now(),
    }),
    { qos: 1 },
  );
  // A station without heartbeats is offline for the server after a few minutes: one every 30 s.
  const heartbeat = () =>
    client.publish(
      topics.up(key, 'heartbeat'),
      encodeMessage('heartbeat', {
        v: 1,
        at: Date.now(),
        uptimeS: 60,
        cpu: 10,
        mem: 30,
        disk: 10,
        queue: { jobs: 0, bytes: 0 },
        radio: { busyPct: 5, svcPerS: 0.5, tx: 100, rx: 100, crcErr: 0, noiseDbm: -96 },
        tagsHeard: 0,
        cfgRev: 0,
      }),
      { qos: 0 },
    );
  heartbeat();
  const beat = setInterval(heartbeat, 30_000);
  client.on('close', () => clearInterval(beat));
  return client;
}

async function main(): Promise<void> {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
  const loadAtStart = loadNow();
  console.log(
    `machine: ${machine}, load ${loadAtStart}; ${STORES} stores × ${TAGS_PER_STORE} tags, ` +
      `${STORES * PRODUCTS_PER_STORE} products; ${CHANGES} changes (${BARCODES} barcodes × ${STORES} stores) for T in ${LEAD_MIN} min`,
  );
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = values.reuse ?? `esl_bench_sched_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  if (!values.reuse) await adminClient.query(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  const url = u.toString();
  const dir = mkdtempSync(join(tmpdir(), 'esl-schedule-bench-'));
  const db = new pg.Client({ connectionString: url });
  try {
    const t0 = performance.now();
    if (values.reuse) {
      const database = openDatabase(url);
      await migrateToLatest(database);
      await database.close();
    } else await seed(url);
    console.log(`${values.reuse ? 'reused' : 'seeded'} in ${round((performance.now() - t0) / 1000)} s`);
    await db.connect();
    const q = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
      (await db.query<T>(text, params)).rows;
    const [tenant] = await q<{ id: number; ck: string; sk: string }>(
      `select id, ck, sk from tenants where account = 'chainadmin'`,
    );
    if (!tenant) throw new Error('no chain tenant in the database');
    if (values.reuse) {
      // What the last run left: its changes, timed labels and stations.
      await q('delete from scheduled_changes where tenant_id = $1', [tenant.id]);
      await q('delete from timed_labels where tenant_id = $1', [tenant.id]);
      await q('update tags set station_id = null where tenant_id = $1', [tenant.id]);
      await q(`delete from stations where tenant_id = $1 and sn like 'SCHB%'`, [tenant.id]);
    }
    // The price template for model 05 and the chain's default rule, written before the server
    // starts: set through the console, the rule would relabel every tag of the chain at once.
    const [rule] = await q<{ n: string }>('select count(*) as n from template_rules where tenant_id = $1', [tenant.id]);
    if (Number(rule?.n ?? 0) === 0) {
      const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });
      const now = Date.now();
      const [tpl] = await q<{ id: number }>(
        `insert into templates (tenant_id, name, model, width, height, colour_type, rotation, document, revision,
           created_at, updated_at) values ($1, 'bench', '05', 250, 122, 'bwr', 0, $2, 1, $3, $3) returning id`,
        [tenant.id, JSON.stringify(doc), now],
      );
      await q(
        `insert into template_rules (tenant_id, store_id, tag_id, kind, model, colour, template_id, created_at, updated_at)
         values ($1, null, null, 'default', '05', 'bwr', $2, $3, $3)`,
        [tenant.id, tpl?.id, now],
      );
    }
    const stores = await q<{ id: number; code: string }>(
      'select id, code from stores where tenant_id = $1 order by id',
      [tenant.id],
    );

    const mqttPort = await freePort();
    const server = await startServer(
      {
        DATABASE_URL: url,
        DATA_DIR: dir,
        MQTT_PORT: String(mqttPort),
        SIM: 'off',
        ESL_ADMIN_PASSWORD: PASSWORD,
      },
      values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [],
    );
    const pid = server.child.pid as number;
    const clients: Awaited<ReturnType<typeof lightStation>>[] = [];
    try {
      const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
        const res = await fetch(`${server.url}/api${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as Answer<T>;
        if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
        return json.data;
      };
      const { token } = await post<{ token: string }>('/user/login', {
        username: 'chainadmin',
        password: clientDigest(PASSWORD),
      });
      // One station per store, every tag of the store on it.
      const got = { timed: 0, image: 0 };
      for (const [s, st] of stores.entries()) {
        await post('/user/setcurrshop', { curshop: st.id }, token);
        const added = await post<{ id: number; secret: string }>('/mgr/ap/add', { sn: SN(s) }, token);
        await q('update tags set station_id = $1 where store_id = $2', [added.id, st.id]);
        clients.push(await lightStation(`mqtt://127.0.0.1:${mqttPort}`, tenant.id, SN(s), added.secret, got));
      }
      const middle = stores[Math.floor(stores.length / 2)] as { id: number };
      await post('/user/setcurrshop', { curshop: middle.id }, token);
      // Every tag was written again (its station): the table as autovacuum would leave it, not with
      // a dead row per tag for the run's statements to step over.
      await q('vacuum analyze tags');
      await sleep(3000);

      // The file: T is the whole minute LEAD_MIN ahead; one signed call per 1,000 barcodes.
      const T = Math.ceil((Date.now() + LEAD_MIN * 60_000) / 60_000) * 60_000;
      const barcodes = Array.from({ length: BARCODES }, (_, i) => `69${String(i).padStart(10, '0')}`);
      const rss0 = memoryOf(pid).rss;
      let rssMax = rss0;
      const cpu0 = cpuSeconds(pid);
      const started = performance.now();
      let scheduled = 0;
      for (let i = 0; i < barcodes.length; i += 1000) {
        const body = JSON.stringify({
          store: stores[0]?.code,
          at: toLocalTime(T, ZONE),
          scope: 'chain',
          note: 'bench price file',
          changes: barcodes
            .slice(i, i + 1000)
            .map((barcode, k) => ({ barcode, price: `${(3 + ((i + k) % 500) / 100).toFixed(2)}` })),
        });
        const path = '/open/v1/products/schedule';
        const timestamp = String(Date.now());
        const nonce = randomBytes(16).toString('hex');
        const hash = createHash('sha256').update(body).digest('hex');
        const signature = createHmac('sha256', tenant.sk)
          .update(['POST', path, timestamp, nonce, hash].join('\n'))
          .digest('hex');
        const res = await fetch(server.url + path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-esl-key': tenant.ck,
            'x-esl-timestamp': timestamp,
            'x-esl-nonce': nonce,
            'x-esl-signature': signature,
          },
          body,
        });
        const json = (await res.json()) as Answer<{ ids: number[] }>;
        if (json.code !== 0) throw new Error(`schedule: ${json.code} ${json.msg}`);
        scheduled += json.data.ids.length;
      }
      const importS = (performance.now() - started) / 1000;
      const [{ n: expectedS } = { n: '0' }] = await q<{ n: string }>(
        `select count(*) as n from tags t join scheduled_changes c on c.product_id = t.product_id
         where c.tenant_id = $1 and c.status = 'pending' and c.effective_at = $2`,
        [tenant.id, T],
      );
      const expected = Number(expectedS);
      console.log(
        `imported ${scheduled} changes in ${round(importS, 2)} s; ${expected} bound tags to hold their label for T ` +
          `(${toLocalTime(T, ZONE)} ${ZONE}, ${round((T - Date.now()) / 1000)} s ahead)`,
      );

      // The console while it runs: calls one after another, each timed.
      const latencies = new Map<string, number[]>();
      const calls: [string, string, object][] = [
        ['tag list, no filter', '/mgr/tag/list', { page: 1, limit: 20 }],
        ['tag list, text "苹果"', '/mgr/tag/list', { page: 1, limit: 20, text: '苹果' }],
        ['product search', '/mgr/product/list', { page: 1, limit: 20, text: '苹果 1' }],
        ['dashboard: store figures', '/sumary/getshopstatic', {}],
      ];
      let probing = true;
      const prober = (async () => {
        while (probing) {
          for (const [label, path, body] of calls) {
            const a = performance.now();
            await post(path, body, token);
            const list = latencies.get(label) ?? [];
            list.push(performance.now() - a);
            latencies.set(label, list);
          }
        }
      })();
      const counts = async () => {
        const rows = await q<{ state: string; n: string }>(
          'select state, count(*) as n from timed_labels where tenant_id = $1 and show_at = $2 group by state',
          [tenant.id, T],
        );
        return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])) as Record<string, number>;
      };
      let held = 0;
      let readyS: number | null = null;
      let cpuAtReady = Number.NaN;
      let lastPrint = 0;
      while (Date.now() < T - 1000) {
        const c = await counts();
        held = c.held ?? 0;
        rssMax = Math.max(rssMax, memoryOf(pid).rss);
        if (held >= expected && readyS === null) {
          readyS = (performance.now() - started) / 1000;
          cpuAtReady = cpuSeconds(pid) - cpu0;
          break;
        }
        if (performance.now() - lastPrint > 10_000) {
          lastPrint = performance.now();
          console.log(
            `  ${round((performance.now() - started) / 1000)} s: ${JSON.stringify(c)}, stations got ${got.timed} timed jobs, ` +
              `server RSS ${memoryOf(pid).rss} MB, load ${loadNow()}`,
          );
        }
        // Counting is a scan of the run's timed labels on the server's database: every 5 s, not
        // every second (it took a fifth of a core at 375,000 labels).
        await sleep(5000);
      }
      probing = false;
      await prober;
      const [{ n: renderedS } = { n: '0' }] = await q<{ n: string }>(
        `select count(*) as n from timed_labels where tenant_id = $1 and show_at = $2 and hash <> ''`,
        [tenant.id, T],
      );
      const rendered = Number(renderedS);
      const cpuS = readyS === null ? cpuSeconds(pid) - cpu0 : cpuAtReady;
      const pct = (xs: number[], p: number) => {
        const s = [...xs].sort((a, b) => a - b);
        return round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0);
      };

      // At T: who held the label (switches on its own), and when the server had applied every change.
      while (Date.now() < T) await sleep(50);
      const heldAtT = (await counts()).held ?? 0;
      let appliedS: number | null = null;
      const limit = T + Number(values.after) * 1000;
      while (Date.now() < limit) {
        const [{ n } = { n: '0' }] = await q<{ n: string }>(
          `select count(*) as n from scheduled_changes where tenant_id = $1 and effective_at = $2 and status = 'pending'`,
          [tenant.id, T],
        );
        if (Number(n) === 0) {
          appliedS = (Date.now() - T) / 1000;
          break;
        }
        await sleep(200);
      }
      // The change's relabels (first in line, through the task engine): how long until none waits.
      // These stations have no tags, so a relabel the tag would skip (it shows the held label) is
      // sent to them: the figure is the server's work after T, an upper bound of the shelf's.
      let relabelledS: number | null = null;
      const cpuT = cpuSeconds(pid);
      while (appliedS !== null && Date.now() < limit) {
        const [{ n } = { n: '0' }] = await q<{ n: string }>(
          `select count(*) as n from device_tasks where tenant_id = $1 and kind = 'image' and state in ('render', 'queued', 'sent', 'accepted')`,
          [tenant.id],
        );
        if (Number(n) === 0) {
          relabelledS = (Date.now() - T) / 1000;
          break;
        }
        await sleep(200);
      }
      const cpuAfterT = cpuSeconds(pid) - cpuT;
      rssMax = Math.max(rssMax, memoryOf(pid).rss);
      const lines = [
        '',
        '== schedule bench (issue 29: a chain-wide price file for T) ==',
        `machine: ${machine}; load average (1/5/15 min) at start ${loadAtStart}, at the end ${loadNow()}`,
        `setting: ${STORES} stores × ${TAGS_PER_STORE} tags (model 05), ${PRODUCTS_PER_STORE} products a store; ` +
          `${scheduled} changes (${BARCODES} barcodes, scope chain) in ${Math.ceil(BARCODES / 1000)} ERP call(s); ` +
          `one light station a store (ack + result at once, no radio)`,
        `import: ${round(importS, 2)} s`,
        readyS === null
          ? `ready at the stations: NOT all before T — ${held} of ${expected} labels held a second before T`
          : `ready at the stations: all ${expected} labels held ${round(readyS)} s after the import started — goal ≤ 600 s`,
        `rendered: ${rendered} timed labels; server CPU ${round(cpuS)} s (main thread + render workers) → ` +
          `${round(rendered / cpuS)} labels per server CPU-second`,
        ...calls.map(([label]) => {
          const xs = latencies.get(label) ?? [];
          return `console during it: ${label.padEnd(26)} n ${xs.length}  p50 ${pct(xs, 0.5)} ms  p99 ${pct(xs, 0.99)} ms  max ${pct(xs, 1)} ms`;
        }),
        `server RSS: ${rss0} MB before the import, ${rssMax} MB at most`,
        `at T: ${heldAtT} of ${expected} bound tags held their label for T (they switch on their own timers at T); ` +
          (appliedS === null
            ? `changes still pending ${values.after} s after T`
            : `every change applied ${round(appliedS, 2)} s after T`),
        relabelledS === null
          ? `after T: relabels still waiting ${values.after} s after T`
          : `after T: every relabel settled ${round(relabelledS, 2)} s after T; server CPU ${round(cpuAfterT)} s from the last change applied`,
      ];
      console.log(lines.join('\n'));
    } finally {
      for (const c of clients) c.end(true);
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    }
  } finally {
    await db.end().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    if (values.keep || values.reuse) console.log(`database kept: ${name}`);
    else await adminClient.query(`drop database if exists ${name} with (force)`);
    await adminClient.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
