import {
  type AddStationData,
  describeTarget,
  ErrorCode,
  type RenewStationSecretData,
  type Station,
  type Tag,
} from '@esl/contract';
import {
  encodeMessage,
  MESSAGES,
  type MessageInput,
  type MessageName,
  type StationKey,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import * as repo from './tags/repository';
import { thresholdsFromJson } from './tags/status';

// The gateway on the server that `npm start` runs: embedded broker on a free port, stations from
// the stations table, a clock the test moves (sweeper ticks called by hand).

const open: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
});

interface TestStation {
  key: StationKey;
  client: MqttClient;
  connId: string;
  down: Array<{ topic: string; body: unknown }>;
  send<K extends MessageName>(name: K, body: MessageInput<K>): Promise<void>;
  /** The socket dies without DISCONNECT: the broker publishes the Will. */
  abrupt(): Promise<void>;
}

let connSeq = 0;

async function connect(url: string, key: StationKey, secret: string, clientId = stationUsername(key)) {
  const connId = `conn${++connSeq}`;
  const will = encodeMessage('status', { v: 1, online: false, connId, at: 1 });
  const client = await mqtt.connectAsync(url, {
    clientId,
    username: stationUsername(key),
    password: secret,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    will: { topic: topics.status(key), payload: Buffer.from(will), qos: 1, retain: true },
  });
  open.push(client);
  const down: TestStation['down'] = [];
  client.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await client.subscribeAsync(topics.downFilter(key), { qos: 1 });
  const station: TestStation = {
    key,
    client,
    connId,
    down,
    async send(name, body) {
      await client.publishAsync(`${stationRoot(key)}/${MESSAGES[name].path}`, encodeMessage(name, body), {
        qos: 1,
        retain: MESSAGES[name].retain,
      });
    },
    async abrupt() {
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.stream.destroy();
      await closed;
    },
  };
  return station;
}

