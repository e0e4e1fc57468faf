import { findTagModel } from '@esl/contract';
import type { StationKey } from '@esl/contract/protocol';
import { encodeTagImage } from '@esl/labels';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StationHarness, startStationHarness } from '../test/delivery';

// The simulator's stations against the real embedded broker, seen from the server's side of the
// MQTT port: every message a station sends must pass the contract's schema there.

const T0 = Date.UTC(2026, 0, 1);
const A: StationKey = { tenantId: 1, sn: 'AP1' };
const B: StationKey = { tenantId: 2, sn: 'AP1' };

let h: StationHarness;
let sim: Simulator;

beforeAll(async () => {
  h = await startStationHarness({ '1.AP1': 'a-secret', '2.AP1': 'b-secret', '1.AP2': 'right' });
  sim = await startSimulator({
    url: h.url,
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
  await h?.close();
});

describe('simulated stations on the embedded broker', () => {
  it('connect with their secrets: retained status, then hello', async () => {
    await sim.waitFor(() => h.of(A, 'hello').length === 1 && h.of(B, 'hello').length === 1, { what: 'two hellos' });
    for (const key of [A, B]) {
      const [status] = h.of(key, 'status');
      const [hello] = h.of(key, 'hello');
      expect(status).toMatchObject({ online: true });
      expect(hello.connId).toBe(status.connId);
      expect(hello.queue).toEqual([]);
      expect(hello.caps.kinds).toContain('image');
      expect(hello.radio).toMatchObject({ profile: 'oepl-2g4', kbps: 250 });
    }
    // The station with a wrong secret is refused, reported, and never says hello.
    expect(sim.station('AP2').isConnected).toBe(false);
    expect(
      h.events.some((e) => e.type === 'station.auth_failed' && e.username === '1.AP2' && e.reason === 'badSecret'),
    ).toBe(true);
    expect(h.seen.some((s) => s.station === '1.AP2')).toBe(false);
  });

  it('report their tags and heartbeat as virtual time passes', async () => {
    for (const key of [A, B]) await h.welcome(key);
    await sim.waitFor(() => sim.station('AP1', 1).isWelcomed && sim.station('AP1', 2).isWelcomed, { what: 'welcome' });
    await sim.clock.advance(60_000);
    // A heartbeat and the report due at the same instant travel apart (QoS 0 and 1): wait for both.
    const reportedIds = (key: StationKey) => new Set(h.of(key, 'tags').flatMap((r) => r.tags.map((t) => t.id)));
    await sim.waitFor(() => [A, B].every((key) => h.of(key, 'heartbeat').length === 1 && reportedIds(key).size >= 3), {
      what: 'heartbeats and every tag reported',
    });
    for (const key of [A, B]) {
      const [hb] = h.of(key, 'heartbeat');
      expect(hb.at).toBe(T0 + 60_000);
      expect(hb.uptimeS).toBe(60);
      expect(hb.tagsHeard).toBe(3);
      expect(hb.radio.tx).toBeGreaterThan(0);
      const reported = new Map(h.of(key, 'tags').flatMap((r) => r.tags.map((t) => [t.id, t])));
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
      h
        .of(B, 'tags')
        .flatMap((r) => r.tags)
        .some((t) => tagsA.has(t.id)),
    ).toBe(false);
    expect(h.invalid).toEqual([]);
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
    await h.send(A, 'jobs', { v: 1, jobs: [job] });
    await sim.waitFor(() => h.of(A, 'ack').length === 1, { what: 'ack' });
    expect(h.of(A, 'ack')[0].jobs).toEqual([{ id: 'j1', rev: 1, ok: true }]);
    await sim.clock.advance(41_000);
    await sim.waitFor(() => h.of(A, 'result').length === 1, { what: 'result' });
    const [result] = h.of(A, 'result')[0].results;
    expect(result).toMatchObject({ id: 'j1', rev: 1, code: 'ok', tag: tag.id, ver: image.hash.slice(0, 16), tries: 1 });
    expect(result.airMs).toBeGreaterThan(50);
    // The tag decoded the bytes itself and hashed its planes: the same hash as the encoder's.
    expect(tag.screen()?.hash).toBe(image.hash);
    expect(station.outbox.size).toBe(1);
    await h.send(A, 'resack', { v: 1, ids: [['j1', 1]] });
    await sim.waitFor(() => station.outbox.size === 0, { what: 'resack' });
    // The next report tells the server which version the tag holds.
    await sim.clock.advance(30_000);
    await sim.waitFor(
      () => h.of(A, 'tags').some((r) => r.tags.some((t) => t.id === tag.id && t.ver === image.hash.slice(0, 16))),
      {
        what: 'tag report with the new version',
      },
    );
  });

  it('leave a Will with their connId when the connection dies, and come back with a new one', async () => {
    const station = sim.station('AP1', 1);
    const [hello] = h.of(A, 'hello');
    await station.disconnect({ abrupt: true });
    await sim.waitFor(() => h.of(A, 'status').some((s) => !s.online), { what: 'the Will' });
    const will = h.of(A, 'status').find((s) => !s.online);
    expect(will?.connId).toBe(hello.connId);
    await station.reconnect();
    await sim.waitFor(() => h.of(A, 'hello').length === 2, { what: 'second hello' });
    const second = h.of(A, 'hello')[1];
    expect(second.connId).not.toBe(hello.connId);
    expect(second.boot).toBe(hello.boot);
    expect(h.of(A, 'status').at(-1)).toMatchObject({ online: true, connId: second.connId });
    expect(h.invalid).toEqual([]);
  });
});
