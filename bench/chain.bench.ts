/**
 * A chain on one PostgreSQL database (issue 29, "Figures"): 100 stores × 10,000 tags =
 * 1,000,000 tags, 200,000 products. Not a test.
 *
 *   node --import tsx bench/chain.bench.ts [--stores 100] [--tags-per-store 10000]
 *     [--products-per-store 2000] [--duration 10] [--connections 4] [--keep] [--reuse NAME]
 *
 * The database is seeded in SQL (generate_series: a few minutes for a million tags), then the real
 * server (apps/server/src/main.ts) runs as its own process and the console's calls are loaded one
 * at a time with autocannon after a warm-up: the tag list with each filter the console offers, the
 * product search, the dashboard's figures, the problems of the store and of the chain. Each line
 * prints requests per second, p50 and p99 (ms) and errors. `--keep` leaves the database for
 * another run (its name is printed) instead of dropping it.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { TAG_MODELS } from '@esl/contract';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest } from '../apps/server/src/infra/lib/passwords';
import { CHAIN_PASSWORD, seedChainTenant } from './chain-seed';
import { cpuSeconds, memoryOf, startServer } from './server-process';

const PASSWORD = CHAIN_PASSWORD;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const STORES = arg('stores', 100);
const TAGS_PER_STORE = arg('tags-per-store', 10_000);
const PRODUCTS_PER_STORE = arg('products-per-store', 2_000);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 4);
const KEEP = process.argv.includes('--keep');
/** `--reuse NAME`: the database a `--keep` run left, seeded already (kept after this run too). */
const REUSE = process.argv.includes('--reuse') ? process.argv[process.argv.indexOf('--reuse') + 1] : undefined;

const NAMES = [
  '红富士苹果',
  '海南香蕉',
  '东北五常大米 5kg',
  '蒙牛纯牛奶 250ml×16',
  '农夫山泉 550ml',
  '青岛啤酒',
  '鲜鸡蛋 30枚',
];
const STATUSES = ['online', 'online', 'online', 'normal', 'normal', 'offline', 'unknown', 'lost', 'interrupted'];

async function seed(url: string): Promise<{ firstStore: number }> {
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
    const first = await client.query<{ id: number }>('select min(id)::int as id from stores where tenant_id = $1', [t]);
    const names = `array[${NAMES.map((n) => `'${n}'`).join(',')}]`;
    await client.query(
      `insert into products (tenant_id, store_id, barcode, qrcode, name, price_cents, original_price_cents, unit, spec,
         origin, grade, custom, price_changes, created_at, updated_at)
       select $1, st.id, '69' || lpad(p::text, 10, '0'), '', (${names})[1 + p % ${NAMES.length}] || ' ' || p,
         100 + (p * 7919) % 99900, null, '件', '', '中国', '', '{}', 0, $2, $2
       from stores st cross join generate_series(0, $3 - 1) p where st.tenant_id = $1`,
      [t, now, PRODUCTS_PER_STORE],
    );
    const models = TAG_MODELS.map((m) => `'${m.code}'`).join(',');
    const colours = TAG_MODELS.map((m) => `'${m.colours[0]}'`).join(',');
    const hw = TAG_MODELS.map((m) => `'HS-${m.name}'`).join(',');
    const statuses = `array[${STATUSES.map((s) => `'${s}'`).join(',')}]`;
    // Store by store (10,000 tags each) so no statement holds a million rows at once. Tags bound
    // to the store's products in order, five per product, three in four bound.
    for (let s = 0; s < STORES; s++) {
      const storeId = first.rows[0].id + s;
      await client.query(
        `insert into tags (tenant_id, store_id, hardware_id, model, colour, product_id, station_id, status, signal,
           battery, temperature, hardware_model, last_seen, created_at)
         with p as (select id, (row_number() over (order by id) - 1)::int as n from products where store_id = $2)
         select $1, $2, upper(lpad(to_hex($2 * 100000 + i), 8, '0')),
           (array[${models}])[1 + i % ${TAG_MODELS.length}], (array[${colours}])[1 + i % ${TAG_MODELS.length}],
           case when i % 4 = 3 then null else p.id end,
           null, (${statuses})[1 + i % ${STATUSES.length}], -50 - i % 40, 5 + i % 95, 20 + i % 8,
           (array[${hw}])[1 + i % ${TAG_MODELS.length}], $3::bigint - (i % 3600) * 1000, $3::bigint
         from generate_series(0, $5 - 1) i join p on p.n = i % $4`,
        [t, storeId, now, PRODUCTS_PER_STORE, TAGS_PER_STORE],
      );
      if ((s + 1) % 10 === 0) console.log(`  seeded ${s + 1} of ${STORES} stores`);
    }
    await client.query('analyze');
    return { firstStore: first.rows[0].id };
  } finally {
    await client.end();
  }
}

