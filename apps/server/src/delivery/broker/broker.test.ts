import { createHash } from 'node:crypto';
import { type StationKey, stationUsername, topics } from '@esl/contract/protocol';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessPort } from '../mqtt/inprocess';
import type { MqttMessage, MqttPort } from '../mqtt/port';
import { type BrokerLimits, createStationBroker, type StationBroker } from './broker';
import type { StationDirectory } from './directory';
import type { BrokerEvent } from './events';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const A1: StationKey = { tenantId: 1, sn: 'AP1' };
const A2: StationKey = { tenantId: 1, sn: 'AP2' };
const B1: StationKey = { tenantId: 2, sn: 'AP1' }; // same serial, other tenant
const secrets = new Map([
  ['1.AP1', 'secret-a1'],
  ['1.AP2', 'secret-a2'],
  ['2.AP1', 'secret-b1'],
]);

/** A map standing in for the stations table; counts lookups. */
function fakeDirectory(): StationDirectory & { lookups: number } {
  return {
    lookups: 0,
    async secretHash(tenantId, sn) {
      this.lookups++;
      const secret = secrets.get(`${tenantId}.${sn}`);
      return secret ? sha(secret) : null;
    },
  };
}

/** Collects values and lets a test wait for one that matches, without sleeping. */
function collector<T>() {
  const items: T[] = [];
  const waiters: Array<{ pred: (t: T) => boolean; resolve: (t: T) => void }> = [];
  return {
    items,
    push(t: T) {
      items.push(t);
      for (const w of [...waiters]) {
        if (w.pred(t)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(t);
        }
      }
    },
    wait(pred: (t: T) => boolean): Promise<T> {
      const found = items.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}

let broker: StationBroker;
let url: string;
let directory: ReturnType<typeof fakeDirectory>;
let events: ReturnType<typeof collector<BrokerEvent>>;
let server: MqttPort;
let upstream: ReturnType<typeof collector<MqttMessage>>;
let clock = 1_000_000;
const open: MqttClient[] = [];

async function stop() {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
  await server?.close();
  await broker?.close();
}

/** A fresh broker (closing the last one) with these limits. */
async function start(limits: Partial<BrokerLimits> = {}) {
  await stop();
  directory = fakeDirectory();
  events = collector<BrokerEvent>();
  broker = await createStationBroker({ directory, onEvent: (e) => events.push(e), now: () => clock, limits });
  const address = await broker.listen({ port: 0, host: '127.0.0.1' });
  url = `mqtt://127.0.0.1:${address.port}`;
  server = inProcessPort(broker.aedes);
  upstream = collector<MqttMessage>();
  await server.subscribe(topics.serverUpFilter, (m) => upstream.push(m));
  await server.subscribe(topics.serverStatusFilter, (m) => upstream.push(m));
}

async function connect(username: string, password: string, extra: Partial<IClientOptions> = {}): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    clientId: username,
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
  open.push(client);
  return client;
}

const station = (key: StationKey, extra: Partial<IClientOptions> = {}) =>
  connect(stationUsername(key), secrets.get(stationUsername(key)) ?? '', extra);

/** The CONNACK return code of a refused login. */
async function refusedWith(username: string, password: string, extra: Partial<IClientOptions> = {}): Promise<number> {
  try {
    await connect(username, password, extra);
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
  throw new Error(`${username} was let in`);
}

/** SUBACK return codes (mqtt.js rejects when any is 0x80; the codes are on the error). */
async function subscribeCodes(client: MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((g) => g.qos);
  } catch (err) {
    const granted = (err as { packet?: { granted?: number[] } }).packet?.granted;
    if (!granted) throw err;
    return granted;
  }
}

const closed = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

beforeEach(async () => {
  clock = 1_000_000;
  await start();
});
afterEach(stop);

describe('station login', () => {
  it('lets a station in with its own secret and reports the connect', async () => {
    const c = await station(A1);
    expect(c.connected).toBe(true);
    const e = await events.wait((e) => e.type === 'station.connected');
    expect(e).toMatchObject({ station: A1, address: '127.0.0.1' });
    await c.publishAsync(topics.up(A1, 'hello'), '{"v":1}', { qos: 1 });
    expect((await upstream.wait((m) => m.topic === topics.up(A1, 'hello'))).payload.toString()).toBe('{"v":1}');
  });

  it('refuses a wrong secret and an unknown station, and reports both', async () => {
    expect(await refusedWith('1.AP1', 'secret-a2')).toBe(4);
    expect(await refusedWith('1.AP9', 'secret-a1')).toBe(4);
    // Another station's username with this station's secret: still the wrong secret.
    expect(await refusedWith('1.AP2', 'secret-a1')).toBe(4);
    const failures = events.items.filter((e) => e.type === 'station.auth_failed');
    expect(failures.map((e) => e.type === 'station.auth_failed' && [e.reason, e.username])).toEqual([
      ['badSecret', '1.AP1'],
      ['unknownStation', '1.AP9'],
      ['badSecret', '1.AP2'],
    ]);
  });

  it('speaks MQTT 3.1.1 and answers an MQTT 5 CONNECT "unacceptable protocol version", as PROTOCOL.md §2 says', async () => {
    expect((await station(A1, { protocolVersion: 4 })).connected).toBe(true);
    expect(await refusedWith('1.AP2', 'secret-a2', { protocolVersion: 5 })).toBe(1);
    expect(directory.lookups).toBe(1); // refused before its login is looked at
  });

  it('answers keepalive 0 or over 120 s "identifier rejected" (a code MQTT 3.1.1 has)', async () => {
    expect(await refusedWith('1.AP1', 'secret-a1', { keepalive: 0 })).toBe(2);
    expect(await refusedWith('1.AP1', 'secret-a1', { keepalive: 121 })).toBe(2);
    expect((await station(A1, { keepalive: 120 })).connected).toBe(true);
  });

  it('refuses a client id other than the username, even with the right secret', async () => {
    expect(await refusedWith('1.AP1', 'secret-a1', { clientId: '1.AP2' })).toBe(5);
    expect(await refusedWith('1.AP1', 'secret-a1', { clientId: 'anything' })).toBe(5);
    expect(events.items.filter((e) => e.type === 'station.auth_failed').map((e) => 'reason' in e && e.reason)).toEqual([
      'clientIdMismatch',
      'clientIdMismatch',
    ]);
    expect(directory.lookups).toBe(0);
  });

  it('refuses usernames with +, # or / (and other non-station names) without a lookup', async () => {
    for (const u of ['1.+', '1.#', '1/AP1', '+.AP1', '#', '1.AP1/#', '1.ap1', '01.AP1', 'admin']) {
      expect(await refusedWith(u, 'secret-a1'), u).toBe(5);
    }
    expect(directory.lookups).toBe(0);
    const reasons = events.items.map((e) => e.type === 'station.auth_failed' && e.reason);
    expect(reasons).toEqual(Array(9).fill('badUsername'));
  });

  it('makes a username from one address wait after 3 failures, growing to 5 minutes, never locked', async () => {
    for (let i = 0; i < 4; i++) expect(await refusedWith('1.AP1', 'guess')).toBe(4);
    const waits = events.items.filter((e) => e.type === 'station.auth_failed' && e.lockout);
    expect(waits).toHaveLength(1);
    // Waiting: refused without a lookup, even with the right secret (this pair has no usual address yet).
    const lookups = directory.lookups;
    expect(await refusedWith('1.AP1', 'secret-a1')).toBe(5);
    expect(directory.lookups).toBe(lookups);
    // Another station from the same address is not affected by this pair's wait.
    await station(A2);
    clock += 1000; // the first wait: 1 s
    expect(await refusedWith('1.AP1', 'guess')).toBe(4);
    expect(await refusedWith('1.AP1', 'secret-a1')).toBe(5);
    clock += 2000; // the second: 2 s
    for (let i = 0; i < 20; i++) {
      expect(await refusedWith('1.AP1', 'guess')).toBe(4);
      clock += 5 * 60_000; // never longer than 5 minutes
    }
    expect((await station(A1)).connected).toBe(true);
  });

  it('makes an address wait after 20 failures for any username', async () => {
    for (let i = 0; i < 21; i++) expect(await refusedWith(`1.X${i}`, 'guess')).toBe(4);
    expect(await refusedWith('1.AP1', 'secret-a1')).toBe(5);
    const lookups = directory.lookups;
    expect(await refusedWith('1.AP1', 'secret-a1')).toBe(5);
    expect(directory.lookups).toBe(lookups); // refused before any lookup
    clock += 1000;
    expect((await station(A1)).connected).toBe(true);
  });

  it('reports a second connection with the same credentials and closes the first', async () => {
    const first = await station(A1);
    const gone = closed(first);
    await station(A1);
    await gone;
    expect(await events.wait((e) => e.type === 'station.takeover')).toMatchObject({ station: A1 });
  });
});

describe('station ACL', () => {
  it('lets a station publish its own up/… and retained status', async () => {
    const c = await station(A1);
    await c.publishAsync(topics.status(A1), 'on', { qos: 1, retain: true });
    await c.publishAsync(topics.up(A1, 'heartbeat'), 'hb', { qos: 0 });
    await upstream.wait((m) => m.topic === topics.up(A1, 'heartbeat'));
    expect(upstream.items.map((m) => m.topic)).toEqual([topics.status(A1), topics.up(A1, 'heartbeat')]);
    expect(events.items.filter((e) => e.type.endsWith('_denied'))).toEqual([]);
  });

  it.each([
    ['another station of its tenant', topics.up(A2, 'hello'), {}, 'foreignTopic'],
    ['the same serial in another tenant', topics.up(B1, 'hello'), {}, 'foreignTopic'],
    ['its own down topics', topics.down(A1, 'jobs'), {}, 'notAStationTopic'],
    ['server topics', topics.serverNudge, {}, 'notAStationTopic'],
    ['outside the protocol', 'hello/world', {}, 'notAStationTopic'],
    ['a retained up message', topics.up(A1, 'hello'), { retain: true }, 'retain'],
  ] as const)('closes the connection of a station publishing to %s and reports it', async (_, topic, flags, reason) => {
    const c = await station(A1);
    const gone = closed(c);
    c.publish(topic, 'x', { qos: 1, ...flags });
    await gone;
    expect(await events.wait((e) => e.type === 'station.publish_denied')).toMatchObject({ station: A1, topic, reason });
    // Nothing of it reached the server: a later message of a good station arrives alone.
    const other = await station(A2);
    await other.publishAsync(topics.up(A2, 'ack'), 'marker', { qos: 1 });
    await upstream.wait((m) => m.payload.toString() === 'marker');
    expect(upstream.items.map((m) => m.payload.toString())).toEqual(['marker']);
  });

  it('refuses subscriptions outside its own down/ and reports each; its own down/# is granted', async () => {
    const c = await station(A1);
    const refused = [
      '#',
      'esl/v1/#',
      'esl/v1/+/+/up/#',
      'esl/v1/1/AP2/down/#',
      'esl/v1/+/AP1/down/#',
      'esl/v1/2/AP1/down/#',
      'esl/v1/1/+/down/#',
      'esl/v1/1/AP1/up/#',
      'esl/v1/1/AP1/status',
      '$SYS/#',
    ];
    expect(await subscribeCodes(c, refused)).toEqual(refused.map(() => 128));
    expect(await subscribeCodes(c, [topics.downFilter(A1)])).toEqual([1]);
    expect(c.connected).toBe(true);
    const denied = events.items.filter((e) => e.type === 'station.subscribe_denied');
    expect(denied.map((e) => 'topic' in e && e.topic)).toEqual(refused);
  });

  it('never shows a station of tenant A a message of tenant B', async () => {
    const a = await station(A1);
    const b = await station(B1);
    const gotA = collector<string>();
    const gotB = collector<string>();
    a.on('message', (topic, payload) => gotA.push(`${topic} ${payload}`));
    b.on('message', (topic, payload) => gotB.push(`${topic} ${payload}`));
    await a.subscribeAsync(topics.downFilter(A1), { qos: 1 });
    await b.subscribeAsync(topics.downFilter(B1), { qos: 1 });
    // B tries to read A's topics every way it can; each is refused.
    const tries = ['esl/v1/1/AP1/down/#', 'esl/v1/+/AP1/down/#', 'esl/v1/+/+/status', 'esl/v1/1/AP1/status'];
    expect(await subscribeCodes(b, tries)).toEqual([128, 128, 128, 128]);
    // A's retained status and the server's messages to A reach A only.
    await a.publishAsync(topics.status(A1), 'A online', { qos: 1, retain: true });
    await server.publish(topics.down(A1, 'jobs'), 'for A');
    await server.publish(topics.down(B1, 'jobs'), 'for B');
    await gotA.wait((s) => s.endsWith('for A'));
    await gotB.wait((s) => s.endsWith('for B'));
    await server.publish(topics.down(A1, 'time'), 'A again');
    await server.publish(topics.down(B1, 'time'), 'B again');
    await gotA.wait((s) => s.endsWith('A again'));
    await gotB.wait((s) => s.endsWith('B again'));
    expect(gotA.items).toEqual([`${topics.down(A1, 'jobs')} for A`, `${topics.down(A1, 'time')} A again`]);
    expect(gotB.items).toEqual([`${topics.down(B1, 'jobs')} for B`, `${topics.down(B1, 'time')} B again`]);
    // B's credentials do not open A's account.
    expect(await refusedWith('1.AP1', 'secret-b1')).toBe(4);
  });
});

describe('station connections', () => {
  it('publishes the Last Will on an abrupt loss, and only onto the station’s own status', async () => {
    const will = { topic: topics.status(A1), payload: Buffer.from('{"online":false}'), qos: 1 as const, retain: true };
    const c = await station(A1, { will });
    c.stream.destroy();
    const got = await upstream.wait((m) => m.topic === topics.status(A1));
    expect(got.payload.toString()).toBe('{"online":false}');
    // A Will aimed at another station's status is not published.
    const sneaky = await station(A2, { will: { ...will, topic: topics.status(B1), payload: Buffer.from('fake') } });
    sneaky.stream.destroy();
    await events.wait((e) => e.type === 'station.publish_denied' && e.topic === topics.status(B1));
    expect(upstream.items.some((m) => m.payload.toString() === 'fake')).toBe(false);
  });

  it('closes a connection announcing a packet over 512 KiB before reading it, and reports it', async () => {
    const c = await station(A1);
    const gone = closed(c);
    c.publish(topics.up(A1, 'tags'), Buffer.alloc(10 * 1024 * 1024, 0x20), { qos: 0 });
    await gone;
    const e = await events.wait((e) => e.type === 'station.packet_too_large');
    expect(e).toMatchObject({ station: A1 });
    expect('bytes' in e && e.bytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('refuses a payload over 256 KiB that fits the packet limit', async () => {
    const c = await station(A1);
    const gone = closed(c);
    c.publish(topics.up(A1, 'tags'), Buffer.alloc(300 * 1024, 0x20), { qos: 1 });
    await gone;
    expect(await events.wait((e) => e.type === 'station.packet_too_large')).toMatchObject({
      station: A1,
      bytes: 300 * 1024,
    });
    expect(upstream.items).toEqual([]);
  });

  it('closes a station that publishes beyond its budget', async () => {
    await start({ publishBurst: 5, publishPerS: 0 });
    const c = await station(A1);
    for (let i = 0; i < 5; i++) await c.publishAsync(topics.up(A1, 'ack'), `m${i}`, { qos: 1 });
    const gone = closed(c);
    c.publish(topics.up(A1, 'ack'), 'one too many', { qos: 1 });
    await gone;
    expect(await events.wait((e) => e.type === 'station.rate_limited')).toMatchObject({ station: A1 });
    expect(upstream.items.map((m) => m.payload.toString())).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });
});
