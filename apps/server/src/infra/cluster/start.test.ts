import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddStationData, Template } from '@esl/contract';
import { TEMPLATE_VERSION } from '@esl/labels';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { buildShop, insertBoundTags } from '../../test/business';
import {
  freePort,
  haveMosquitto,
  recipeEnv,
  runServer,
  type ServerChild,
  startMosquitto,
  startServer,
  stopped,
  type TestBroker,
} from '../../test/cluster';
import { testDatabases } from '../../test/databases';
import { callApi } from '../../test/harness';
import { testConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { randomHex } from '../lib/random';

// Server processes as they start (main.ts): where several cannot run side by side they refuse,
// saying why, and WORKERS=2 on PostgreSQL with an external broker serves stations.

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');
const running: ServerChild[] = [];
const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const s of running) {
    s.child.kill('SIGKILL');
    await stopped(s.child);
  }
  for (const f of cleanup.reverse()) await f();
}, 60_000);

describe('refused at start', { timeout: 120_000 }, () => {
  it('a second process on one SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esl-cluster-start-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: '',
      MQTT: 'off',
      ESL_ADMIN_PASSWORD: 'x-1',
    };
    const first = await startServer(env);
    running.push(first);
    const second = await runServer(env);
    expect(second.code).toBe(1);
    expect(second.output).toMatch(/Not starting: another server process \(.* pid \d+\) uses this SQLite database/);
    // Once the first has stopped (cleanly), the next one starts.
    first.child.kill('SIGTERM');
    await stopped(first.child);
    const third = await startServer(env);
    running.push(third);
    // And after a kill -9 too: its pid is gone, so its lease does not count.
    third.child.kill('SIGKILL');
    await stopped(third.child);
    running.push(await startServer(env));
  });

  it.runIf(postgres)('WORKERS=2 with the embedded broker, and an embedded broker beside another process', async () => {
    const created = await postgres?.create();
    if (!created) return;
    cleanup.push(() => created.drop());
    const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: created.url, ESL_ADMIN_PASSWORD: 'x-1' };
    const workers = await runServer({ ...env, WORKERS: '2', MQTT_PORT: String(await freePort()) });
    expect(workers.code).toBe(1);
    expect(workers.output).toContain('Not starting: WORKERS > 1 needs an external station broker (MQTT_URL');

    const first = await startServer({ ...env, MQTT: 'off' });
    running.push(first);
    const embedded = await runServer({ ...env, MQTT_PORT: String(await freePort()) });
    expect(embedded.code).toBe(1);
    expect(embedded.output).toMatch(
      /Not starting: another server process .* the stations need one external broker \(MQTT_URL\)/,
    );
  });
});

