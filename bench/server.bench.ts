/**
 * Server figures: requests/s and p99 latency for /api/user/info and /api/mgr/station/list (page 1
 * of 20 among 2,000 stores), on SQLite and (when reachable) PostgreSQL. Not a test.
 *
 *   node --import tsx bench/server.bench.ts [--duration 10] [--connections 10] [--only sqlite] [--profile] [--cache-only]
 *
 * Each database is seeded directly, then the real server (apps/server/src/main.ts) runs as its own
 * process on 127.0.0.1 so the load generator does not share its event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest, hashPassword } from '../apps/server/src/infra/lib/passwords';
import { newKeys } from '../apps/server/src/modules/tenants/service';
import { cpuSeconds, startServer } from './server-process';

const ROOT = new URL('..', import.meta.url).pathname;
const STORES = 2000;
const PASSWORD = 'bench-pass';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const DURATION = arg('duration', 10);
/** `--profile`: the server writes V8 CPU profiles to bench/results/ (open them in Chrome DevTools). */
const PROFILE = process.argv.includes('--profile');
/** `--only sqlite|postgres`. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const CONNECTIONS = arg('connections', 10);
/**
 * The server as it runs (read cache on: sessions and stores) and, for comparison, with the cache
 * off so every request reads the database (`--cache-only` skips that second run).
 */
const CACHE_MODES = process.argv.includes('--cache-only')
  ? [{ label: '', env: 'on' }]
  : [
      { label: '', env: 'on' },
      { label: ' (cache off)', env: 'off' },
    ];

async function seed(url: string): Promise<void> {
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
      account: 'benchadmin',
      appid: '',
      ...newKeys(),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows = Array.from({ length: STORES }, (_, i) => ({
    tenant_id: tenant.id,
    name: `门店 Store ${String(i + 1).padStart(4, '0')}`,
    code: `B${String(i + 1).padStart(4, '0')}`,
    address: `${i + 1} Bench Road`,
    contact: 'Bench',
    phone: '555-0100',
    remark: '',
    created_at: now,
  }));
  for (let i = 0; i < rows.length; i += 250)
    await db
      .insertInto('stores')
      .values(rows.slice(i, i + 250))
      .execute();
  const hash = await hashPassword(clientDigest(PASSWORD));
  const user = (username: string, roles: string) => ({
    tenant_id: tenant.id,
    username,
    name: username,
    password_hash: hash,
    roles,
    introduction: '',
    avatar_key: null,
    created_at: now,
    last_login_at: null,
  });
  await db.insertInto('users').values(user('benchadmin', 'admin')).execute();
  const manager = await db
    .insertInto('users')
    .values(user('benchmanager', 'manager'))
    .returning('id')
    .executeTakeFirstOrThrow();
  const two = await db.selectFrom('stores').select('id').orderBy('id').limit(2).execute();
  await db
    .insertInto('user_stores')
    .values(two.map((s) => ({ tenant_id: tenant.id, user_id: manager.id, store_id: s.id })))
    .execute();
  await database.close();
}

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: unknown; count?: number };
}

async function login(base: string, username: string): Promise<string> {
  const res = await post(`${base}/api/user/login`, { username, password: clientDigest(PASSWORD) });
  if (res.code !== 0) throw new Error(`login ${username}: ${res.msg}`);
  return (res.data as { token: string }).token;
}

interface Figure {
  database: string;
  call: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests per second of the server's own CPU time: what one free core would serve. */
  perCpuSecond: number;
}

async function measure(database: string, base: string, pid: number): Promise<Figure[]> {
  const admin = await login(base, 'benchadmin');
  const manager = await login(base, 'benchmanager');
  const list = await post(`${base}/api/mgr/station/list`, { page: 1, limit: 20 }, admin);
  if (list.code !== 0 || list.count !== STORES || (list.data as unknown[]).length !== 20) {
    throw new Error(`unexpected list answer: ${JSON.stringify(list).slice(0, 200)}`);
  }
  const scenarios = [
    { call: '/api/user/info (store manager, 2 stores)', path: '/api/user/info', token: manager, body: {} },
    {
      call: '/api/mgr/station/list (admin, page 1 of 20 among 2,000)',
      path: '/api/mgr/station/list',
      token: admin,
      body: { page: 1, limit: 20 },
    },
    { call: '/api/user/info (admin, all 2,000 stores in the answer)', path: '/api/user/info', token: admin, body: {} },
  ];
  const figures: Figure[] = [];
  for (const s of scenarios) {
    // A short warm-up so JIT and statement caches are hot before measuring.
    await autocannon({
      url: base + s.path,
      method: 'POST',
      headers: { 'content-type': 'application/json', token: s.token },
      body: JSON.stringify(s.body),
      connections: CONNECTIONS,
      duration: 2,
    });
    const cpuBefore = cpuSeconds(pid);
    const r = await autocannon({
      url: base + s.path,
      method: 'POST',
      headers: { 'content-type': 'application/json', token: s.token },
      body: JSON.stringify(s.body),
      connections: CONNECTIONS,
      duration: DURATION,
    });
    figures.push({
      database,
      call: s.call,
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx + r.timeouts,
      perCpuSecond: Math.round(r.requests.total / (cpuSeconds(pid) - cpuBefore)),
    });
    const last = figures[figures.length - 1];
    console.log(
      `${database.padEnd(10)} ${s.call.padEnd(58)} ${String(last.rps).padStart(6)} req/s  p50 ${last.p50} ms  p99 ${last.p99} ms  errors ${last.errors}  (${last.perCpuSecond} req per server CPU-second)`,
    );
  }
  return figures;
}

async function postgresAdminUrl(): Promise<string | undefined> {
  const candidates = process.env.DATABASE_URL
    ? [process.env.DATABASE_URL]
    : ['postgres://postgres@127.0.0.1:5432/postgres'];
  for (const url of candidates) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
    }
  }
  return undefined;
}

async function withServer(database: string, env: Record<string, string>, out: Figure[]) {
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench/results')}`] : [];
  const server = await startServer({ ESL_ADMIN_PASSWORD: PASSWORD, ...env }, profile);
  try {
    out.push(...(await measure(database, server.url, server.child.pid ?? 0)));
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}

async function main() {
  console.log(
    `load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${CONNECTIONS} connections, ${DURATION} s per run`,
  );
  const figures: Figure[] = [];

  if (ONLY !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'esl-bench-'));
    try {
      await seed(`sqlite:${join(dir, 'esl.db')}`);
      for (const cache of CACHE_MODES)
        await withServer(`sqlite${cache.label}`, { DATABASE_URL: '', DATA_DIR: dir, READ_CACHE: cache.env }, figures);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const adminUrl = ONLY === 'sqlite' ? undefined : await postgresAdminUrl();
  if (adminUrl) {
    const name = `esl_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    try {
      await seed(u.toString());
      for (const cache of CACHE_MODES)
        await withServer(`postgres${cache.label}`, { DATABASE_URL: u.toString(), READ_CACHE: cache.env }, figures);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  } else {
    console.log('postgres   not reachable on 127.0.0.1:5432 (or DATABASE_URL): skipped');
  }
  console.log(
    `\nload average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '\n| database | call | req/s | p50 ms | p99 ms | errors | req per server CPU-s |\n|---|---|---|---|---|---|---|',
  );
  for (const f of figures) {
    console.log(`| ${f.database} | ${f.call} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.perCpuSecond} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
