/**
 * Template calls, in process (Fastify inject: the handler, validation, database and rendering,
 * without the network), on an in-memory SQLite database. Not a test.
 *
 *   node --import tsx bench/templates.bench.ts [--seconds 3]
 *
 * Prints calls per second per core (from the process CPU time) and CPU and wall ms per call for: preview of a saved 2.66" (296×152) and 7.5"
 * (800×480) label with sample data, preview of an unsaved document, save (validation + thumbnail
 * + transaction), and the list (page 1 of 20 among 1,000 templates). Figures: docs/PERFORMANCE.md.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { DEMO_TEMPLATES } from '../apps/server/src/demo/templates';
import { testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest, hashPassword } from '../apps/server/src/infra/lib/passwords';
import { newKeys } from '../apps/server/src/modules/tenants/service';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 3);
const TEMPLATES = 1000;

async function start() {
  const config = testConfig({ databaseUrl: 'sqlite::memory:', logger: { level: 'error' } });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const { db } = database;
  const now = Date.now();
  const tenant = await db
    .insertInto('tenants')
    .values({ name: 'Bench', company: '', description: '', account: '', appid: '', ...newKeys(), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      tenant_id: tenant.id,
      username: 'benchadmin',
      name: 'Bench',
      password_hash: await hashPassword(clientDigest('bench-pass')),
      roles: 'admin',
      introduction: '',
      avatar_key: null,
      created_at: now,
      last_login_at: null,
    })
    .execute();
  const app = await buildApp(config, database);
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: 'benchadmin', password: clientDigest('bench-pass') },
  });
  const answer = login.json() as { code: number; msg: string; data: { token: string } | null };
  if (!answer.data) throw new Error(`login: ${answer.code} ${answer.msg}`);
  const token = answer.data.token;
  return { app, token };
}

async function call(app: FastifyInstance, token: string, path: string, body: object) {
  const res = await app.inject({ method: 'POST', url: `/api${path}`, headers: { token }, payload: body });
  const json = res.json() as { code: number; msg: string; data: unknown };
  if (json.code !== 0) throw new Error(`${path}: ${json.code} ${json.msg}`);
  return json.data;
}

/** CPU time of this process (user + system) in ms: one core's work, whatever else the machine runs. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await run(i); // warm up
  let n = 0;
  const start = performance.now();
  const cpuStart = cpuMs();
  while (performance.now() - start < SECONDS * 1000) await run(n++);
  const wall = performance.now() - start;
  const cpu = cpuMs() - cpuStart;
  const perCore = (n * 1000) / cpu;
  console.log(
    `${label.padEnd(50)} ${perCore.toFixed(0).padStart(6)} calls/s per core  ${(cpu / n).toFixed(2).padStart(6)} ms CPU  ${(wall / n).toFixed(2).padStart(6)} ms wall`,
  );
}

const { app, token } = await start();
const byModel = new Map(DEMO_TEMPLATES.map((d) => [d.doc.size.model, d]));
const ids: Record<string, number> = {};
for (const model of ['0A', '28']) {
  const demo = byModel.get(model);
  if (!demo) throw new Error(`no demo template for ${model}`);
  const row = (await call(app, token, '/mgr/templ/addtemple', { name: demo.name, model })) as { id: number };
  await call(app, token, '/mgr/templ/alerttempData', { id: row.id, doc: demo.doc });
  ids[model] = row.id;
}
const filler = DEMO_TEMPLATES[1];
for (let i = 0; i < TEMPLATES - 2; i++) {
  await call(app, token, '/mgr/templ/addtemple', { name: `模板 ${i}`, width: 250, length: 122 });
}

console.log(
  `templates bench: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0].toFixed(1)}, node ${process.version}, ${SECONDS} s per figure`,
);
await measure('preview saved 296×152 bwr (sample data)', () =>
  call(app, token, '/mgr/templ/preview', { id: ids['0A'] }),
);
await measure('preview saved 800×480 bwr (sample data)', () =>
  call(app, token, '/mgr/templ/preview', { id: ids['28'] }),
);
await measure('preview unsaved 250×122 bwr document', () =>
  call(app, token, '/mgr/templ/preview', { doc: filler.doc, data: { name: '东北五常大米 5kg' } }),
);
await measure('save 296×152 (validate, thumbnail, transaction)', () =>
  call(app, token, '/mgr/templ/alerttempData', { id: ids['0A'], doc: byModel.get('0A')?.doc }),
);
await measure(`list page 1 of 20 among ${TEMPLATES}`, () =>
  call(app, token, '/mgr/templ/list', { page: 1, limit: 20 }),
);
await measure('list filtered by name', (i) => call(app, token, '/mgr/templ/list', { name: `模板 ${i % 900}` }));
await app.close();
