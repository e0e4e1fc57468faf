import { type StationKey, topics } from '@esl/contract/protocol';
import { type Simulator, type SimulatorOptions, startSimulator } from '@esl/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StationHarness, startStationHarness, testImage } from '../test/delivery';

// What a simulated station does with the server's messages, observed over the real broker.

const T0 = Date.UTC(2026, 0, 1);
const serials = Array.from({ length: 24 }, (_, i) => `S${i}`);
/** The seeded run's own serial: what it sends must not depend on how many tests ran before it. */
const SEEDED = 'SEEDED';
let h: StationHarness;
const sims: Simulator[] = [];
let next = 0;

beforeAll(async () => {
  h = await startStationHarness(Object.fromEntries([...serials, SEEDED].map((sn) => [`1.${sn}`, `secret-${sn}`])));
});
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await h?.close();
});

/** One welcomed station with `tags` made-up tags, on a manual clock. */
async function station(options: Partial<SimulatorOptions> = {}, tags = 2, sn = serials[next++]) {
  const key: StationKey = { tenantId: 1, sn };
  const hellos = h.of(key, 'hello').length;
  const sim = await startSimulator({
    url: h.url,
    stations: [{ ...key, secret: `secret-${sn}` }],
    tagsPerStation: tags,
    models: [['05', 1]],
    speed: 0,
    seed: sn,
    start: T0,
    ...options,
  });
  sims.push(sim);
  const st = sim.station(sn);
  await sim.waitFor(() => h.of(key, 'hello').length > hellos, { what: 'hello' });
  await h.welcome(key);
  await sim.waitFor(() => st.isWelcomed, { what: 'welcome' });
  return { sim, key, st, tagIds: [...st.tags.keys()] };
}

const led = { colour: 'green' as const, onMs: 100, offMs: 100, count: 2, repeat: 1 };
const ledJob = (id: string, rev: number, tag: string, ttlS = 300) =>
  ({ id, rev, att: 1, kind: 'led', tag, prio: 0, ttlS, led }) as const;
const acks = (key: StationKey) => h.of(key, 'ack').flatMap((m) => m.jobs);
const results = (key: StationKey) => h.of(key, 'result').flatMap((m) => m.results);

/**
 * The simulated clock moved on 15 s at a time (up to 3 minutes) until `done`: a tag's next
 * check-in comes within its wake interval, wherever in it the seed put the tag.
 */
async function checkIn(sim: Simulator, done: () => boolean, what: string) {
  for (let waited = 0; !done() && waited < 180_000; waited += 15_000) {
    await sim.clock.advance(15_000);
    await sim.waitFor(done, { what, timeoutMs: 500 }).catch(() => {});
  }
  await sim.waitFor(done, { what });
}

