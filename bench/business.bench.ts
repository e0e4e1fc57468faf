/**
 * Business figures (issue 4), on SQLite and (when reachable) PostgreSQL. Not a test.
 *
 *   node --import tsx bench/business.bench.ts [--rows 100000] [--tags 100000] [--duration 10] [--connections 10]
 *     [--no-import] [--sqlite]
 *
 * 1. Import: a CSV of `--rows` products posted (multipart) to /api/mgr/product/import of an empty
 *    store, then the same file again (every row an update); wall time of each request and the
 *    server process's resident memory before and at its peak (Linux /proc VmRSS / VmHWM).
 * 2. Tag list: /api/mgr/tag/list page 1 of 20 with a filter, in a store of `--tags` tags
 *    (autocannon, after a warm-up).
 *
 * Each database is seeded directly, then the real server (apps/server/src/main.ts) runs as its own
 * process on 127.0.0.1, so the load generator does not share its event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TAG_MODELS } from '@esl/contract';
import autocannon from 'autocannon';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest, hashPassword } from '../apps/server/src/infra/lib/passwords';
import { newKeys } from '../apps/server/src/modules/tenants/service';
import { cpuSeconds, memoryOf, startServer } from './server-process';

const _ROOT = new URL('..', import.meta.url).pathname;
const PASSWORD = 'bench-pass';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 100_000);
const TAGS = arg('tags', 100_000);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 10);
const PRODUCTS_IN_TAG_STORE = Math.ceil(TAGS / 5);
/** `--no-import` skips the import figures; `--sqlite` skips PostgreSQL. */
const flag = (name: string) => process.argv.includes(`--${name}`);

const NAMES = [
  '红富士苹果',
  '海南香蕉',
  '东北五常大米 5kg',
  '蒙牛纯牛奶 250ml×16',
  '农夫山泉 550ml',
  '青岛啤酒',
  '鲜鸡蛋 30枚',
];
const STATUSES = [
  'online',
  'online',
  'online',
  'normal',
  'normal',
  'offline',
  'unknown',
  'lost',
  'interrupted',
  'disconnected',
];

const TITLES = ['条码', '名称', '价格', '原价', '单位', '规格', '产地', '等级'];

/** Product `i` of the import file, as cells under TITLES (the default, Chinese, mapping titles). */
function productCells(i: number, round: number): string[] {
  const cents = 100 + ((i * 7919 + round) % 99_900);
  const price = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  const was = i % 3 === 0 ? `${Math.floor(cents / 100) + 2}.00` : '';
  return [
    `69${String(i).padStart(10, '0')}1`,
    `${NAMES[i % NAMES.length]} ${i}`,
    price,
    was,
    '件',
    '标准',
    '中国',
    '一级',
  ];
}

function productCsv(rows: number): Buffer {
  const lines = [TITLES.join(',')];
  for (let i = 0; i < rows; i++) {
    const [barcode, name, ...rest] = productCells(i, 0);
    lines.push([barcode, `"${name}"`, ...rest].join(','));
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);
}

