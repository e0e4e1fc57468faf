import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH } from './support/context';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'apps/web');
const dist = join(web, 'dist');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Builds the console when dist is missing or older than its sources. */
function buildConsoleIfStale(): void {
  const builtAt = existsSync(join(dist, 'index.html')) ? statSync(join(dist, 'index.html')).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(join(web, 'src')),
    newestMtime(join(web, 'index.html')),
    newestMtime(join(web, 'pda.html')),
    newestMtime(join(web, 'vite.config.ts')),
    newestMtime(join(root, 'packages/contract/src')),
  );
  if (builtAt > sources) return;
  console.log('[e2e] building the console (apps/web/dist is missing or stale)');
  const vite = join(root, 'node_modules/.bin/vite');
  // Vitest runs with NODE_ENV=test; the console under test must be the production build.
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

/** The server runs as `npm run demo` would, not under Vitest's NODE_ENV=test. */
function withoutNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _, ...rest } = env;
  return rest;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/user/info`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Builds the console if needed, starts the real server in demo mode on a free loopback port
 * over a throw-away data folder, and tells the tests where it is. Without Chromium the tests
 * are skipped, so nothing is started.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    project.provide('baseUrl', '');
    project.provide('databaseUrl', '');
    project.provide('skipReason', `${CHROMIUM_PATH} is not installed (CI installs it); browser tests skipped`);
    return async () => {};
  }
  mkdirSync(join(root, 'e2e/artifacts'), { recursive: true });
  buildConsoleIfStale();

  // E2E_BASE_URL points the tests at a server already running (e.g. while developing them).
  const given = process.env.E2E_BASE_URL;
  if (given) {
    project.provide('baseUrl', given.replace(/\/+$/, ''));
    project.provide('mqttUrl', process.env.E2E_MQTT_URL ?? '');
    project.provide('databaseUrl', process.env.E2E_DATABASE_URL ?? '');
    project.provide('skipReason', '');
    return async () => {};
  }

  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'esl-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', '--demo'], {
    cwd: root,
    env: {
      ...withoutNodeEnv(process.env),
      PORT: String(port),
      HOST: '127.0.0.1',
      // The station broker on a free port (a test starts its own simulated station against it);
      // no demo stations changing what screenshots show.
      MQTT_PORT: String(mqttPort),
      SIM: 'off',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: url,
      LOGIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      // Callbacks may reach a receiver the tests run on 127.0.0.1 (pages-callbacks.e2e.ts).
      CALLBACK_ALLOW_LOOPBACK: 'on',
      WEB_DIST: dist,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForServer(url, child, 90_000);
  } catch (error) {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  project.provide('baseUrl', url);
  project.provide('mqttUrl', `mqtt://127.0.0.1:${mqttPort}`);
  // The server's SQLite file (WAL): tests may write rows that only the delivery layer writes.
  project.provide('databaseUrl', `sqlite:${join(dataDir, 'esl.db')}`);
  project.provide('skipReason', '');

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