describe('a simulated station', () => {
  it('keeps the highest rev of a job: duplicates acked again, older revs stale, unknown kinds refused', async () => {
    const { sim, key, st, tagIds } = await station();
    const [t] = tagIds;
    await h.send(key, 'jobs', { v: 1, jobs: [ledJob('a', 2, t)] });
    await h.send(key, 'jobs', { v: 1, jobs: [ledJob('a', 1, t), ledJob('a', 2, t)] });
    await h.send(key, 'jobs', {
      v: 1,
      jobs: [
        {
          id: 'fw',
          rev: 1,
          att: 1,
          kind: 'apfw',
          prio: 3,
          ttlS: 600,
          fw: { version: '2.0', hash: 'ab'.repeat(32), size: 10 },
        },
      ],
    });
    await sim.waitFor(() => acks(key).length === 4, { what: 'four acks' });
    expect(acks(key)).toEqual([
      { id: 'a', rev: 2, ok: true },
      { id: 'a', rev: 1, ok: false, code: 'stale' },
      { id: 'a', rev: 2, ok: true },
      { id: 'fw', rev: 1, ok: false, code: 'unsupported' },
    ]);
    expect([...st.queue.keys()]).toEqual(['a']);
    await h.send(key, 'jobs', { v: 1, jobs: [ledJob('a', 3, t)] });
    await sim.waitFor(() => acks(key).length === 5, { what: 'ack of rev 3' });
    expect(st.queue.get('a')?.job.rev).toBe(3);
    // The LED flashes at the tag's next check-in, once, for the rev it holds.
    await sim.clock.advance(45_000);
    await sim.waitFor(() => results(key).length === 1, { what: 'LED result' });
    expect(results(key)[0]).toMatchObject({ id: 'a', rev: 3, code: 'ok', tag: t });
    expect(sim.tag(t).flashes).toEqual([led]);
    expect(h.invalid).toEqual([]);
  });

  it('refuses an inline image whose bytes do not have its hash', async () => {
    const { sim, key, tagIds } = await station();
    const image = testImage('05');
    const other = testImage('05', 2);
    const data = Buffer.from(other.bytes).toString('base64');
    await h.send(key, 'jobs', {
      v: 1,
      jobs: [
        {
          id: 'i',
          rev: 1,
          att: 1,
          kind: 'image',
          tag: tagIds[0],
          prio: 1,
          ttlS: 300,
          image: { hash: image.hash, ver: image.hash.slice(0, 16), size: other.bytes.length, data },
        },
      ],
    });
    await sim.waitFor(() => acks(key).length === 1, { what: 'ack' });
    expect(acks(key)).toEqual([{ id: 'i', rev: 1, ok: false, code: 'invalid' }]);
  });

  it('ends cancelled jobs with `cancelled`, expired ones with `timeout`, or `unknownTag` for a tag never heard', async () => {
    const { sim, key, st, tagIds } = await station({ wakeS: 600 });
    await sim.clock.advance(600_000); // both tags check in once; the next wakes are ~10 minutes away
    expect(st.stats.checkIns).toBe(2);
    await h.send(key, 'jobs', {
      v: 1,
      jobs: [ledJob('c', 1, tagIds[0]), ledJob('x', 1, tagIds[1], 5), ledJob('u', 1, 'FFFFFFFFFFFF', 5)],
    });
    await sim.waitFor(() => acks(key).length === 3, { what: 'acks' });
    await h.send(key, 'cancel', { v: 1, ids: [['c', 1]], reason: 'stopped' });
    await sim.waitFor(() => results(key).length === 1, { what: 'cancel result' });
    expect(results(key)[0]).toMatchObject({ id: 'c', rev: 1, code: 'cancelled' });
    await sim.clock.advance(10_000);
    await sim.waitFor(() => results(key).length === 3, { what: 'expiries' });
    expect(Object.fromEntries(results(key).map((r) => [r.id, r.code]))).toEqual({
      c: 'cancelled',
      x: 'timeout',
      u: 'unknownTag',
    });
    expect(st.queue.size).toBe(0);
    expect(st.stats.checkIns).toBe(2);
  });

  it('keeps results in its outbox until resack, across a reboot that empties its queue', async () => {
    const { sim, key, st, tagIds } = await station();
    await h.send(key, 'jobs', { v: 1, jobs: [ledJob('r', 1, tagIds[0]), ledJob('q', 1, tagIds[1], 3600)] });
    await sim.waitFor(() => acks(key).length === 2, { what: 'acks' });
    await h.send(key, 'cancel', { v: 1, ids: [['r', 1]], reason: 'stopped' });
    await sim.waitFor(() => st.outbox.size === 1, { what: 'a result in the outbox' });
    const before = h.of(key, 'hello').at(-1);
    await st.reboot({ downMs: 3000 });
    expect(st.queue.size).toBe(0);
    await sim.clock.advance(3000);
    await sim.waitFor(() => h.of(key, 'hello').length === 2, { what: 'hello after reboot' });
    const after = h.of(key, 'hello')[1];
    expect(after.boot).toBe((before?.boot ?? 0) + 1);
    expect(after.queue).toEqual([]);
    expect(after.outbox).toBe(1);
    // After the welcome it resends the outbox; resack empties it.
    await h.welcome(key);
    await sim.waitFor(() => results(key).filter((r) => r.id === 'r').length === 2, { what: 'resent result' });
    await h.send(key, 'resack', { v: 1, ids: [['r', 1]] });
    await sim.waitFor(() => st.outbox.size === 0, { what: 'resack' });
  });

  it('serves a tag that checks in while its radio transfers to another in line after it, not a wake later', async () => {
    const { sim, key, st, tagIds } = await station({}, 150, 'S20'); // a serial the others' next++ never reaches
    await sim.clock.advance(40_000); // every tag checks in once, nothing to do yet
    const image = testImage('05');
    const data = Buffer.from(image.bytes).toString('base64');
    const jobs = tagIds.map((tag, i) => ({
      id: `l${i}`,
      rev: 1,
      att: 1,
      kind: 'image' as const,
      tag,
      prio: 1 as const,
      ttlS: 600,
      image: { hash: image.hash, ver: image.hash.slice(0, 16), size: image.bytes.length, data },
    }));
    for (let i = 0; i < jobs.length; i += 50) await h.send(key, 'jobs', { v: 1, jobs: jobs.slice(i, i + 50) });
    await sim.waitFor(() => acks(key).length === jobs.length, { what: 'acks' });
    // One wake interval (and the short line): every tag checked in once, each got its picture then,
    // also those whose check-in came while the radio was sending to another tag.
    await sim.clock.advance(41_600);
    await sim.waitFor(() => results(key).length === jobs.length, { what: 'every tag served within its wake' });
    expect(results(key).every((r) => r.code === 'ok')).toBe(true);
    expect(st.stats.lined).toBeGreaterThan(0);
    expect(tagIds.every((t) => sim.tag(t).screen()?.hash === image.hash)).toBe(true);
  });

  it('pulls an image that is not inline as a blob, four chunks at most in flight, and shows it', async () => {
    const { sim, key, st, tagIds } = await station({ models: [['1C', 1]] }, 1);
    const image = testImage('1C', 5, true); // incompressible: several 16 KiB chunks
    expect(image.bytes.length).toBeGreaterThan(16_384);
    const [t] = tagIds;
    await h.send(key, 'jobs', {
      v: 1,
      jobs: [
        {
          id: 'big',
          rev: 1,
          att: 1,
          kind: 'image',
          tag: t,
          prio: 2,
          ttlS: 600,
          image: { hash: image.hash, ver: image.hash.slice(0, 16), size: image.bytes.length },
        },
      ],
    });
    await sim.waitFor(() => h.of(key, 'blobRequest').length > 0, { what: 'blob requests' });
    const served = new Set<number>();
    // Serve requests as they come, checking none asks beyond the blob and at most 4 wait at once.
    while (!st.queue.get('big')?.bytes) {
      const open = h.of(key, 'blobRequest').filter((r) => !served.has(r.offset));
      expect(open.length).toBeLessThanOrEqual(4);
      for (const r of open) {
        expect(r.hash).toBe(image.hash);
        expect(r.offset + r.length).toBeLessThanOrEqual(image.bytes.length);
        served.add(r.offset);
        await h.server.publish(
          topics.blobChunk(key, r.hash, r.offset),
          image.bytes.subarray(r.offset, r.offset + r.length),
        );
      }
      await sim.waitFor(
        () => !!st.queue.get('big')?.bytes || h.of(key, 'blobRequest').some((r) => !served.has(r.offset)),
        {
          what: 'more requests or the whole blob',
        },
      );
    }
    expect(served.size).toBe(Math.ceil(image.bytes.length / 16_384));
    await sim.clock.advance(45_000); // the tag's first wake, then ~2 s of transfer (eight 4 KiB blocks)
    await sim.waitFor(() => results(key).length === 1, { what: 'result' });
    expect(results(key)[0]).toMatchObject({ id: 'big', code: 'ok', ver: image.hash.slice(0, 16) });
    expect(sim.tag(t).screen()?.hash).toBe(image.hash);
  });

  it('writes NFC content at a check-in; the same content again is skipped, new content written (docs/SHELF.md)', async () => {
    const { sim, key, tagIds } = await station();
    const [t] = tagIds;
    expect(h.of(key, 'hello').at(-1)?.caps.kinds).toContain('nfc');
    const nfcJob = (id: string, rev: number, value: string) =>
      ({ id, rev, att: 1, kind: 'nfc', tag: t, prio: 1, ttlS: 300, nfc: { type: 'uri', value } }) as const;
    await h.send(key, 'jobs', { v: 1, jobs: [nfcJob('n', 1, 'https://shop.example/p/6901234567892')] });
    await checkIn(sim, () => results(key).length === 1, 'NFC result');
    expect(results(key)[0]).toMatchObject({ id: 'n', rev: 1, code: 'ok', tag: t });
    expect(sim.tag(t).nfc).toEqual({ type: 'uri', value: 'https://shop.example/p/6901234567892' });
    await h.send(key, 'jobs', { v: 1, jobs: [nfcJob('n', 2, 'https://shop.example/p/6901234567892')] });
    await checkIn(sim, () => results(key).length === 2, 'second NFC result');
    expect(results(key)[1]).toMatchObject({ id: 'n', rev: 2, code: 'skipped' });
    await h.send(key, 'jobs', { v: 1, jobs: [nfcJob('n', 3, 'https://shop.example/p/1')] });
    await checkIn(sim, () => results(key).length === 3, 'third NFC result');
    expect(results(key)[2]).toMatchObject({ id: 'n', rev: 3, code: 'ok' });
    expect(sim.tag(t).nfc?.value).toBe('https://shop.example/p/1');
    expect(sim.tag(t).nfcWrites).toBe(2);
    expect(h.invalid).toEqual([]);
  });

  it('answers a roll call from its tag table without airtime', async () => {
    const { sim, key, st, tagIds } = await station({}, 3);
    await sim.clock.advance(41_000); // every tag has checked in once
    const air = st.stats.airMs;
    await h.send(key, 'jobs', { v: 1, jobs: [{ id: 'rc', rev: 1, att: 1, kind: 'rollcall', prio: 0, ttlS: 60 }] });
    await sim.waitFor(() => results(key).length === 3, { what: 'roll call' });
    expect(
      results(key)
        .map((r) => [r.tag, r.present])
        .sort(),
    ).toEqual(tagIds.map((id) => [id, true]).sort());
    expect(st.stats.airMs).toBe(air);
  });

  it('applies a config: new intervals, cfgRev in the heartbeat, the WiFi password not kept', async () => {
    const { sim, key, st } = await station();
    await h.send(key, 'config', {
      v: 1,
      cfgRev: 7,
      wifi: { ssid: 'store', password: 'hunter2-secret' },
      heartbeatS: 20,
      reportS: 10,
    });
    await sim.waitFor(() => st.cfgRev === 7, { what: 'config applied' });
    await sim.clock.advance(20_000);
    await sim.waitFor(() => h.of(key, 'heartbeat').length === 1, { what: 'heartbeat after 20 s' });
    expect(h.of(key, 'heartbeat')[0].cfgRev).toBe(7);
    expect(JSON.stringify(st.config)).not.toContain('hunter2');
    expect(st.logLines.join('\n')).not.toContain('hunter2');
  });

  it('runs allow-listed commands in a command window and refuses others', async () => {
    const { sim, key } = await station();
    await h.send(key, 'cmd', { v: 1, session: 'w1', seq: 0, open: { ttlS: 600 }, line: 'status' });
    await h.send(key, 'cmd', { v: 1, session: 'w1', seq: 1, line: 'rm -rf /' });
    await h.send(key, 'cmd', { v: 1, session: 'nope', seq: 0, line: 'status' });
    await sim.waitFor(() => h.of(key, 'cmdOutput').length === 3, { what: 'three outputs' });
    const [status, refused, noSession] = h.of(key, 'cmdOutput');
    expect(status).toMatchObject({ session: 'w1', seq: 0, exit: 0 });
    expect(status.out).toMatch(/uptime \d+ s, queue 0 jobs/);
    expect(refused).toMatchObject({ session: 'w1', seq: 1, exit: 127 });
    expect(noSession).toMatchObject({ session: 'nope', exit: 1 });
  });

  it('flaps when told to: each drop leaves a Will with the dropped connection’s connId', async () => {
    const { sim, key } = await station({ flap: { everyS: 20, jitterS: 0, downS: 5 } });
    for (let i = 0; i < 2; i++) {
      await sim.clock.advance(20_000);
      await sim.waitFor(() => h.of(key, 'status').filter((s) => !s.online).length === i + 1, { what: `Will ${i + 1}` });
      await sim.clock.advance(5_000);
      await sim.waitFor(() => h.of(key, 'hello').length === i + 2, { what: `hello ${i + 2}` });
    }
    const hellos = h.of(key, 'hello');
    const wills = h.of(key, 'status').filter((s) => !s.online);
    expect(wills.map((w) => w.connId)).toEqual([hellos[0].connId, hellos[1].connId]);
    expect(new Set(hellos.map((x) => x.connId)).size).toBe(3);
  });
});

describe('a seeded run', () => {
  it('repeats: the same seed gives the same tags, check-ins and reports', async () => {
    const sn = SEEDED;
    const key: StationKey = { tenantId: 1, sn };
    const run = async (): Promise<unknown[]> => {
      const before = h.of(key, 'tags').length;
      const { sim, st } = await station({ seed: 'repeat-me', loss: 0.05 }, 4, sn);
      await sim.clock.advance(150_000);
      // Everything it sent has arrived (reports go out only when something is due).
      await sim.waitFor(() => h.of(key, 'tags').length - before === st.stats.sent.tags, { what: 'its reports' });
      const out = [[...st.tags.keys()], h.of(key, 'tags').slice(before), st.stats.checkIns, st.stats.missedCheckIns];
      await Promise.all(sims.splice(0).map((s) => s.stop()));
      return out;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect((first[1] as unknown[]).length).toBeGreaterThanOrEqual(3);
  });
});
