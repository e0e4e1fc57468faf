import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AddStationData, Template } from '@esl/contract';
import type { LabelData } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../infra/config';
import { type Db as Opened, openDatabase } from '../infra/db/database';
import { migrateToLatest } from '../infra/db/migrate';
import { randomHex } from '../infra/lib/random';
import { renderJobs } from '../infra/render';
import * as products from '../modules/products/service';
import * as templates from '../modules/templates/service';
import { buildShop, insertBoundTags } from '../test/business';
import { durableDatabaseUrl, testDatabases } from '../test/databases';
import { callApi } from '../test/harness';

// kill -9 of the server in the middle of a full-store refresh (issue 13, DELIVERY.md §9 item 9):
// the real server as a child process (`node --import tsx src/main.ts`, its embedded broker, its
// render worker), simulated stations and tags in this process on a clock paced at up to ×SPEED. The server is
// SIGKILLed once part of the store shows its new label, restarted on the same database and broker
// port, and the stations (which kept serving their queues and kept their results) reconnect.
// Then: every bound tag shows — decoded by the tag itself — a fresh render of its product made
// here; every (tag, revision) has exactly one tag-log row; nothing is left in flight.

const TAGS = 2000;
const STATIONS = 4;
const SPEED = 10;
const MAIN = join(new URL('..', import.meta.url).pathname, 'main.ts');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

interface Child {
  url: string;
  child: ChildProcess;
}

