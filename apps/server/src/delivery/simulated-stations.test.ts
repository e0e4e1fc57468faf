import { createHash } from 'node:crypto';
import { findTagModel } from '@esl/contract';
import {
  decodeMessage,
  encodeMessage,
  type Message,
  type MessageName,
  messageForPath,
  parseTopic,
  type StationKey,
  topics,
} from '@esl/contract/protocol';
import { encodeTagImage } from '@esl/labels';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStationBroker, type StationBroker } from './broker/broker';
import type { BrokerEvent } from './broker/events';
import { inProcessPort } from './mqtt/inprocess';
import type { MqttPort } from './mqtt/port';

// The simulator's stations against the real embedded broker, seen from the server's side of the
// MQTT port: every message a station sends must pass the contract's schema here.

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const T0 = Date.UTC(2026, 0, 1);
const A: StationKey = { tenantId: 1, sn: 'AP1' };
const B: StationKey = { tenantId: 2, sn: 'AP1' };
const secrets: Record<string, string> = { '1.AP1': 'a-secret', '2.AP1': 'b-secret', '1.AP2': 'right' };

interface Seen {
  station: string;
  name: MessageName;
  message: unknown;
  retain: boolean;
}

let broker: StationBroker;
let server: MqttPort;
let sim: Simulator;
const seen: Seen[] = [];
const invalid: string[] = [];
const events: BrokerEvent[] = [];

const of = <K extends MessageName>(key: StationKey, name: K) =>
  seen.filter((s) => s.station === `${key.tenantId}.${key.sn}` && s.name === name).map((s) => s.message as Message<K>);

beforeAll(async () => {
  broker = await createStationBroker({
    directory: {
      async secretHash(tenantId, sn) {
        const s = secrets[`${tenantId}.${sn}`];
        return s ? sha(s) : null;
      },
    },
    onEvent: (e) => events.push(e),
  });
  const { port } = await broker.listen({ port: 0, host: '127.0.0.1' });
  server = inProcessPort(broker.aedes);
  const receive = (topic: string, payload: Buffer, retain: boolean) => {
    const t = parseTopic(topic);
    const name = t && (t.kind === 'status' ? 'status' : t.kind === 'up' ? messageForPath(`up/${t.name}`) : undefined);
    if (!t || !name) return invalid.push(topic);
    const decoded = decodeMessage(name, payload);
    if (!decoded.ok) return invalid.push(`${topic}: ${decoded.error} ${decoded.detail}`);
    seen.push({ station: `${t.tenantId}.${t.sn}`, name, message: decoded.message, retain });
  };
  await server.subscribe(topics.serverUpFilter, (m) => receive(m.topic, m.payload, m.retain));
  await server.subscribe(topics.serverStatusFilter, (m) => receive(m.topic, m.payload, m.retain));
  sim = await startSimulator({
    url: `mqtt://127.0.0.1:${port}`,
    stations: [
      { ...A, secret: 'a-secret' },
      { ...B, secret: 'b-secret' },
      { tenantId: 1, sn: 'AP2', secret: 'wrong' },
    ],
    tagsPerStation: 3,
    models: [['05', 1]],
    speed: 0,
    seed: 'integration',
    start: T0,
  });
});

afterAll(async () => {
  await sim?.stop();
  await server?.close();
  await broker?.close();
});

