import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { insertFirmware, openTask } from '../../modules/firmware/repository';
import { buildShop, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { testConfig } from '../config';
import { type Db, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { Notices } from '../notice/notices';
import { VERSION } from '../version';
import { splitNotice, startNoticeRelay } from './notices';
import { notifyChannel } from './repository';

// GET /metrics (metrics/metrics.ts): who may read it, and what it says; the console-notice relay
// between server processes (cluster/notices.ts).

function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

describe.each(await testDatabases())('/metrics ($name)', (target) => {
  describe('without METRICS_TOKEN', () => {
    const t = useApp(target);
    it('answers loopback callers only; anyone else gets 404', async () => {
      const app = t().app;
      const near = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(near.statusCode).toBe(200);
      expect(near.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const far = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
      expect(far.statusCode).toBe(404);
      expect(far.body).not.toContain('esl_');
    });

    it('counts requests, and reads task states, queues and stations from the database', async () => {
      const app = t().app;
      const world = await buildShop(app);
      const at = { tenantId: world.tenant.id, storeId: world.store.id };
      await insertBoundTags(app.services.db, at, 3, { hwPrefix: 'F0', priceCents: () => 100, now: 1 });
      await app.inject({ method: 'GET', url: '/no-such-file.js' });
      await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
      const text = (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).body;
      const m = parse(text);
      expect(m.get('esl_http_requests_total{method="POST",code="2xx"}')).toBeGreaterThan(0);
      expect(m.get('esl_http_requests_total{method="GET",code="4xx"}')).toBe(1);
      expect(m.get('esl_stations{online="true"}')).toBe(0);
      expect(m.get('esl_queue_depth{queue="dispatch"}')).toBe(0);
      expect(m.get('esl_queue_depth{queue="callbacks"}')).toBe(0);
      expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(0);
      // prom-client's: a latency histogram per call, Node's event-loop lag, heap and GC, the build.
      const login = 'esl_http_request_duration_seconds_count{method="POST",route="/api/user/login",code="2xx"}';
      expect(m.get(login)).toBeGreaterThan(0);
      expect(m.get('esl_http_request_duration_seconds_count{method="GET",route="unmatched",code="4xx"}')).toBe(1);
      expect([...m.keys()].some((k) => k.includes('route="/metrics"'))).toBe(false);
      expect(m.get('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(m.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
      expect(m.get(`esl_build_info{version="${VERSION}",node="${process.version}"}`)).toBe(1);
      // Tasks by state: the bound tags' label slots (when binding enqueued them), all gauges integers.
      for (const [k, v] of m) if (k.startsWith('esl_tasks{')) expect(Number.isInteger(v)).toBe(true);
    });

    it('counts firmware upgrades by kind and state, every pair named', async () => {
      const app = t().app;
      const db = app.services.db;
      const world = await buildShop(app);
      const at = { tenantId: world.tenant.id, storeId: world.store.id };
      const fw = await insertFirmware(db, {
        kind: 'tag',
        version: '1.1.0',
        name: 'tag 1.1.0',
        bytes: new Uint8Array([1, 2, 3]),
        hash: 'f'.repeat(64),
        payloadHash: 'e'.repeat(64),
        models: [],
        hw: ['05'],
        now: 1,
      });
      const tags = await insertBoundTags(db, at, 3, { hwPrefix: 'F1', priceCents: () => 100, now: 1 });
      const ids: number[] = [];
      for (const [i, tag] of tags.entries()) {
        const row = await db
          .selectFrom('tags')
          .select('id')
          .where('hardware_id', '=', tag.hw)
          .executeTakeFirstOrThrow();
        ids.push(
          await openTask(db, {
            ...at,
            targetKey: `t:${row.id}`,
            kind: 'tagfw',
            stationId: null,
            tagId: row.id,
            firmwareId: fw,
            version: '1.1.0',
            hash: 'f'.repeat(64),
            size: 3,
            fromVersion: '1.0.0',
            createdBy: null,
            now: i,
          }),
        );
      }
      await db
        .updateTable('firmware_tasks')
        .set({ state: 'failed' })
        .where('id', '=', ids[0] ?? 0)
        .execute();
      const m = parse((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body);
      expect(m.get('esl_firmware_upgrades{kind="tagfw",state="queued"}')).toBe(2);
      expect(m.get('esl_firmware_upgrades{kind="tagfw",state="failed"}')).toBe(1);
      expect(m.get('esl_firmware_upgrades{kind="apfw",state="installing"}')).toBe(0);
      expect([...m.keys()].filter((k) => k.startsWith('esl_firmware_upgrades{'))).toHaveLength(3 * 7);
    });
  });

  describe('with METRICS_TOKEN', () => {
    const t = useApp(target, { metricsToken: 'scrape-me' });
    it('answers only the bearer of the token, wherever it calls from', async () => {
      const app = t().app;
      const get = (authorization?: string, remoteAddress = '10.0.0.9') =>
        app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress,
          headers: authorization ? { authorization } : {},
        });
      expect((await get('Bearer scrape-me')).statusCode).toBe(200);
      expect((await get('Bearer scrape-m')).statusCode).toBe(404);
      expect((await get()).statusCode).toBe(404);
      expect((await get(undefined, '127.0.0.1')).statusCode).toBe(404);
    });
  });
});

describe('console notices too long for one announcement', () => {
  it('are split by their ids; one without ids that does not fit is refused', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const fits = (n: { notice: Record<string, unknown> }) => JSON.stringify(n).length < 1000;
    const parts = splitNotice({ tenantId: 1, notice: { type: 'tag.changed', storeId: 2, ids } }, fits);
    expect(parts?.length).toBeGreaterThan(1);
    expect(parts?.flatMap((p) => p.notice.ids as number[])).toEqual(ids);
    expect(parts?.every((p) => fits(p) && p.notice.storeId === 2)).toBe(true);
    expect(splitNotice({ tenantId: 1, notice: { type: 'x', text: 'y'.repeat(2000) } }, fits)).toBeNull();
  });
});

describe('console notices to one user', () => {
  it('reach every console of that user in the tenant, and no one else', () => {
    const notices = new Notices();
    const got: Record<string, string[]> = { s1: [], s2: [], other: [], otherTenant: [] };
    notices.add({ send: (x) => got.s1?.push(x) }, { tenantId: 7, userId: 2, sessionId: 's1' });
    notices.add({ send: (x) => got.s2?.push(x) }, { tenantId: 7, userId: 2, sessionId: 's2' });
    notices.add({ send: (x) => got.other?.push(x) }, { tenantId: 7, userId: 3, sessionId: 's3' });
    notices.add({ send: (x) => got.otherTenant?.push(x) }, { tenantId: 8, userId: 2, sessionId: 's4' });
    expect(notices.toUser(7, 2, { type: 'schedule.applied', storeId: 1 })).toBe(2);
    const text = JSON.stringify({ type: 'schedule.applied', storeId: 1 });
    expect(got).toEqual({ s1: [text], s2: [text], other: [], otherTenant: [] });
    // As relayed from another process.
    expect(notices.deliver({ tenantId: 7, userId: 3, notice: { type: 'x' } })).toBe(1);
    expect(got.other).toEqual([JSON.stringify({ type: 'x' })]);
  });
});

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

describe.runIf(postgres)('console notices between two processes (postgres)', () => {
  let database: Db;
  let url = '';
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await postgres?.create();
    if (!created) return;
    ({ url, drop } = created);
    database = openDatabase(url);
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('a notice raised in one reaches the consoles of the other, once, to the right session or user', async () => {
    const [a, b] = [new Notices(), new Notices()];
    const notify = (channel: string, payload: string) => notifyChannel(database.db, channel, payload);
    const relays = [startNoticeRelay(url, a, notify), startNoticeRelay(url, b, notify)];
    await Promise.all(relays.map((r) => r.ready));
    const got = { a: [] as string[], bTenant: [] as string[], bSession: [] as string[], bOther: [] as string[] };
    a.add({ send: (x) => got.a.push(x) }, { tenantId: 7, userId: 1, sessionId: 's1' });
    b.add({ send: (x) => got.bTenant.push(x) }, { tenantId: 7, userId: 2, sessionId: 's2' });
    b.add({ send: (x) => got.bSession.push(x) }, { tenantId: 7, userId: 3, sessionId: 's3' });
    b.add({ send: (x) => got.bOther.push(x) }, { tenantId: 8, userId: 4, sessionId: 's4' });
    a.broadcast(7, { type: 'tag.changed', storeId: 1, ids: [1, 2] });
    a.toSession(7, 's3', { type: 'station.cmd', out: 'ok' });
    a.toUser(7, 2, { type: 'schedule.applied', storeId: 1 });
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 25));
    };
    await until(() => got.bTenant.length >= 2 && got.bSession.length >= 2);
    // A little longer: a second copy would arrive in this time.
    await new Promise((r) => setTimeout(r, 200));
    expect(got.a).toEqual([JSON.stringify({ type: 'tag.changed', storeId: 1, ids: [1, 2] })]);
    expect(got.bTenant).toEqual([
      JSON.stringify({ type: 'tag.changed', storeId: 1, ids: [1, 2] }),
      JSON.stringify({ type: 'schedule.applied', storeId: 1 }),
    ]);
    expect(got.bSession).toEqual([
      JSON.stringify({ type: 'tag.changed', storeId: 1, ids: [1, 2] }),
      JSON.stringify({ type: 'station.cmd', out: 'ok' }),
    ]);
    expect(got.bOther).toEqual([]);
    expect(relays[1]?.counters.received).toBe(3);
    await Promise.all(relays.map((r) => r.close()));
  });

  it('buildApp on PostgreSQL relays: a broadcast in one app reaches a console of another', async () => {
    const apps = await Promise.all([0, 1].map(() => buildApp(testConfig({ databaseUrl: url }), openDatabase(url))));
    const [one, two] = apps;
    if (!one || !two) throw new Error('apps');
    await Promise.all(apps.map((x) => x.ready()));
    const heard: string[] = [];
    two.services.notices.add({ send: (x) => heard.push(x) }, { tenantId: 5, userId: 1 });
    for (let i = 0; i < 200 && heard.length === 0; i++) {
      one.services.notices.broadcast(5, { type: 'probe', n: i });
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(heard.length).toBeGreaterThan(0);
    await Promise.all(apps.map((x) => x.close()));
  });
});
