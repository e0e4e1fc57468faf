import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { clientDigest } from './auth/passwords';
import { testDatabases } from './test/databases';

const main = new URL('./main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'esl-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(started: Started, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const m = pattern.exec(started.output());
    if (m) return m;
    const done = await Promise.race([started.exited.then(() => true), new Promise((r) => setTimeout(r, 50, false))]);
    if (done) throw new Error(`process exited before ${pattern}: ${started.output()}`);
  }
}

async function loginAt(url: string, username: string, password: string) {
  const res = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: clientDigest(password) }),
  });
  return (await res.json()) as { code: number };
}

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

// Each test starts real server processes (and hashes passwords at the production cost), which
// took up to 26 s on a loaded 2-core machine: give them room beyond the suite's 30 s default.
describe('main', { timeout: 120_000 }, () => {
  it('on an empty database creates the platform operator with a generated password printed once', async () => {
    const s = start([], {});
    const [, url] = await waitFor(s, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, password] = await waitFor(s, /password \(shown only now\): (\S+)/);
    expect((await loginAt(url, 'superadmin', password)).code).toBe(0);
    expect((await loginAt(url, 'admin', 'demo123')).code).toBe(1006);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    const db = new SQLite(join(dataDir, 'esl.db'), { readonly: true });
    const events = db.prepare('select event from sys_logs order by id').all() as { event: string }[];
    db.close();
    // The operator's sign-in is in the log between the start and the stop.
    expect(events.map((e) => e.event)).toEqual(['server.start', 'login', 'server.stop']);
  });

  it('--demo seeds the demo tenant idempotently and prints the logins; the operator keeps its password', async () => {
    for (let run = 0; run < 2; run++) {
      const s = start(['--demo'], {});
      const [, url] = await waitFor(s, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await waitFor(s, /superadmin/);
      for (const user of ['admin', 'editor', 'manager', 'clerk', 'stock']) {
        expect(s.output()).toContain(user);
        expect((await loginAt(url, user, 'demo123')).code, user).toBe(0);
      }
      expect(s.output()).toContain('already existed');
      expect((await loginAt(url, 'superadmin', 'demo123')).code).toBe(1006);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
    const db = new SQLite(join(dataDir, 'esl.db'), { readonly: true });
    const counts = db.prepare('select (select count(*) from tenants) t, (select count(*) from stores) s').get();
    db.close();
    expect(counts).toEqual({ t: 1, s: 2 });
  });

  it('--demo with SIM_HTTP serves the store wall of the simulated demo stations', async () => {
    const s = start(['--demo'], { SIM_HTTP: '0' });
    const [, wall] = await waitFor(s, /Store wall of the simulated tags: (http:\/\/\S+)/);
    expect(await (await fetch(wall)).text()).toContain('Store wall');
    const stations = (await (await fetch(new URL('/wall.json', wall))).json()) as { sn: string; tags: unknown[] }[];
    expect(stations.length).toBeGreaterThan(0);
    expect(stations.reduce((n, st) => n + st.tags.length, 0)).toBeGreaterThan(0);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('exits non-zero when the migration fails', async () => {
    const s = start([], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('Database migration failed');
  });

  it('refuses WORKERS > 1 on SQLite, with the reason', async () => {
    const s = start([], { WORKERS: '2' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('WORKERS > 1 needs PostgreSQL');
  });

  it.runIf(postgres)('WORKERS=2 on PostgreSQL: two processes serve one port and stop together', async () => {
    const created = await postgres!.create();
    try {
      // No station broker: the embedded one is refused with several processes (cluster/start.test.ts).
      const s = start([], { WORKERS: '2', DATABASE_URL: created.url, ESL_ADMIN_PASSWORD: 'op-secret', MQTT: 'off' });
      const [, url] = await waitFor(s, /listening on (http:\/\/127\.0\.0\.1:\d+) \(2 worker processes\)/);
      // New connections are dealt round robin, so these reach both workers.
      for (let i = 0; i < 4; i++) expect((await loginAt(url, 'superadmin', 'op-secret')).code).toBe(0);
      const pids = execFileSync('pgrep', ['-P', String(s.child.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(pids).toHaveLength(2);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      for (const pid of pids) expect(() => process.kill(Number(pid), 0)).toThrow();
    } finally {
      await created.drop();
    }
  });
});