describe('simulated stations on the embedded broker', () => {
  it('connect with their secrets: retained status, then hello', async () => {
    await sim.waitFor(() => of(A, 'hello').length === 1 && of(B, 'hello').length === 1, { what: 'two hellos' });
    for (const key of [A, B]) {
      const [status] = of(key, 'status');
      const [hello] = of(key, 'hello');
      expect(status).toMatchObject({ online: true });
      expect(hello.connId).toBe(status.connId);
      expect(hello.queue).toEqual([]);
      expect(hello.caps.kinds).toContain('image');
      expect(hello.radio).toMatchObject({ profile: 'oepl-2g4', kbps: 250 });
    }
    // The station with a wrong secret is refused, reported, and never says hello.
    expect(sim.station('AP2').isConnected).toBe(false);
    expect(
      events.some((e) => e.type === 'station.auth_failed' && e.username === '1.AP2' && e.reason === 'badSecret'),
    ).toBe(true);
    expect(seen.some((s) => s.station === '1.AP2')).toBe(false);
  });

  it('report their tags and heartbeat as virtual time passes', async () => {
    for (const key of [A, B]) {
      const [hello] = of(key, 'hello');
      await server.publish(
        topics.down(key, 'welcome'),
        encodeMessage('welcome', { v: 1, connId: hello.connId, time: T0, cfgRev: 0 }),
      );
    }
    await sim.waitFor(() => sim.station('AP1', 1).isWelcomed && sim.station('AP1', 2).isWelcomed, { what: 'welcome' });
    await sim.clock.advance(60_000);
    await sim.waitFor(() => of(A, 'heartbeat').length === 1 && of(B, 'heartbeat').length === 1, { what: 'heartbeats' });
    for (const key of [A, B]) {
      const [hb] = of(key, 'heartbeat');
      expect(hb.at).toBe(T0 + 60_000);
      expect(hb.uptimeS).toBe(60);
      expect(hb.tagsHeard).toBe(3);
      expect(hb.radio.tx).toBeGreaterThan(0);
      const reported = new Map(of(key, 'tags').flatMap((r) => r.tags.map((t) => [t.id, t])));
      const simTags = [...sim.station('AP1', key.tenantId).tags.values()];
      expect([...reported.keys()].sort()).toEqual(simTags.map((t) => t.id).sort());
      for (const t of reported.values()) {
        expect(t).toMatchObject({ hw: '05', ver: null, wakeS: 40 });
        expect(t.rssi).toBeLessThan(-30);
        expect(t.battMv).toBeGreaterThan(2500);
        expect(t.temp).toBeGreaterThan(10);
      }
    }
    // Each station reports its own tags only.
    const tagsA = new Set(sim.station('AP1', 1).tags.keys());
    expect(
      of(B, 'tags')
        .flatMap((r) => r.tags)
        .some((t) => tagsA.has(t.id)),
    ).toBe(false);
    expect(invalid).toEqual([]);
  });

  it('take an image job, ack it, show the picture at the tag’s next wake and report the result', async () => {
    const station = sim.station('AP1', 1);
    const tag = [...station.tags.values()][0];
    const model = findTagModel('05');
    if (!model) throw new Error('model 05');
    const data = new Uint8Array(model.w * model.h).map((_, i) => (i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0));
    const image = encodeTagImage(
      { width: model.w, height: model.h, colourType: 'bwr', data },
      { wext: model.wext, hexit: model.hexit },
    );
    const job = {
      id: 'j1',
      rev: 1,
      att: 1,
      kind: 'image' as const,
      tag: tag.id,
      prio: 1 as const,
      ttlS: 600,
      image: {
        hash: image.hash,
        ver: image.hash.slice(0, 16),
        size: image.bytes.length,
        data: Buffer.from(image.bytes).toString('base64'),
      },
    };
    await server.publish(topics.down(A, 'jobs'), encodeMessage('jobs', { v: 1, jobs: [job] }));
    await sim.waitFor(() => of(A, 'ack').length === 1, { what: 'ack' });
    expect(of(A, 'ack')[0].jobs).toEqual([{ id: 'j1', rev: 1, ok: true }]);
    await sim.clock.advance(41_000);
    await sim.waitFor(() => of(A, 'result').length === 1, { what: 'result' });
    const [result] = of(A, 'result')[0].results;
    expect(result).toMatchObject({ id: 'j1', rev: 1, code: 'ok', tag: tag.id, ver: image.hash.slice(0, 16), tries: 1 });
    expect(result.airMs).toBeGreaterThan(50);
    // The tag decoded the bytes itself and hashed its planes: the same hash as the encoder's.
    expect(tag.screen()?.hash).toBe(image.hash);
    expect(station.outbox.size).toBe(1);
    await server.publish(topics.down(A, 'resack'), encodeMessage('resack', { v: 1, ids: [['j1', 1]] }));
    await sim.waitFor(() => station.outbox.size === 0, { what: 'resack' });
    // The next report tells the server which version the tag holds.
    await sim.clock.advance(30_000);
    await sim.waitFor(
      () => of(A, 'tags').some((r) => r.tags.some((t) => t.id === tag.id && t.ver === image.hash.slice(0, 16))),
      {
        what: 'tag report with the new version',
      },
    );
  });

  it('leave a Will with their connId when the connection dies, and come back with a new one', async () => {
    const station = sim.station('AP1', 1);
    const [hello] = of(A, 'hello');
    await station.disconnect({ abrupt: true });
    await sim.waitFor(() => of(A, 'status').some((s) => !s.online), { what: 'the Will' });
    const will = of(A, 'status').find((s) => !s.online);
    expect(will?.connId).toBe(hello.connId);
    await station.reconnect();
    await sim.waitFor(() => of(A, 'hello').length === 2, { what: 'second hello' });
    const second = of(A, 'hello')[1];
    expect(second.connId).not.toBe(hello.connId);
    expect(second.boot).toBe(hello.boot);
    expect(of(A, 'status').at(-1)).toMatchObject({ online: true, connId: second.connId });
    expect(invalid).toEqual([]);
  });
});
