#!/usr/bin/env node
// Smoke test of a built server (issue 26 items 6, 8, 9): start apps/server/dist/main.js --demo with
// this Node.js, check /readyz, sign in, and wait until a label was rendered and delivered to a
// simulated tag (the store wall shows a tag with a screen); then stop it with SIGTERM.
//
//   node scripts/smoke.mjs [--root DIR] [--postgres URL]
//
// --root: a checkout with apps/server/dist and node_modules (default: this one; the container
// build script passes its clean folder). --postgres URL: run on a fresh database made on that
// server (dropped after), not SQLite: on a Node.js other than the one node_modules was built for,
// better-sqlite3's native module does not load, while PostgreSQL's client is JavaScript.
// Takes ~30 s on a loaded 2-core machine; prints one line, exits 1 on any failure.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { root: { type: 'string' }, postgres: { type: 'string' }, timeout: { type: 'string', default: '180' } },
});
const root = values.root ?? new URL('..', import.meta.url).pathname;
const deadline = Date.now() + Number(values.timeout) * 1000;
const started = Date.now();
const dataDir = mkdtempSync(join(tmpdir(), 'esl-smoke-'));

async function makeDatabase(url) {
  if (!url) return { url: '', drop: async () => {} };
  const { default: pg } = await import(join(root, 'node_modules/pg/lib/index.js'));
  const name = `esl_smoke_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const until = async (what, check) => {
  for (;;) {
    const got = await check().catch(() => undefined);
    if (got) return got;
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

const database = await makeDatabase(values.postgres);
const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js'), '--demo'], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    SIM_HTTP: '0',
    WORKERS: '1',
    // A loaded machine may need more than the default 10 s to stop the demo's simulated stations.
    SHUTDOWN_TIMEOUT_MS: '60000',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (d) => (output += d));
child.stderr.on('data', (d) => (output += d));
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
let code = 1;
try {
  const seen = (re) => until(re.source, async () => re.exec(output));
  const [, url] = await seen(/listening on (http:\/\/\S+)/);
  const [, wall] = await seen(/Store wall of the simulated tags: (http:\/\/\S+)/);
  const ready = await fetch(`${url}/readyz`);
  if (ready.status !== 200) throw new Error(`/readyz answered ${ready.status}`);
  const login = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: createHash('sha256').update('demo123').digest('hex') }),
  }).then((r) => r.json());
  if (login.code !== 0) throw new Error(`signing in answered ${JSON.stringify(login)}`);
  const shown = await until('a label on a simulated tag', async () => {
    const stations = await fetch(new URL('/wall.json', wall)).then((r) => r.json());
    return stations.flatMap((s) => s.tags).filter((t) => t.ver !== null).length;
  });
  child.kill('SIGTERM');
  const status = await exited;
  if (status !== 0) throw new Error(`the server exited with ${status} on SIGTERM`);
  console.log(
    `smoke: ok on Node.js ${process.version} (${database.url ? 'PostgreSQL' : 'SQLite'}): signed in, ${shown} tags show a label, in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  code = 0;
} catch (err) {
  console.error(`smoke: FAILED on Node.js ${process.version}: ${err instanceof Error ? err.message : err}`);
  console.error(output.split('\n').slice(-30).join('\n'));
  child.kill('SIGKILL');
} finally {
  await database.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
