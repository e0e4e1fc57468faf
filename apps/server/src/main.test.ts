import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Station, Tag } from '@esl/contract';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { clientDigest } from './infra/lib/passwords';
import { VERSION } from './infra/version';
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
  return (await res.json()) as { code: number; data: { token: string } };
}

/** POST /api<path> as the session `token`; answers the envelope's data (the call must succeed). */
async function callAt<T>(url: string, token: string, path: string, body: unknown = {}): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Every output line parsed as JSON (throws, failing the test, on a line that is not). */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

// Each test starts real server processes (and hashes passwords at the production cost), which
// took up to 26 s on a loaded 2-core machine: give them room beyond the suite's 30 s default.
describe('main', { timeout: 120_000 }, () => {
  it('on an empty database creates the platform operator with a generated password printed once', async () => {
    const s = start([], {});
    const [, url] = await waitFor(s, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, password] = await waitFor(s, /password \(shown only now\): ([\w-]+)/);
    expect((await loginAt(url, 'superadmin', password)).code).toBe(0);
    expect((await loginAt(url, 'admin', 'demo123')).code).toBe(1006);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    const db = new SQLite(join(dataDir, 'esl.db'), { readonly: true });
    const events = db.prepare('select event from sys_logs order by id').all() as { event: string }[];
    // A clean stop gives its process lease up: a restore or another start need not wait for it
    // to run out (it was left behind when the app had closed the database first).
    const leases = db.prepare("select name from cluster_leases where name like 'process:%'").all();
    db.close();
    expect(leases).toEqual([]);
    // The operator's sign-in is in the log between the start and the stop.
    expect(events.map((e) => e.event)).toEqual(['server.start', 'login', 'server.stop']);
    // Production: every line one JSON object (a shipper that parses JSON keeps them all), with the version.
    const lines = jsonLines(s.output());
    expect(lines.find((l) => /listening on/.test(String(l.msg)))).toMatchObject({ level: 30, version: VERSION });
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

  // One demo start for both (each start seeds, renders and stops a server: seconds each).
  it('--demo: simulated stations come online, their tags report signal, battery and temperature; SIM_HTTP serves the store wall', async () => {
    const started = Date.now();
    const s = start(['--demo'], { SIM_HTTP: '0' });
    const [, url] = await waitFor(s, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, simulated] = await waitFor(s, /Simulating the demo stores' (\d+) base stations/);
    const [, wall] = await waitFor(s, /Store wall of the simulated tags: (http:\/\/\S+)/);
    expect(await (await fetch(wall)).text()).toContain('Store wall');
    const walled = (await (await fetch(new URL('/wall.json', wall))).json()) as { sn: string; tags: unknown[] }[];
    expect(walled).toHaveLength(Number(simulated));
    expect(walled.reduce((n, st) => n + st.tags.length, 0)).toBeGreaterThan(0);

    const login = await loginAt(url, 'admin', 'demo123');
    expect(login.code).toBe(0);
    const token = login.data.token;
    const info = await callAt<{ shop: { id: number; name: string }[] }>(url, token, '/user/info');
    expect(info.shop.length).toBeGreaterThan(0);
    let stations = 0;
    for (const shop of info.shop) {
      await callAt(url, token, '/user/setcurrshop', { curshop: shop.id });
      // Every station of the store online on the simulator's connection (its hello reports the
      // simulator's firmware, not the seeded one), and tags heard by each since the start: a
      // report fills signal, battery, temperature and the hardware model from the catalogue.
      stations += await vi.waitFor(
        async () => {
          const list = await callAt<Station[]>(url, token, '/mgr/ap/runtimelist', { limit: 100 });
          expect(list.length, shop.name).toBeGreaterThan(0);
          for (const st of list) expect([st.sn, st.online, st.firmware]).toEqual([st.sn, true, '1.0.0-sim']);
          const tags = await callAt<Tag[]>(url, token, '/mgr/tag/list', { limit: 500, sort: 'lastSeen' });
          const reported = tags.filter((t) => (t.lastSeen ?? 0) >= started && t.hardwareModel === t.modelName);
          for (const t of reported) {
            expect(t.signal, t.hardwareId).toBeLessThan(0);
            expect(t.battery, t.hardwareId).toBeGreaterThanOrEqual(0);
            expect(t.temperature, t.hardwareId).not.toBeNull();
          }
          expect(new Set(reported.map((t) => t.stationSn))).toEqual(new Set(list.map((st) => st.sn)));
          return list.length;
        },
        { timeout: 60_000, interval: 250 },
      );
    }
    expect(stations).toBe(Number(simulated));
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('exits non-zero when the migration fails', async () => {
    const s = start([], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('Database migration failed');
    // The fatal line too is JSON, at pino's fatal level.
    expect(jsonLines(s.output()).some((l) => l.level === 60 && /migration failed/.test(String(l.msg)))).toBe(true);
  });

  it('a bad variable stops the start naming it, as a JSON line', async () => {
    const s = start([], { RENDER_WORKERS: 'many' });
    expect(await s.exited).toBe(1);
    expect(jsonLines(s.output())).toEqual([
      expect.objectContaining({ level: 60, msg: expect.stringContaining('RENDER_WORKERS') }),
    ]);
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