/** The same products as XLSX, every price changed (so the import updates every row). */
async function productXlsx(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('商品');
  sheet.addRow(TITLES);
  for (let i = 0; i < rows; i++) sheet.addRow(productCells(i, 1));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

interface Seeded {
  tagStore: number;
  importStore: number;
}

async function seed(url: string): Promise<Seeded> {
  const database = openDatabase(url);
  await migrateToLatest(database);
  const { db } = database;
  const now = Date.now();
  const tenant = await db
    .insertInto('tenants')
    .values({
      name: 'Bench',
      company: '',
      description: '',
      account: 'bizadmin',
      appid: '',
      ...newKeys(),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const store = (code: string) =>
    db
      .insertInto('stores')
      .values({
        tenant_id: tenant.id,
        name: code,
        code,
        address: '',
        contact: '',
        phone: '',
        remark: '',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const tagStore = (await store('TAGS')).id;
  const importStore = (await store('IMPORT')).id;
  await db
    .insertInto('users')
    .values({
      tenant_id: tenant.id,
      username: 'bizadmin',
      name: 'bizadmin',
      password_hash: await hashPassword(clientDigest(PASSWORD)),
      roles: 'admin',
      introduction: '',
      avatar_key: null,
      created_at: now,
      last_login_at: null,
    })
    .execute();

  const at = { tenant_id: tenant.id, store_id: tagStore };
  const products = Array.from({ length: PRODUCTS_IN_TAG_STORE }, (_, i) => ({
    ...at,
    barcode: `68${String(i).padStart(10, '0')}`,
    qrcode: '',
    name: `${NAMES[i % NAMES.length]} ${i}`,
    price_cents: 100 + (i % 5000),
    original_price_cents: null,
    unit: '',
    spec: '',
    origin: '',
    grade: '',
    custom: '{}',
    price_changes: 0,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < products.length; i += 1000) {
    await db
      .insertInto('products')
      .values(products.slice(i, i + 1000))
      .execute();
  }
  const productIds = (await db.selectFrom('products').select('id').where('store_id', '=', tagStore).execute()).map(
    (r) => r.id,
  );
  const tags = Array.from({ length: TAGS }, (_, i) => {
    const model = TAG_MODELS[i % TAG_MODELS.length];
    return {
      ...at,
      hardware_id: (0x10000000 + i).toString(16).toUpperCase(),
      model: model.code,
      colour: model.colours[0],
      // Three tags in four show a product.
      product_id: i % 4 === 3 ? null : productIds[i % productIds.length],
      station_id: null,
      status: STATUSES[i % STATUSES.length],
      signal: -50 - (i % 40),
      battery: 5 + (i % 95),
      temperature: 20 + (i % 8),
      hardware_model: `HS-${model.name}`,
      last_seen: now - (i % 3600) * 1000,
      created_at: now,
    };
  });
  for (let i = 0; i < tags.length; i += 1000) {
    await db
      .insertInto('tags')
      .values(tags.slice(i, i + 1000))
      .execute();
  }
  await database.close();
  return { tagStore, importStore };
}

type Answer = { code: number; msg: string; data: unknown; count?: number };

async function post(url: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Answer;
}

async function session(base: string, storeId: number): Promise<string> {
  const res = await post(`${base}/api/user/login`, { username: 'bizadmin', password: clientDigest(PASSWORD) });
  if (res.code !== 0) throw new Error(`login: ${res.msg}`);
  const token = (res.data as { token: string }).token;
  const set = await post(`${base}/api/user/setcurrshop`, { curshop: storeId }, token);
  if (set.code !== 0) throw new Error(`setcurrshop: ${set.msg}`);
  return token;
}

async function importFile(base: string, token: string, file: Buffer, pid: number, name = 'products.csv') {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  const before = memoryOf(pid);
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const res = await fetch(`${base}/api/mgr/product/import`, { method: 'POST', headers: { token }, body: form });
  const answer = (await res.json()) as Answer;
  const ms = performance.now() - started;
  if (answer.code !== 0) throw new Error(`import: ${answer.msg} ${JSON.stringify(answer.data).slice(0, 300)}`);
  const cpu = cpuSeconds(pid) - cpuBefore;
  return {
    ms,
    cpu,
    before,
    after: memoryOf(pid),
    data: answer.data as { inserted: number; updated: number; unchanged: number },
  };
}

async function load(base: string, token: string, body: object, pid: number) {
  const opts = {
    url: `${base}/api/mgr/tag/list`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
  };
  await autocannon({ ...opts, duration: 2 });
  const cpuBefore = cpuSeconds(pid);
  const r = await autocannon({ ...opts, duration: DURATION });
  return {
    perCpuSecond: Math.round(r.requests.total / (cpuSeconds(pid) - cpuBefore)),
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

async function seeded(database: string, url: string) {
  const seedStart = performance.now();
  const stores = await seed(url);
  console.log(
    `${database}: seeded ${TAGS} tags and ${PRODUCTS_IN_TAG_STORE} products in ${Math.round(performance.now() - seedStart)} ms`,
  );
  return stores;
}

/** `workers` > 1: the server as WORKERS=n (PostgreSQL), the tag list only. */
async function run(
  database: string,
  url: string,
  file: Buffer,
  xlsx: Buffer,
  stores: Awaited<ReturnType<typeof seed>>,
  workers = 1,
): Promise<void> {
  // SERVER_NODE_ARGS passes flags to the server's node (e.g. --cpu-prof to profile it).
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startServer(
    { DATABASE_URL: url, WORKERS: String(workers), ESL_ADMIN_PASSWORD: PASSWORD },
    nodeArgs,
  );
  if (workers > 1) database = `${database}, ${workers} workers`;
  try {
    const pid = server.child.pid as number;
    const importer = await session(server.url, stores.importStore);
    const passes: [string, Buffer, string][] = [
      ['CSV, new products', file, 'products.csv'],
      ['CSV, the same file again (all unchanged)', file, 'products.csv'],
      ['XLSX, every price changed', xlsx, 'products.xlsx'],
    ];
    for (const [pass, bytes, name] of flag('no-import') || workers > 1 ? [] : passes) {
      const r = await importFile(server.url, importer, bytes, pid, name);
      console.log(
        `${database.padEnd(10)} import ${ROWS} rows (${pass}): ${(r.ms / 1000).toFixed(2)} s, ` +
          `inserted ${r.data.inserted}, updated ${r.data.updated}, unchanged ${r.data.unchanged}; server CPU ${r.cpu.toFixed(2)} s; ` +
          `server RSS ${r.before.rss} MB before, peak ${r.after.peak} MB`,
      );
    }

    const token = await session(server.url, stores.tagStore);
    const check = await post(`${server.url}/api/mgr/tag/list`, { page: 1, limit: 20, status: 'online' }, token);
    if (check.code !== 0 || (check.data as unknown[]).length !== 20) throw new Error(`tag list: ${check.msg}`);
    const scenarios: [string, object][] = [
      [`status = online (${Math.round((TAGS * 3) / 10)} match)`, { page: 1, limit: 20, status: 'online' }],
      ['model = 05, bound', { page: 1, limit: 20, model: '05', bound: true }],
      ['no filter', { page: 1, limit: 20 }],
      ['text "苹果" (ID or product name/barcode)', { page: 1, limit: 20, text: '苹果' }],
    ];
    for (const [name, body] of scenarios) {
      const r = await load(server.url, token, body, pid);
      console.log(
        `${database.padEnd(10)} tag/list ${name.padEnd(42)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  ` +
          `p99 ${r.p99} ms  errors ${r.errors}  (${r.perCpuSecond} req per server CPU-second)`,
      );
    }
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
}

async function postgresAdminUrl(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch {
    await client.end().catch(() => {});
    return undefined;
  }
}

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ` +
      `${CONNECTIONS} connections, ${DURATION} s per figure`,
  );
  const file = productCsv(ROWS);
  const xlsx = await productXlsx(ROWS);
  console.log(
    `import files: ${ROWS} rows, CSV ${(file.length / 2 ** 20).toFixed(1)} MB, XLSX ${(xlsx.length / 2 ** 20).toFixed(1)} MB`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'esl-biz-bench-'));
  try {
    const url = `sqlite:${join(dir, 'bench.db')}`;
    await run('sqlite', url, file, xlsx, await seeded('sqlite', url));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const admin = flag('sqlite') ? undefined : await postgresAdminUrl();
  if (!admin) {
    console.log('postgres: not reachable, skipped');
    return;
  }
  const name = `esl_bench_biz_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`create database ${name}`);
  try {
    const u = new URL(admin);
    u.pathname = `/${name}`;
    const stores = await seeded('postgres', u.toString());
    await run('postgres', u.toString(), file, xlsx, stores);
    // The same database served by two processes (WORKERS=2): the scale-out path on one machine.
    await run('postgres', u.toString(), file, xlsx, stores, 2);
  } finally {
    await adminClient.query(`drop database if exists ${name} with (force)`);
    await adminClient.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