/** The server as its own process; answers once it listens. */
function startServer(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SIM: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) resolve({ url: m[1], child });
    });
    child.stderr?.on('data', (d) => {
      out += d;
      if (process.env.KILL9_DEBUG) process.stderr.write(d);
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited (${signal ?? code}): ${out.slice(-2000)}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe.each(await testDatabases())('kill -9 of the server mid full-store refresh ($name)', (target) => {
  let sim: Simulator | undefined;
  let server: Child | undefined;
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f();
    // A station stopping says goodbye to the broker; with the server gone that would wait.
    await Promise.race([sim?.stop(), new Promise((r) => setTimeout(r, 5000))]);
    if (server) {
      server.child.kill('SIGKILL');
      await stopped(server.child);
    }
  }, 120_000);

  it(`every bound tag ends showing a fresh render of its product (${TAGS} tags, ×${SPEED})`, async () => {
    const url = await durableDatabaseUrl(target, 'esl-kill9', cleanup);

    // The store, built in this process on the database the server will use.
    const setup = openDatabase(url);
    await migrateToLatest(setup);
    const app = await buildApp(testConfig({ databaseUrl: url }), setup);
    await app.ready();
    const world = await buildShop(app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const ok = async <T>(path: string, body: object) => {
      const res = await callApi<T>(app, path, body, { token });
      expect(res.code, `${path}: ${res.msg}`).toBe(0);
      return res.data;
    };
    const stations: AddStationData[] = [];
    for (let i = 0; i < STATIONS; i++) stations.push(await ok<AddStationData>('/mgr/ap/add', { sn: `KILL-${i}` }));
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'kill9', model: '05' });
    await ok('/mgr/templ/alerttempData', {
      id: template.id,
      doc: priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' }),
    });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const now = Date.now();
    const hws = (await insertBoundTags(setup.db, at, TAGS, { hwPrefix: 'C0', priceCents: (i) => 100 + i, now })).map(
      (b) => b.hw,
    );
    await app.close();

    const mqttPort = await freePort();
    const env = { DATABASE_URL: url, MQTT_PORT: String(mqttPort), ESL_ADMIN_PASSWORD: randomHex(12) };
    server = await startServer(env);
    const db: Opened = openDatabase(url);
    cleanup.push(() => db.close());
    const call = async <T>(path: string, body: object): Promise<T> => {
      const res = await fetch(`${server?.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; msg: string; data: T };
      expect(json.code, `${path}: ${json.msg}`).toBe(0);
      return json.data;
    };
    const perStation = Math.ceil(TAGS / STATIONS);
    sim = await startSimulator({
      url: `mqtt://127.0.0.1:${mqttPort}`,
      stations: stations.map((st, s) => ({
        tenantId: at.tenantId,
        sn: st.sn,
        secret: st.secret,
        tags: hws.slice(s * perStation, (s + 1) * perStation).map((hw, i) => ({
          id: hw,
          hw: '05',
          wakeS: 40,
          x: 1 + (i % 10),
          y: 1 + (Math.floor(i / 10) % 10),
        })),
      })),
      speed: 0,
      start: Date.now(),
      seed: 'kill9',
    });
    const s = sim;
    // The simulated clock is moved on by this loop (at most ×SPEED of real time) rather than
    // scaled from real time: on a loaded machine a late timer would bunch many tags' wakes into one
    // instant and the simulated radio would miss them, which no real radio does.
    let pacing = true;
    const paced = (async () => {
      while (pacing) {
        await s.clock.advance(50 * SPEED);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    cleanup.push(async () => {
      pacing = false;
      await paced;
    });
    // A tag shows its label once its simulated screen carries the hash the server wants it to show.
    const showsLabel = (r: { hardware_id: string; desired_hash: string | null }) =>
      r.desired_hash !== null && s.tag(r.hardware_id).screen()?.hash === r.desired_hash;
    const waitFor = async (what: string, pred: () => boolean | Promise<boolean>, timeoutMs: number) => {
      const end = performance.now() + timeoutMs;
      while (!(await pred())) {
        if (performance.now() > end) {
          const rows = await storeTags();
          const routed = rows.filter((r) => r.station_id !== null).length;
          const st = s.stations.map(
            (x) => `${x.key.sn} connected ${x.isConnected} welcomed ${x.isWelcomed} ${x.lastError ?? ''}`,
          );
          const logs = await db.db.selectFrom('sys_logs').select(['event', 'message']).execute();
          // The tasks of tags not (yet) showing their label: where each one stands.
          const behind = rows.filter((r) => !showsLabel(r)).slice(0, 10);
          const tasks = await db.db
            .selectFrom('device_tasks')
            .select(['tag_id', 'station_id', 'state', 'code', 'rev', 'sent_rev', 'attempt', 'not_before', 'hash'])
            .select(['ack_deadline', 'done_deadline', 'lease_owner', 'lease_until', 'sent_at', 'accepted_at'])
            .where('tag_id', 'in', behind.length ? behind.map((r) => r.id) : [-1])
            .execute();
          const tagsBehind = behind.map((r) => ({
            hw: r.hardware_id,
            station: r.station_id,
            desired: r.desired_hash?.slice(0, 12),
            shows: s.tag(r.hardware_id).screen()?.hash.slice(0, 12) ?? null,
            task: tasks.find((t) => t.tag_id === r.id),
          }));
          throw new Error(
            `timed out waiting for ${what} (${routed} routed, ${shown()} shown; ${st.join('; ')}; ` +
              `sim clock ${s.clock.now()}, db now ${Date.now()}) behind: ${JSON.stringify(tagsBehind)} ` +
              JSON.stringify(logs.slice(-20)),
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const shown = () => hws.filter((hw) => s.tag(hw).screen() !== null).length;
    const storeTags = () =>
      db.db
        .selectFrom('tags')
        .select(['id', 'hardware_id', 'product_id', 'station_id', 'desired_hash'])
        .where('store_id', '=', at.storeId)
        .execute();
    // Most tags have checked in and been reported (a check-in that meets a busy radio is missed and
    // repeated a wake later; the refresh's jobs wait for those tags' routes).
    await waitFor(
      'most tags routed',
      async () => (await storeTags()).filter((r) => r.station_id !== null).length >= 0.9 * TAGS,
      60_000,
    );

    const full = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashallesl', {});
    expect(full.tasks).toBe(TAGS);
    await waitFor('a third of the store refreshed', () => shown() >= TAGS / 3, 90_000);
    server.child.kill('SIGKILL');
    await stopped(server.child);
    const atKill = shown();
    expect(atKill).toBeLessThan(TAGS);
    const active = await db.db
      .selectFrom('device_tasks')
      .select(['state'])
      .where('store_id', '=', at.storeId)
      .where('state', 'in', ['render', 'queued', 'sent', 'accepted'])
      .execute();
    // The kill really left work behind: a half-done refresh, not a finished one.
    expect(active.length).toBeGreaterThan(0);
    const inFlightAtKill = active.filter((r) => r.state === 'sent' || r.state === 'accepted').length;

    // Same database, same broker port: the stations reconnect, say hello, send their outboxes.
    // (Real time allowed: 240 s. With 120 s a full `npm test` on 2 cores once ended at 1,994 of
    // 2,000; a timeout now names where the tasks of the tags still behind stand.)
    server = await startServer(env);
    await waitFor('every tag showing its label', async () => (await storeTags()).every(showsLabel), 240_000);
    await waitFor(
      'the request done',
      async () => (await call<{ status: string }>('/mgr/request/get', { id: full.requestId })).status === 'done',
      60_000,
    );
    await waitFor(
      'nothing in flight',
      async () =>
        (
          await db.db
            .selectFrom('device_tasks')
            .select('id')
            .where('store_id', '=', at.storeId)
            .where('state', 'in', ['render', 'queued', 'sent', 'accepted'])
            .execute()
        ).length === 0,
      60_000,
    );
    const progress = await call<{ done: number; failed: number; total: number }>('/mgr/request/get', {
      id: full.requestId,
    });
    expect(progress).toMatchObject({ done: TAGS, failed: 0, total: TAGS });

    // What each tag shows, decoded by the tag itself, is a render of its product made here.
    const rows = await storeTags();
    const doc = (await templates.documentsOf(db.db, at.tenantId, [template.id])).get(template.id)?.doc;
    if (!doc) throw new Error('template');
    const data = await products.labelDataOf(
      db.db,
      at,
      rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
    );
    const fresh = await renderJobs(
      rows.map((r) => ({
        tenantId: at.tenantId,
        tagId: r.id,
        doc,
        data: (data.get(r.product_id as number)?.data ?? {}) as LabelData,
        model: '05',
        colour: 'bwr',
      })),
    );
    const want = new Map(fresh.map((x) => [x.tagId, 'hash' in x ? x.hash : `error ${x.error}`]));
    const wrong = rows.filter((r) => s.tag(r.hardware_id).screen()?.hash !== want.get(r.id));
    expect(wrong.map((r) => r.hardware_id)).toEqual([]);

    // One tag-log row per (tag, revision), and the slot's last revision ended well.
    const slots = await db.db
      .selectFrom('device_tasks')
      .select(['tag_id', 'rev', 'state'])
      .where('store_id', '=', at.storeId)
      .execute();
    const log = await db.db
      .selectFrom('tag_log')
      .select(['tag_id', 'rev', 'result'])
      .where('store_id', '=', at.storeId)
      .execute();
    const perRev = new Map<string, string[]>();
    for (const r of log) perRev.set(`${r.tag_id}:${r.rev}`, [...(perRev.get(`${r.tag_id}:${r.rev}`) ?? []), r.result]);
    expect([...perRev.entries()].filter(([, results]) => results.length !== 1)).toEqual([]);
    expect(slots).toHaveLength(TAGS);
    for (const slot of slots) {
      expect(slot.state).toBe('done');
      expect(['ok', 'skipped']).toContain(perRev.get(`${slot.tag_id}:${slot.rev}`)?.[0]);
    }
    // A tag got its picture again only if its job was at a station when the server died.
    const transfers = hws.reduce((n, hw) => n + s.tag(hw).transfers, 0);
    expect(transfers - TAGS).toBeLessThanOrEqual(inFlightAtKill);
    console.log(
      `kill -9 (${target.name}): ${atKill}/${TAGS} shown at the kill, ${inFlightAtKill} in flight, ` +
        `${transfers - TAGS} transferred twice`,
    );
  }, 480_000);
});