async function refusal(url: string, username: string, password: string, clientId = username): Promise<number> {
  try {
    const c = await mqtt.connectAsync(url, { clientId, username, password, reconnectPeriod: 0, connectTimeout: 5000 });
    open.push(c);
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
  throw new Error(`${username} was let in`);
}

const hello = (s: TestStation, time: number): MessageInput<'hello'> => ({
  v: 1,
  connId: s.connId,
  boot: 1,
  model: 'TEST-AP',
  fw: { ap: '2.1.0', module: '0.9.3' },
  radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
  caps: { queue: 256, queueBytes: 1 << 20, inlineMax: 16384, chunk: 16384, fwConcurrent: 1, kinds: ['image'] },
  queue: [],
  outbox: 0,
  net: { ip: '10.1.2.3', mac: 'a4:c1:38:00:00:01', gw: '10.1.2.1', mask: '255.255.255.0', ntp: 'ntp.example.com' },
  cfgRev: 0,
  time,
});

const heartbeat = (at: number, cpu = 12.5): MessageInput<'heartbeat'> => ({
  v: 1,
  at,
  uptimeS: 3600,
  cpu,
  mem: 40,
  disk: 20,
  queue: { jobs: 7, bytes: 9000 },
  radio: { busyPct: 31.5, svcPerS: 2.5, tx: 10, rx: 20, crcErr: 0 },
  tagsHeard: 3,
  cfgRev: 0,
});

describe.each(await testDatabases())('station gateway on $name', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const delivery = () => {
    const d = t().app.delivery;
    if (!d) throw new Error('no delivery');
    return d;
  };
  const settle = async () => {
    await delivery().gateway.idle();
    await delivery().syslog.flush();
  };
  const sysLogs = (app: FastifyInstance, tenantId: number, event: string) =>
    app.services.db
      .selectFrom('sys_logs')
      .select(['event', 'message', 'level'])
      .where('tenant_id', '=', tenantId)
      .where('event', '=', event)
      .execute();
  const runtime = async (token: string, sn: string) => {
    const list = await t().call<Station[]>('/mgr/ap/runtimelist', { text: sn }, { token });
    return list.data.find((s) => s.sn === sn);
  };

  async function shopWithStation(sn = `AP${++connSeq}`) {
    const shop = await buildShop(t().app);
    const added = await t().call<AddStationData>('/mgr/ap/add', { sn }, { token: shop.tokens.admin });
    expect(added.code, added.msg).toBe(0);
    const notes: Array<Record<string, unknown>> = [];
    t().app.services.notices.add(
      { send: (text) => notes.push(JSON.parse(text)) },
      { tenantId: shop.tenant.id, userId: 0 },
    );
    return { ...shop, key: { tenantId: shop.tenant.id, sn: added.data.sn }, added: added.data, notes };
  }

  async function online(url: string, key: StationKey, secret: string) {
    const s = await connect(url, key, secret);
    await s.send('status', { v: 1, online: true, connId: s.connId, at: t().clock.now() });
    await s.send('hello', hello(s, t().clock.now()));
    await vi.waitFor(() => expect(s.down.some((d) => d.topic.endsWith('/down/welcome'))).toBe(true));
    await settle();
    return s;
  }

  it('lets a station in with the secret /mgr/ap/add issued, refuses wrong ones, and logs the refusals', async () => {
    const { key, added, tenant } = await shopWithStation();
    const url = delivery().url;
    const user = stationUsername(key);
    expect(await refusal(url, user, 'wrong')).toBe(4);
    expect(await refusal(url, user, added.secret, `${key.tenantId}.OTHER`)).toBe(5);
    expect(await refusal(url, `${key.tenantId}.+`, added.secret)).toBe(5);
    expect(await refusal(url, `${key.tenantId}.#`, added.secret)).toBe(5);
    expect(await refusal(url, `${key.tenantId}/${key.sn}`, added.secret)).toBe(5);
    const s = await connect(url, key, added.secret);
    expect(s.client.connected).toBe(true);
    await settle();
    // Refused logins: the platform operator's log, never the tenant's (anyone may name the tenant),
    // and none of the text the client chose (username, client id, secret).
    expect(await sysLogs(t().app, tenant.id, 'station.auth_failed')).toEqual([]);
    const failed = (
      await t()
        .app.services.db.selectFrom('sys_logs')
        .select(['message'])
        .where('tenant_id', 'is', null)
        .where('event', '=', 'station.auth_failed')
        .execute()
    ).filter((r) => new RegExp(`tenant ${tenant.id}(\\D|$)`).test(r.message));
    expect(failed.map((r) => /\((\w+)\)/.exec(r.message)?.[1]).sort()).toEqual(['badSecret', 'clientIdMismatch']);
    expect(failed.every((r) => !r.message.includes(added.secret) && !r.message.includes('OTHER'))).toBe(true);
  });

  it('renews a secret once per call: the old one stops working, its session ends, the call is logged', async () => {
    const { key, added, tokens, tenant } = await shopWithStation();
    const url = delivery().url;
    const old = await connect(url, key, added.secret);
    const closed = new Promise<void>((resolve) => old.client.once('close', () => resolve()));
    const refused = await t().call('/mgr/ap/renewsecret', { id: added.id }, { token: tokens.clerk });
    expect(refused.code).toBe(ErrorCode.FORBIDDEN);
    const renewed = await t().call<RenewStationSecretData>(
      '/mgr/ap/renewsecret',
      { id: added.id },
      { token: tokens.admin },
    );
    expect(renewed.code, renewed.msg).toBe(0);
    expect(renewed.data).toMatchObject({ id: added.id, sn: key.sn });
    expect(renewed.data.secret).toMatch(/^[0-9a-f]{48}$/);
    expect(renewed.data.secret).not.toBe(added.secret);
    await closed;
    expect(await refusal(url, stationUsername(key), added.secret)).toBe(4);
    expect((await connect(url, key, renewed.data.secret)).client.connected).toBe(true);
    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'target', 'code'])
      .where('tenant_id', '=', tenant.id)
      .where('call', '=', '/mgr/ap/renewsecret')
      .execute();
    expect(ops.map((o) => o.code).sort()).toEqual([0, ErrorCode.FORBIDDEN]);
    expect(describeTarget(ops.find((o) => o.code === 0)?.target ?? '', 'en')).toBe(`base station ${key.sn}`);
    expect(JSON.stringify(ops)).not.toContain(renewed.data.secret);
    const other = await t().call('/mgr/ap/renewsecret', { id: added.id + 100_000 }, { token: tokens.admin });
    expect(other.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('hello → welcome and online; heartbeat figures in runtimelist; Will → offline, told after 10 s', async () => {
    const { key, added, tokens, notes, tenant } = await shopWithStation();
    const s = await online(delivery().url, key, added.secret);
    const welcome = s.down.find((d) => d.topic.endsWith('/down/welcome'))?.body;
    expect(welcome).toMatchObject({ v: 1, connId: s.connId, time: t().clock.now(), cfgRev: 0 });
    expect(notes).toContainEqual(expect.objectContaining({ type: 'station.status', id: added.id, online: true }));

    await s.send('heartbeat', heartbeat(t().clock.now() + 7000));
    await settle();
    expect(await runtime(tokens.manager, key.sn)).toMatchObject({
      online: true,
      ip: '10.1.2.3',
      mac: 'A4:C1:38:00:00:01',
      gateway: '10.1.2.1',
      mask: '255.255.255.0',
      ntpServer: 'ntp.example.com',
      firmware: '2.1.0',
      moduleFirmware: '0.9.3',
      cpu: 12.5,
      memory: 40,
      disk: 20,
      uptimeS: 3600,
      queueJobs: 7,
      queueBytes: 9000,
      radioBusyPct: 31.5,
      tagsHeard: 3,
      clockSkewMs: 7000,
      lastHeartbeat: t().clock.now(),
    });
    expect(notes).toContainEqual(expect.objectContaining({ type: 'station.runtime', id: added.id }));

    await s.abrupt();
    await vi.waitFor(async () => expect((await runtime(tokens.manager, key.sn))?.online).toBe(false));
    const told = () => notes.filter((n) => n.type === 'station.status' && n.online === false);
    t().clock.advance(5000);
    await delivery().gateway.tick();
    expect(told()).toEqual([]);
    t().clock.advance(6000);
    await delivery().gateway.tick();
    expect(told()).toHaveLength(1);
    await settle();
    expect((await sysLogs(t().app, tenant.id, 'station.offline')).length).toBe(1);
  });

  it('warns of a clock off by more than 5 s when a heartbeat crosses the line, once until it is back', async () => {
    const { key, added, tenant, tokens } = await shopWithStation();
    const s = await online(delivery().url, key, added.secret);
    const warnings = async () =>
      (await sysLogs(t().app, tenant.id, 'station.clock_skew')).map((r) => [r.level, r.message]);
    const beat = async (skewMs: number) => {
      t().clock.advance(60_000);
      await s.send('heartbeat', heartbeat(t().clock.now() + skewMs));
      await settle();
      expect((await runtime(tokens.manager, key.sn))?.clockSkewMs).toBe(skewMs);
    };
    await beat(4000);
    expect(await warnings()).toEqual([]);
    await beat(7000);
    expect(await warnings()).toEqual([['warn', `station ${key.sn}: its clock is 7 s ahead`]]);
    // Still off: not written again at every heartbeat.
    await beat(9000);
    await beat(12_000);
    expect(await warnings()).toHaveLength(1);
    // Back within 5 s, then off again the other way: a new row.
    await beat(-2000);
    await beat(-8000);
    expect(await warnings()).toEqual([
      ['warn', `station ${key.sn}: its clock is 7 s ahead`],
      ['warn', `station ${key.sn}: its clock is 8 s behind`],
    ]);
    await beat(-8000);
    expect(await warnings()).toHaveLength(2);
  });

  it('ignores the Will of an older connection that arrives after the reconnect', async () => {
    const { key, added, tokens, notes } = await shopWithStation();
    const url = delivery().url;
    const first = await online(url, key, added.secret);
    // A second connection with the same credentials takes over; the first one's Will may follow.
    const second = await online(url, key, added.secret);
    await settle();
    const stale = delivery().gateway.counters.staleWills;
    await delivery().port.publish(
      topics.status(key),
      encodeMessage('status', { v: 1, online: false, connId: first.connId, at: 1 }),
      { retain: true },
    );
    await settle();
    expect(delivery().gateway.counters.staleWills).toBe(stale + 1);
    expect((await runtime(tokens.manager, key.sn))?.online).toBe(true);
    t().clock.advance(20_000);
    await delivery().gateway.tick();
    expect(notes.filter((n) => n.type === 'station.status' && n.online === false)).toEqual([]);
    // The current connection's own Will still counts.
    await second.abrupt();
    await vi.waitFor(async () => expect((await runtime(tokens.manager, key.sn))?.online).toBe(false));
  });

  it('logs each new connection once, also one the row already held as online; not a status repeated', async () => {
    const { key, added, tenant } = await shopWithStation();
    const url = delivery().url;
    const lines = async () => (await sysLogs(t().app, tenant.id, 'station.online')).map((r) => r.message);
    const first = await online(url, key, added.secret);
    expect(await lines()).toEqual([`station ${key.sn} online (connected)`]);
    // The same connection's status again (a broker handing out the retained one): nothing new,
    // with the clock past the damper's window so damping cannot hide a second row.
    t().clock.advance(61_000);
    await first.send('status', { v: 1, online: true, connId: first.connId, at: t().clock.now() });
    await settle();
    expect(await lines()).toHaveLength(1);
    // The row as a restarted server finds it: online, holding a connection of its last run that
    // went unseen. The station's new connection is written, as a reconnection.
    await first.client.endAsync();
    await settle();
    await t()
      .app.services.db.updateTable('stations')
      .set({ online: 1, conn_id: 'lastrun' })
      .where('id', '=', added.id)
      .execute();
    await online(url, key, added.secret);
    expect(await lines()).toEqual([`station ${key.sn} online (connected)`, `station ${key.sn} online (reconnected)`]);
  });

  it('marks a station offline after 3 missed heartbeats, not before, and back online at the next', async () => {
    const { key, added, tokens } = await shopWithStation();
    const s = await online(delivery().url, key, added.secret);
    t().clock.advance(170_000);
    await delivery().gateway.tick();
    expect((await runtime(tokens.manager, key.sn))?.online).toBe(true);
    t().clock.advance(11_000);
    await delivery().gateway.tick();
    expect((await runtime(tokens.manager, key.sn))?.online).toBe(false);
    await s.send('heartbeat', heartbeat(t().clock.now()));
    await settle();
    expect((await runtime(tokens.manager, key.sn))?.online).toBe(true);
  });

  it('flapping: more than 5 changes in 5 minutes writes one station.flapping row', async () => {
    const { key, added, tenant } = await shopWithStation();
    for (let i = 0; i < 4; i++) {
      const s = await online(delivery().url, key, added.secret);
      await s.abrupt();
      await vi.waitFor(async () => {
        await settle();
        expect(
          Number(
            (
              await t()
                .app.services.db.selectFrom('stations')
                .select('online')
                .where('id', '=', added.id)
                .executeTakeFirstOrThrow()
            ).online,
          ),
        ).toBe(0);
      });
      t().clock.advance(2000);
    }
    await settle();
    expect(await sysLogs(t().app, tenant.id, 'station.flapping')).toHaveLength(1);
  });

  it('stores tag reports of its own store; other tenants’ and stores’ tags are dropped and counted', async () => {
    const shop = await shopWithStation();
    const { key, added, tokens, tenant, store, otherStore } = shop;
    const other = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const mine = await buildTag(t().app, at);
    const elsewhere = await buildTag(t().app, { tenantId: tenant.id, storeId: otherStore.id });
    const foreign = await buildTag(t().app, { tenantId: other.tenant.id, storeId: other.store.id });
    const before = await t()
      .app.services.db.selectFrom('tags')
      .selectAll()
      .where('id', 'in', [elsewhere.id, foreign.id])
      .orderBy('id')
      .execute();
    const s = await online(delivery().url, key, added.secret);
    const now = t().clock.now();
    const entry = (id: string) => ({
      id,
      rssi: -61.4,
      battMv: 2800,
      temp: 21.6,
      ver: '0123456789abcdef',
      fw: '1.2',
      hw: '05',
      wakeS: 40,
      seenAt: now - 5000,
    });
    const dropped = delivery().gateway.counters.dropped.foreignTag;
    await s.send('tags', {
      v: 1,
      seq: 0,
      at: now,
      full: true,
      tags: [entry(mine.hardware_id), entry(elsewhere.hardware_id), entry(foreign.hardware_id), entry('FFFFFFFFFFFF')],
    });
    await settle();
    expect(delivery().gateway.counters.dropped.foreignTag).toBe(dropped + 2);
    expect(delivery().gateway.counters.byStation.get(stationUsername(key))).toEqual({ foreignTag: 2 });
    const after = await t()
      .app.services.db.selectFrom('tags')
      .selectAll()
      .where('id', 'in', [elsewhere.id, foreign.id])
      .orderBy('id')
      .execute();
    // The other store's tag of the same tenant keeps only where it was heard (the problems page
    // shows it as a tag in the wrong store); the other tenant's tag is untouched.
    const station = await t()
      .app.services.db.selectFrom('stations')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .where('sn', '=', added.sn)
      .executeTakeFirstOrThrow();
    expect(after).toEqual([
      { ...before[0], foreign_station_id: station.id, foreign_seen_at: expect.any(Number) },
      before[1],
    ]);
    expect(after[0]?.foreign_seen_at).toBeGreaterThanOrEqual(now);

    const list = await t().call<Tag[]>('/mgr/tag/list', {}, { token: tokens.admin });
    const tag = list.data.find((x) => x.id === mine.id);
    expect(tag).toMatchObject({
      status: 'normal',
      signal: -61,
      battery: 75,
      temperature: 22,
      stationSn: key.sn,
      lastSeen: now - 5000,
    });
    expect(tag?.hardwareModel).not.toBe('');

    // Status as time passes (sweeper every minute): silent past 3 wakes → interrupted; its
    // station gone → disconnected; after 24 h → lost.
    const status = async () =>
      (
        await t()
          .app.services.db.selectFrom('tags')
          .select('status')
          .where('id', '=', mine.id)
          .executeTakeFirstOrThrow()
      ).status;
    t().clock.advance(60_000);
    await delivery().gateway.tick();
    expect(await status()).toBe('normal');
    t().clock.advance(61_000);
    await delivery().gateway.tick();
    expect(await status()).toBe('interrupted');
    await s.abrupt();
    await vi.waitFor(async () => {
      await settle();
      expect((await runtime(tokens.manager, key.sn))?.online).toBe(false);
    });
    t().clock.advance(61_000);
    await delivery().gateway.tick();
    expect(await status()).toBe('disconnected');
    t().clock.advance(24 * 3_600_000);
    await delivery().gateway.tick();
    expect(await status()).toBe('lost');
  });

  it('sets each reported tag’s status by the whole rule: picture, wake allowance, the row’s own wake interval', async () => {
    const { key, added, tenant, store } = await shopWithStation();
    const at = { tenantId: tenant.id, storeId: store.id };
    const db = t().app.services.db;
    const [same, other, late, slow, fresh] = await Promise.all([1, 2, 3, 4, 5].map(() => buildTag(t().app, at)));
    const ver = '0123456789abcdef';
    await db
      .updateTable('tags')
      .set({ desired_hash: `${ver}0000` })
      .where('id', 'in', [same.id, other.id])
      .execute();
    // A tag that told its 600 s wake interval before and does not repeat it now.
    await db.updateTable('tags').set({ wake_s: 600 }).where('id', '=', slow.id).execute();
    const s = await online(delivery().url, key, added.secret);
    const now = t().clock.now();
    const entry = (id: string, v: string | null, ageMs: number, wakeS?: number) => ({
      id,
      rssi: -60,
      battMv: 2900,
      ver: v,
      hw: '05',
      seenAt: now - ageMs,
      ...(wakeS ? { wakeS } : {}),
    });
    await s.send('tags', {
      v: 1,
      seq: 0,
      at: now,
      full: true,
      tags: [
        entry(same.hardware_id, ver, 1000, 40),
        entry(other.hardware_id, 'fedcba9876543210', 1000, 40),
        // Heard 10 minutes ago with a 40 s wake: past 3 wakes, not yet offline.
        entry(late.hardware_id, null, 10 * 60_000, 40),
        // 5 minutes ago: within 3 × the row's 600 s, past 3 × the store's default 30 s.
        entry(slow.hardware_id, null, 5 * 60_000),
        entry(fresh.hardware_id, null, 1000),
      ],
    });
    await settle();
    const rows = await db
      .selectFrom('tags')
      .select(['id', 'status'])
      .where('id', 'in', [same.id, other.id, late.id, slow.id, fresh.id])
      .execute();
    const statusOf = new Map(rows.map((r) => [r.id, r.status]));
    expect([same, other, late, slow, fresh].map((x) => statusOf.get(x.id))).toEqual([
      'normal',
      'online',
      'interrupted',
      'normal',
      'normal',
    ]);

    // A render that came between the lookup and the store: the row wants another picture now.
    // The handler decided from the old facts ('normal', nothing pending); the guard sees the
    // change and the whole rule runs instead.
    await db.updateTable('tags').set({ desired_hash: 'aaaaaaaaaaaaaaaa0000' }).where('id', '=', fresh.id).execute();
    const update: repo.TagUpdate = {
      id: fresh.id,
      stationId: added.id,
      signal: -60,
      battery: 90,
      temperature: null,
      hardwareModel: '',
      lastSeen: now,
      wakeS: 40,
      wakeSBefore: 40,
      desiredBefore: null,
      statusBefore: 'normal',
      shownVer: null,
      shownPage: 1,
      fw: null,
      stationChanged: false,
    };
    await repo.storeTagReport(db, [update], now, thresholdsFromJson(null));
    const after = await db
      .selectFrom('tags')
      .select(['status', 'battery'])
      .where('id', '=', fresh.id)
      .executeTakeFirst();
    expect(after).toEqual({ status: 'online', battery: 90 });
  });

  it('writes a button or NFC wake-up as a system-log event of the tenant, once per wake', async () => {
    const { key, added, tenant, store } = await shopWithStation();
    const at = { tenantId: tenant.id, storeId: store.id };
    const [pressed, touched] = await Promise.all([buildTag(t().app, at), buildTag(t().app, at)]);
    const s = await online(delivery().url, key, added.secret);
    const entry = (id: string, seenAt: number, reason: 'timer' | 'button' | 'nfc') => ({
      id,
      rssi: -60,
      battMv: 2900,
      ver: null,
      hw: '05',
      wakeS: 40,
      seenAt,
      reason,
    });
    let seq = 0;
    const report = async (...tags: ReturnType<typeof entry>[]) => {
      const now = t().clock.now();
      await s.send('tags', { v: 1, seq: seq++, at: now, full: false, tags });
      await settle();
    };
    const events = async () =>
      (
        await t()
          .app.services.db.selectFrom('sys_logs')
          .select(['event', 'level', 'message'])
          .where('tenant_id', '=', tenant.id)
          .where('event', 'in', ['tag.button', 'tag.nfc'])
          .orderBy('id')
          .execute()
      ).map((r) => [r.event, r.level, r.message]);
    const press = t().clock.now() - 1000;
    await report(entry(pressed.hardware_id, press, 'button'), entry(touched.hardware_id, press - 40_000, 'timer'));
    const button = ['tag.button', 'info', `tag ${pressed.hardware_id} woke by its button (station ${key.sn})`];
    expect(await events()).toEqual([button]);
    // The same press again in later reports (its time off by the station's rounding; the record of
    // the transfer the press let the tag take): not a new event. Past the system log's own 60 s
    // damping, so only the once-per-wake rule keeps them out.
    t().clock.advance(5 * 60_000);
    await report(entry(pressed.hardware_id, press + 900, 'button'));
    await report(entry(pressed.hardware_id, press + 12_000, 'button'));
    expect(await events()).toEqual([button]);
    // An NFC wake-up of the other tag, then a second press: each its own event.
    await report(entry(touched.hardware_id, t().clock.now() - 500, 'nfc'));
    t().clock.advance(2 * 60_000);
    await report(entry(pressed.hardware_id, t().clock.now() - 500, 'button'));
    await report(entry(touched.hardware_id, t().clock.now(), 'timer'));
    expect(await events()).toEqual([
      button,
      ['tag.nfc', 'info', `tag ${touched.hardware_id} woke by NFC (station ${key.sn})`],
      button,
    ]);
  });

  it('routes a tag to the station that hears it best, with 6 dB of hysteresis', async () => {
    const { key, added, tokens, tenant, store } = await shopWithStation();
    const second = await t().call<AddStationData>('/mgr/ap/add', { sn: `AP${++connSeq}` }, { token: tokens.admin });
    expect(second.code, second.msg).toBe(0);
    const a = await online(delivery().url, key, added.secret);
    const b = await online(delivery().url, { tenantId: tenant.id, sn: second.data.sn }, second.data.secret);
    const tag = await buildTag(t().app, { tenantId: tenant.id, storeId: store.id });
    const ids = await t()
      .app.services.db.selectFrom('stations')
      .select(['id', 'sn'])
      .where('sn', 'in', [key.sn, second.data.sn])
      .execute();
    const idOf = (sn: string) => ids.find((r) => r.sn === sn)?.id;
    const report = async (s: typeof a, rssi: number) => {
      const now = t().clock.now();
      await s.send('tags', {
        v: 1,
        seq: 0,
        at: now,
        full: false,
        tags: [{ id: tag.hardware_id, rssi, battMv: 2800, ver: '0123456789abcdef', hw: '05', wakeS: 40, seenAt: now }],
      });
      await settle();
      return t()
        .app.services.db.selectFrom('tags')
        .select(['station_id', 'signal', 'last_seen'])
        .where('id', '=', tag.id)
        .executeTakeFirstOrThrow();
    };
    expect(await report(a, -70)).toMatchObject({ station_id: idOf(key.sn), signal: -70 });
    // 4 dB better at the other station: not enough to move; the signal kept is the route's.
    t().clock.advance(1000);
    const kept = await report(b, -66);
    expect(kept).toMatchObject({ station_id: idOf(key.sn), signal: -70 });
    expect(kept.last_seen).toBe(t().clock.now());
    // 10 dB better: moved, with the new station's signal.
    t().clock.advance(1000);
    expect(await report(b, -60)).toMatchObject({ station_id: idOf(second.data.sn), signal: -60 });
    // The first station hears it slightly better again: it stays where it is.
    t().clock.advance(1000);
    expect(await report(a, -58)).toMatchObject({ station_id: idOf(second.data.sn), signal: -60 });
    // The station it is routed to reports a weaker signal: stored, still routed there.
    t().clock.advance(1000);
    expect(await report(b, -75)).toMatchObject({ station_id: idOf(second.data.sn), signal: -75 });
  });

  it('drops malformed input (bad JSON, wrong version, invalid, 10 MB), counts it, and stays up', async () => {
    const { key, added, tokens } = await shopWithStation();
    const s = await online(delivery().url, key, added.secret);
    await s.send('heartbeat', heartbeat(t().clock.now(), 10));
    await settle();
    const counts = { ...delivery().gateway.counters.dropped };
    const hb = `${stationRoot(key)}/up/heartbeat`;
    await s.client.publishAsync(hb, '{not json', { qos: 1 });
    await s.client.publishAsync(hb, JSON.stringify({ ...heartbeat(1, 99), v: 2 }), { qos: 1 });
    await s.client.publishAsync(hb, JSON.stringify({ ...heartbeat(1, 99), cpu: 'lots' }), { qos: 1 });
    // Through the server's port, as an external broker would deliver it: refused by size.
    await delivery().port.publish(hb, Buffer.alloc(10 * 1024 * 1024, 0x20));
    await settle();
    const d = delivery().gateway.counters.dropped;
    expect([d.badJson - counts.badJson, d.badVersion - counts.badVersion, d.invalid - counts.invalid]).toEqual([
      1, 1, 1,
    ]);
    expect(d.tooLarge - counts.tooLarge).toBe(1);
    expect((await runtime(tokens.manager, key.sn))?.cpu).toBe(10);

    // On the embedded broker a 10 MB packet closes the connection before it is read.
    const closed = new Promise<void>((resolve) => s.client.once('close', () => resolve()));
    s.client.publish(hb, Buffer.alloc(10 * 1024 * 1024, 0x20), { qos: 0 });
    await closed;
    await settle();
    expect((await sysLogs(t().app, key.tenantId, 'station.packet_too_large')).length).toBe(1);
    const again = await online(delivery().url, key, added.secret);
    await again.send('heartbeat', heartbeat(t().clock.now(), 11));
    await settle();
    expect((await runtime(tokens.manager, key.sn))?.cpu).toBe(11);
  });

  it('keeps tenants apart: a station cannot subscribe to or receive another tenant’s topics', async () => {
    const a = await shopWithStation();
    const b = await shopWithStation();
    const sa = await online(delivery().url, a.key, a.added.secret);
    const sb = await online(delivery().url, b.key, b.added.secret);
    const granted = await sb.client
      .subscribeAsync(topics.downFilter(a.key), { qos: 1 })
      .then((g) => g.map((x) => x.qos))
      .catch((err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? []);
    expect(granted).toEqual([128]);
    await sb.send('heartbeat', heartbeat(t().clock.now()));
    // A publishes into B's prefix: refused (the broker closes A's connection), nothing of B changes.
    const closed = new Promise<void>((resolve) => sa.client.once('close', () => resolve()));
    sa.client.publish(`${stationRoot(b.key)}/up/heartbeat`, encodeMessage('heartbeat', heartbeat(1, 77)), { qos: 1 });
    await closed;
    await settle();
    expect((await runtime(b.tokens.manager, b.key.sn))?.cpu).toBe(12.5);
    expect(sb.down.every((d) => d.topic.startsWith(`${stationRoot(b.key)}/`))).toBe(true);
    expect(sa.down.every((d) => d.topic.startsWith(`${stationRoot(a.key)}/`))).toBe(true);
    expect((await sysLogs(t().app, a.key.tenantId, 'station.publish_denied')).length).toBe(1);
  });
});
