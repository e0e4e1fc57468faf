import type { AddStationData, Template } from '@esl/contract';
import { NOTICE_SOCKET_PATH } from '@esl/contract';
import type { LabelData } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../app';
import { connectDynsec } from '../../delivery/dynsec';
import * as products from '../../modules/products/service';
import * as templates from '../../modules/templates/service';
import { buildShop, insertBoundTags } from '../../test/business';
import {
  haveMosquitto,
  recipeEnv,
  type ServerChild,
  scrape,
  startMosquitto,
  startServer,
  stopped,
  type TestBroker,
} from '../../test/cluster';
import { testDatabases } from '../../test/databases';
import { callApi } from '../../test/harness';
import { testConfig } from '../config';
import { type Db as Opened, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { randomHex } from '../lib/random';
import { renderJobs } from '../render';

// Two server processes (child processes of this test, `main.ts` with docs/DEPLOY.md's
// environment) on one PostgreSQL database with a random name and a test-owned Mosquitto (DEPLOY.md's
// configuration, dynamic security), simulated stations and tags in this process:
//
// 1. a full-store refresh with both servers up: every station message the stations sent is
//    handled by exactly one server (the sum of both servers' counts equals what an observer on
//    the broker counted), both did some of the work; then single-tag refreshes show that a
//    console socket on server A hears the end of requests whose result only server B handled;
// 2. a second full-store refresh (a new template revision) during which server B is killed -9
//    once a third of the store shows the new label: every tag ends showing a fresh render of its
//    product made here, one tag-log row per (tag, revision), nothing left in flight.

const TAGS = 800;
const STATIONS = 4;
const SPEED = 10;
const target = (await testDatabases()).find((d) => d.name === 'postgres');

describe.runIf(haveMosquitto && target)('two server processes on one PostgreSQL database and Mosquitto', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  const servers: ServerChild[] = [];
  let sim: Simulator | undefined;
  let broker: TestBroker | undefined;
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f();
    await Promise.race([sim?.stop(), new Promise((r) => setTimeout(r, 5000))]);
    for (const s of servers) {
      s.child.kill('SIGKILL');
      await stopped(s.child);
    }
    await broker?.stop();
  }, 120_000);

  it(`shares a full-store refresh, handles each message once, and survives kill -9 of one (${TAGS} tags)`, async () => {
    if (!target) return;
    const created = await target.create();
    cleanup.push(() => created.drop());
    const dbUrl = created.url;
    broker = await startMosquitto();
    const b = broker;

    // The store, built in this process on the database the servers will use.
    const setup = openDatabase(dbUrl);
    await migrateToLatest(setup);
    const app = await buildApp(testConfig({ databaseUrl: dbUrl }), setup);
    await app.ready();
    const world = await buildShop(app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const local = async <T>(path: string, body: object) => {
      const res = await callApi<T>(app, path, body, { token });
      expect(res.code, `${path}: ${res.msg}`).toBe(0);
      return res.data;
    };
    const template = await local<Template>('/mgr/templ/addtemple', { name: 'cluster', model: '05' });
    const doc = (size: number) => priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr', nameSize: size });
    await local('/mgr/templ/alerttempData', { id: template.id, doc: doc(28) });
    await local('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const hws = (
      await insertBoundTags(setup.db, at, TAGS, { hwPrefix: 'D0', priceCents: (i) => 100 + i, now: Date.now() })
    ).map((x) => x.hw);
    await app.close();

    // docs/DEPLOY.md's environment, pointed at this test's database and broker.
    const metricsToken = randomHex(12);
    const env = recipeEnv((v) =>
      v
        .replace(/^postgres:\/\/.*$/, dbUrl)
        .replace('mqtt://broker-host:1883', b.url)
        .replace('SERVER-PASSWORD', b.server.password)
        .replace('ADMIN-PASSWORD', b.admin.password)
        .replace('METRICS-TOKEN', metricsToken),
    );
    const common = { ...env, PORT: '0', HOST: '127.0.0.1', RENDER_WORKERS: '1', ESL_ADMIN_PASSWORD: randomHex(12) };
    const start = async (id: string) => {
      const s = await startServer({ ...common, INSTANCE_ID: id });
      servers.push(s);
      return s;
    };
    const [A, B] = [await start('a'), await start('b')];
    if (!A || !B) throw new Error('servers');
    const db: Opened = openDatabase(dbUrl);
    cleanup.push(() => db.close());
    const call = async <T>(server: ServerChild, path: string, body: object): Promise<T> => {
      const res = await fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; msg: string; data: T };
      expect(json.code, `${path}: ${json.msg}`).toBe(0);
      return json.data;
    };

    // Stations added through server A: it writes their accounts into Mosquitto.
    const stations: AddStationData[] = [];
    for (let i = 0; i < STATIONS; i++) stations.push(await call<AddStationData>(A, '/mgr/ap/add', { sn: `CL-${i}` }));

    // An observer on the broker counts what the stations send (its own account, unshared subscription).
    const admin = await connectDynsec({ url: b.url, ...b.admin, clientId: 'test-observer-setup' });
    const observerPassword = randomHex(10);
    const made = await admin.run([
      {
        command: 'createRole',
        rolename: 'observer',
        acls: [
          { acltype: 'subscribePattern', topic: 'esl/v1/#', allow: true },
          { acltype: 'publishClientReceive', topic: 'esl/v1/#', allow: true },
        ],
      },
      { command: 'createClient', username: 'observer', password: observerPassword, roles: [{ rolename: 'observer' }] },
    ]);
    expect(made.filter((x) => x.error)).toEqual([]);
    await admin.close();
    const observer = await mqtt.connectAsync(b.url, {
      username: 'observer',
      password: observerPassword,
      clientId: 'observer',
      reconnectPeriod: 0,
    });
    cleanup.push(() => observer.endAsync(true));
    const observed = new Map<string, number>();
    observer.on('message', (topic) => {
      const kind = topic.slice(topic.lastIndexOf('/') + 1);
      observed.set(kind, (observed.get(kind) ?? 0) + 1);
    });
    await observer.subscribeAsync('esl/v1/+/+/up/#', { qos: 1 });

    // A console on server A.
    const socket = new WebSocket(`${A.url.replace('http', 'ws')}${NOTICE_SOCKET_PATH}?token=${token}`, {
      headers: { origin: A.url },
    });
    cleanup.push(() => socket.close());
    const heard: Array<{ type: string; ids?: number[]; status?: string; id?: number }> = [];
    socket.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{')) heard.push(JSON.parse(text));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });

    const perStation = Math.ceil(TAGS / STATIONS);
    sim = await startSimulator({
      url: b.url,
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
      seed: 'cluster',
    });
    const s = sim;
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

    const storeTags = () =>
      db.db
        .selectFrom('tags')
        .select(['id', 'hardware_id', 'product_id', 'station_id', 'desired_hash'])
        .where('store_id', '=', at.storeId)
        .execute();
    const inFlight = async () =>
      (
        await db.db
          .selectFrom('device_tasks')
          .select('id')
          .where('store_id', '=', at.storeId)
          .where('state', 'in', ['render', 'queued', 'sent', 'accepted'])
          .execute()
      ).length;
    const waitFor = async (what: string, pred: () => boolean | Promise<boolean>, timeoutMs: number) => {
      const end = performance.now() + timeoutMs;
      while (!(await pred())) {
        if (performance.now() > end) {
          const st = s.stations.map((x) => `${x.key.sn} connected ${x.isConnected} welcomed ${x.isWelcomed}`);
          throw new Error(
            `timed out waiting for ${what} (${st.join('; ')}; ${await inFlight()} in flight)\nA: ${A.output().slice(-1500)}\nB: ${B.output().slice(-1500)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await waitFor(
      'most tags routed',
      async () => (await storeTags()).filter((r) => r.station_id !== null).length >= 0.9 * TAGS,
      90_000,
    );

    // 1. A full-store refresh, asked of server B, both servers up.
    const first = await call<{ requestId: number; tasks: number }>(B, '/mgr/tag/flashallesl', {});
    expect(first.tasks).toBe(TAGS);
    const requestDone = (server: ServerChild, id: number) => async () =>
      (await call<{ status: string }>(server, '/mgr/request/get', { id })).status === 'done';
    await waitFor('the first refresh done', requestDone(A, first.requestId), 180_000);
    await waitFor('nothing in flight', async () => (await inFlight()) === 0, 60_000);

    // Each station message handled by exactly one server: both servers' counts add up to what the
    // stations sent (results and acks stop once every job is answered).
    const handled = async (kind: string) =>
      (await scrape(A.url, metricsToken)).get(`esl_station_messages_total{kind="${kind}"}`) ?? 0;
    const handledB = async (kind: string) =>
      (await scrape(B.url, metricsToken)).get(`esl_station_messages_total{kind="${kind}"}`) ?? 0;
    let stable = 0;
    let last = '';
    await waitFor(
      'result and ack counts settled',
      async () => {
        const now = JSON.stringify([observed.get('result'), observed.get('ack')]);
        stable = now === last ? stable + 1 : 0;
        last = now;
        return stable >= 10;
      },
      60_000,
    );
    for (const kind of ['result', 'ack']) {
      const [a, bb] = [await handled(kind), await handledB(kind)];
      expect(observed.get(kind) ?? 0).toBeGreaterThan(0);
      expect({ kind, handled: a + bb }).toEqual({ kind, handled: observed.get(kind) });
      // Both servers took part.
      expect(a, `server A handled no ${kind}`).toBeGreaterThan(0);
      expect(bb, `server B handled no ${kind}`).toBeGreaterThan(0);
    }
    const rendersA = (await scrape(A.url, metricsToken)).get('esl_renders_total') ?? 0;
    const rendersB = (await scrape(B.url, metricsToken)).get('esl_renders_total') ?? 0;
    expect(rendersA + rendersB).toBeGreaterThanOrEqual(TAGS);

    // A console on A hears results that B handled. A raises tag notices of its own (renders,
    // dispatch, reports), so those prove nothing; a request's end does: single-tag refreshes, each
    // a request of one slot, whose `request.progress` 'done' only the process that stores the
    // slot's result raises. When the two servers' result counts add up to the requests (each
    // result handled once), A raised at most its own count of those notices; the rest that its
    // socket hears came from B, through the notice relay.
    const results = async (server: ServerChild) =>
      (await scrape(server.url, metricsToken)).get('esl_results_total') ?? 0;
    const tagIdOf = new Map((await storeTags()).map((r) => [r.hardware_id, r.id]));
    const ended = (id: number) =>
      heard.some((n) => n.type === 'request.progress' && n.id === id && n.status === 'done');
    let relayed = 0;
    for (let round = 0; round < 3 && relayed === 0; round++) {
      const [a0, b0] = [await results(A), await results(B)];
      const requests: number[] = [];
      for (let i = 0; i < 2 * STATIONS; i++) {
        const hw = hws[(i % STATIONS) * perStation + 2 * round + Math.floor(i / STATIONS)];
        const asked = await call<{ requestId: number; tasks: number }>(B, '/mgr/tag/flashesl', {
          ids: [tagIdOf.get(hw ?? '')],
          force: true,
        });
        expect(asked.tasks).toBe(1);
        requests.push(asked.requestId);
      }
      await waitFor(
        'the single-tag refreshes done',
        async () => {
          for (const id of requests) if (!(await requestDone(B, id)())) return false;
          return true;
        },
        60_000,
      );
      await waitFor('nothing in flight', async () => (await inFlight()) === 0, 60_000);
      const [a, b] = [(await results(A)) - a0, (await results(B)) - b0];
      expect({ round, handled: a + b }).toEqual({ round, handled: requests.length });
      await waitFor('the console on A told of every refresh ending', () => requests.every(ended), 10_000);
      relayed += b;
    }
    expect(relayed, 'server B handled none of the single-tag results in 3 rounds').toBeGreaterThan(0);

    // The console on A heard every tag change, and the full-store request's end.
    await waitFor(
      'the console on A told about every tag',
      () => {
        const ids = new Set(heard.flatMap((n) => (n.type === 'tag.changed' ? (n.ids ?? []) : [])));
        return ids.size >= TAGS;
      },
      10_000,
    );
    expect(heard.some((n) => n.type === 'request.progress' && n.id === first.requestId && n.status === 'done')).toBe(
      true,
    );
    expect((await scrape(A.url, metricsToken)).get('esl_notices_from_others_total')).toBeGreaterThan(0);
    expect((await scrape(A.url, metricsToken)).get('esl_server_processes')).toBe(2);

    // 2. A new template revision, refreshed through server A; server B killed -9 a third of the way.
    const before = new Map((await storeTags()).map((r) => [r.id, r.desired_hash]));
    await call(A, '/mgr/templ/alerttempData', { id: template.id, doc: doc(30) });
    const second = await call<{ requestId: number; tasks: number }>(A, '/mgr/tag/flashallesl', {});
    expect(second.tasks).toBe(TAGS);
    const renewed = async () => {
      const rows = await storeTags();
      return rows.filter(
        (r) =>
          r.desired_hash !== null &&
          r.desired_hash !== before.get(r.id) &&
          s.tag(r.hardware_id).screen()?.hash === r.desired_hash,
      ).length;
    };
    await waitFor('a third of the store relabelled', async () => (await renewed()) >= TAGS / 3, 120_000);
    B.child.kill('SIGKILL');
    await stopped(B.child);
    const atKill = await renewed();
    expect(atKill).toBeLessThan(TAGS);
    expect(await inFlight()).toBeGreaterThan(0);

    await waitFor('every tag showing its new label', async () => (await renewed()) === TAGS, 180_000);
    await waitFor('the second refresh done', requestDone(A, second.requestId), 60_000);
    await waitFor('nothing in flight', async () => (await inFlight()) === 0, 60_000);
    const progress = await call<{ done: number; failed: number; total: number }>(A, '/mgr/request/get', {
      id: second.requestId,
    });
    expect(progress).toMatchObject({ done: TAGS, failed: 0, total: TAGS });

    // What each tag shows, decoded by the tag itself, is a fresh render of its product made here.
    const rows = await storeTags();
    const docNow = (await templates.documentsOf(db.db, at.tenantId, [template.id])).get(template.id)?.doc;
    if (!docNow) throw new Error('template');
    const data = await products.labelDataOf(
      db.db,
      at,
      rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
    );
    const fresh = await renderJobs(
      rows.map((r) => ({
        tenantId: at.tenantId,
        tagId: r.id,
        doc: docNow,
        data: (data.get(r.product_id as number)?.data ?? {}) as LabelData,
        model: '05',
        colour: 'bwr',
      })),
    );
    const want = new Map(fresh.map((x) => [x.tagId, 'hash' in x ? x.hash : `error ${x.error}`]));
    expect(
      rows.filter((r) => s.tag(r.hardware_id).screen()?.hash !== want.get(r.id)).map((r) => r.hardware_id),
    ).toEqual([]);

    // One tag-log row per (tag, revision); every slot's last revision ended well.
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
    console.log(
      `two servers: first refresh renders A ${rendersA} / B ${rendersB}, results A ${await handled('result')}; ` +
        `second: ${atKill}/${TAGS} relabelled when B was killed`,
    );
  }, 600_000);
});