/** A database a `--keep` run seeded: its first store (the migrations run, in case the code has more). */
async function seeded(url: string): Promise<{ firstStore: number }> {
  const database = openDatabase(url);
  await migrateToLatest(database);
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const first = await client.query<{ id: number }>('select min(id)::int as id from stores');
    return { firstStore: first.rows[0].id };
  } finally {
    await client.end();
  }
}

type Answer = { code: number; msg: string; data: unknown };

async function post(url: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Answer;
}

async function session(base: string, storeId: number): Promise<string> {
  const res = await post(`${base}/api/user/login`, { username: 'chainadmin', password: clientDigest(PASSWORD) });
  if (res.code !== 0) throw new Error(`login: ${res.msg}`);
  const token = (res.data as { token: string }).token;
  const set = await post(`${base}/api/user/setcurrshop`, { curshop: storeId }, token);
  if (set.code !== 0) throw new Error(`setcurrshop: ${set.msg}`);
  return token;
}

async function load(base: string, token: string, path: string, body: object, pid: number) {
  const check = await post(`${base}/api${path}`, body, token);
  if (check.code !== 0) throw new Error(`${path}: ${check.msg}`);
  const opts = {
    url: `${base}/api${path}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
  };
  await autocannon({ ...opts, duration: 2 });
  const cpuBefore = cpuSeconds(pid);
  const r = await autocannon({ ...opts, duration: DURATION });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
    cpu: cpuSeconds(pid) - cpuBefore,
  };
}

async function main(): Promise<void> {
  const total = STORES * TAGS_PER_STORE;
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ` +
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${STORES} stores × ${TAGS_PER_STORE} tags = ${total} tags, ` +
      `${STORES * PRODUCTS_PER_STORE} products; ${CONNECTIONS} connections, ${DURATION} s per figure`,
  );
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = REUSE ?? `esl_bench_chain_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  if (!REUSE) await adminClient.query(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  try {
    const started = performance.now();
    const { firstStore } = REUSE ? await seeded(u.toString()) : await seed(u.toString());
    console.log(`${REUSE ? 'reused' : 'seeded'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const server = await startServer({ DATABASE_URL: u.toString(), ESL_ADMIN_PASSWORD: PASSWORD });
    try {
      const pid = server.child.pid as number;
      // A store in the middle of the table: its rows are neither the first nor the last written.
      const token = await session(server.url, firstStore + Math.floor(STORES / 2));
      const calls: [string, string, object][] = [
        ['tag list, no filter', '/mgr/tag/list', { page: 1, limit: 20 }],
        ['tag list, status online', '/mgr/tag/list', { page: 1, limit: 20, status: 'online' }],
        ['tag list, model 05 + bound', '/mgr/tag/list', { page: 1, limit: 20, model: '05', bound: true }],
        ['tag list, page 200 by battery', '/mgr/tag/list', { page: 200, limit: 20, sort: 'battery', order: 'asc' }],
        ['tag list, text "苹果"', '/mgr/tag/list', { page: 1, limit: 20, text: '苹果' }],
        ['tag list, one hardware ID', '/mgr/tag/list', { page: 1, limit: 20, hardwareId: '00000001' }],
        ['product search "香蕉"', '/mgr/product/list', { page: 1, limit: 20, text: '香蕉' }],
        ['product list, page 1', '/mgr/product/list', { page: 1, limit: 20 }],
        ['dashboard: store figures', '/sumary/getshopstatic', {}],
        ['dashboard: tags per store', '/sumary/gettagshopdistribution', {}],
        ['dashboard: tags per model', '/sumary/gettagmodeldistribution', {}],
        ['problems of the store', '/mgr/problems/summary', {}],
        ['problems of the chain', '/mgr/problems/chain', { page: 1, limit: 20 }],
      ];
      for (const [label, path, body] of calls) {
        const r = await load(server.url, token, path, body, pid);
        console.log(
          `${label.padEnd(32)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  ` +
            `server CPU ${r.cpu.toFixed(1)} s`,
        );
      }
      const mem = memoryOf(pid);
      console.log(`server RSS ${mem.rss} MB, peak ${mem.peak} MB`);
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
  } finally {
    if (KEEP || REUSE) console.log(`database kept: ${name}`);
    else await adminClient.query(`drop database if exists ${name} with (force)`);
    await adminClient.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