describe.runIf(haveMosquitto && postgres)('WORKERS=2 with MQTT_URL on PostgreSQL', { timeout: 300_000 }, () => {
  let broker: TestBroker | undefined;
  let sim: Simulator | undefined;
  afterAll(async () => {
    await Promise.race([sim?.stop(), new Promise((r) => setTimeout(r, 5000))]);
    await broker?.stop();
  });

  it('both workers serve: a refresh reaches every tag, the station messages shared between them', async () => {
    const created = await postgres?.create();
    if (!created) return;
    cleanup.push(() => created.drop());
    broker = await startMosquitto();
    const b = broker;
    // The shop, built in this process on the database the server will use.
    const setup = openDatabase(created.url);
    await migrateToLatest(setup);
    const app = await buildApp(testConfig({ databaseUrl: created.url }), setup);
    await app.ready();
    const world = await buildShop(app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const template = await callApi<Template>(app, '/mgr/templ/addtemple', { name: 'w', model: '05' }, { token });
    await callApi(
      app,
      '/mgr/templ/alerttempData',
      {
        id: template.data.id,
        doc: {
          version: TEMPLATE_VERSION,
          size: { model: '05', w: 250, h: 122 },
          colourType: 'bwr',
          elements: [
            { type: 'text', id: 'n', x: 4, y: 4, w: 242, h: 40, font: { size: 28 }, binding: { key: 'name' } },
          ],
        },
      },
      { token },
    );
    await callApi(app, '/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.data.id }, { token });
    const hws = (
      await insertBoundTags(setup.db, at, 60, { hwPrefix: 'A7', priceCents: (i) => i, now: Date.now() })
    ).map((x) => x.hw);
    await app.close();

    const metricsToken = randomHex(8);
    const env = recipeEnv((v) =>
      v
        .replace(/^postgres:\/\/.*$/, created.url)
        .replace('mqtt://broker-host:1883', b.url)
        .replace('SERVER-PASSWORD', b.server.password)
        .replace('ADMIN-PASSWORD', b.admin.password)
        .replace('METRICS-TOKEN', metricsToken),
    );
    const server = await startServer({
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: '2',
      INSTANCE_ID: 'w',
      RENDER_WORKERS: '0',
      ESL_ADMIN_PASSWORD: randomHex(8),
    });
    running.push(server);
    expect(server.output()).toContain('(2 worker processes)');
    const call = async <T>(path: string, body: object): Promise<T> => {
      const res = await fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; msg: string; data: T };
      expect(json.code, `${path}: ${json.msg}`).toBe(0);
      return json.data;
    };
    const stations = [
      await call<AddStationData>('/mgr/ap/add', { sn: 'W-0' }),
      await call<AddStationData>('/mgr/ap/add', { sn: 'W-1' }),
    ];
    sim = await startSimulator({
      url: b.url,
      stations: stations.map((st, k) => ({
        tenantId: at.tenantId,
        sn: st.sn,
        secret: st.secret,
        tags: hws
          .slice(k * 30, (k + 1) * 30)
          .map((hw, i) => ({ id: hw, hw: '05', wakeS: 20, x: 1 + (i % 5), y: 1 + Math.floor(i / 5) })),
      })),
      speed: 0,
      start: Date.now(),
      seed: 'workers',
    });
    const s = sim;
    // The simulated clock moved on by this loop (×10 at most), as in two-servers.test.ts.
    let pacing = true;
    const paced = (async () => {
      while (pacing) {
        await s.clock.advance(500);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    cleanup.push(async () => {
      pacing = false;
      await paced;
    });
    const db = openDatabase(created.url);
    cleanup.push(() => db.close());
    const waitFor = async (what: string, pred: () => Promise<boolean> | boolean, timeoutMs: number) => {
      const end = performance.now() + timeoutMs;
      while (!(await pred())) {
        if (performance.now() > end) {
          const states = await db.db
            .selectFrom('device_tasks')
            .select(['state', 'code', 'station_id'])
            .where('store_id', '=', at.storeId)
            .execute();
          throw new Error(
            `timed out waiting for ${what}: ${JSON.stringify(states.slice(0, 20))} ${server.output().slice(-2000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const routed = async () =>
      (
        await db.db
          .selectFrom('tags')
          .select('id')
          .where('store_id', '=', at.storeId)
          .where('station_id', 'is not', null)
          .execute()
      ).length;
    await waitFor('the tags routed', async () => (await routed()) === hws.length, 120_000);
    const full = await call<{ requestId: number }>('/mgr/tag/flashallesl', {});
    await waitFor(
      'the refresh done',
      async () => (await call<{ status: string }>('/mgr/request/get', { id: full.requestId })).status === 'done',
      120_000,
    );
    const rows = await db.db
      .selectFrom('tags')
      .select(['hardware_id', 'desired_hash'])
      .where('store_id', '=', at.storeId)
      .execute();
    expect(rows.filter((r) => !r.desired_hash || s.tag(r.hardware_id).screen()?.hash !== r.desired_hash)).toEqual([]);

    // Each worker handled station messages: ask /metrics on fresh connections until both answered.
    const byPid = new Map<string, number>();
    for (let i = 0; i < 60 && byPid.size < 2; i++) {
      const text = await getFresh(`${server.url}/metrics`, metricsToken);
      const pid = /esl_process_info\{host="[^"]*",pid="(\d+)"\} 1/.exec(text)?.[1];
      const handled = [...text.matchAll(/^esl_station_messages_total\{kind="[^"]+"\} (\d+)$/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
      if (pid) byPid.set(pid, handled);
    }
    expect(byPid.size).toBe(2);
    for (const [pid, handled] of byPid) expect(handled, `worker ${pid}`).toBeGreaterThan(0);
  });
});

/** GET on a connection of its own (node:cluster deals connections to the workers in turn). */
function getFresh(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
  });
}
