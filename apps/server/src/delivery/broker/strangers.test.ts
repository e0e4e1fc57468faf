import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStationBroker, DEFAULT_BROKER_LIMITS, type StationBroker } from './broker';

// What a stranger can do to the embedded broker before logging in (issue 25): make it hold
// memory with half-sent CONNECTs, and keep a station out with wrong secrets. Strangers connect
// from other loopback addresses (127.0.0.2 …) where a test needs another address than the station's.

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const SECRET = 'a'.repeat(48);

let broker: StationBroker;
let port: number;
let lookups = 0;
const sockets: Socket[] = [];
const clients: MqttClient[] = [];

beforeEach(async () => {
  lookups = 0;
  let clock = 1_000_000;
  broker = await createStationBroker({
    directory: {
      async secretHash(tenantId, sn) {
        lookups++;
        return tenantId === 1 && sn === 'AP1' ? sha(SECRET) : null;
      },
    },
    now: () => clock++,
  });
  port = (await broker.listen({ port: 0, host: '127.0.0.1' })).port;
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => {})));
  await broker.close();
});

const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};
const remainingLength = (n: number) => {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
};

/** An MQTT 3.1.1 CONNECT with username and password (client id = username), clean session. */
function connectPacket(username: string, password: string): Buffer {
  const body = Buffer.concat([str('MQTT'), Buffer.from([4, 0xc2, 0, 60]), str(username), str(username), str(password)]);
  return Buffer.concat([Buffer.from([0x10]), remainingLength(body.length), body]);
}

function rawSocket(from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, localAddress: from }, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

/** Logs in from `from` (a loopback address): the CONNACK return code. */
async function login(from: string, username: string, password: string): Promise<number> {
  const s = await rawSocket(from);
  const answer = new Promise<number>((resolve, reject) => {
    s.once('data', (d: Buffer) => resolve(d[0] === 0x20 ? (d[3] as number) : -1));
    s.once('close', () => reject(new Error('closed without CONNACK')));
  });
  s.write(connectPacket(username, password));
  const code = await answer;
  s.destroy();
  return code;
}

const closedByServer = (s: Socket) => new Promise<void>((resolve) => s.once('close', () => resolve()));

describe('half-open connections', () => {
  it(`holds at most ${DEFAULT_BROKER_LIMITS.pendingPerAddress} per address, and closes a CONNECT over ${DEFAULT_BROKER_LIMITS.maxConnectBytes} bytes`, async () => {
    // 100 slow connects that never finish their CONNECT: the oldest are closed to make room.
    const slow: Array<Promise<void>> = [];
    for (let i = 0; i < 100; i++) {
      const s = await rawSocket('127.0.0.3');
      s.on('error', () => {});
      slow.push(closedByServer(s));
      s.write(Buffer.concat([Buffer.from([0x10]), remainingLength(200), str('MQ')]));
    }
    // Past the cap, each has the arrival grace (2 s) to send its CONNECT before it is closed.
    await vi.waitFor(() => expect(broker.halfOpen().open).toBe(DEFAULT_BROKER_LIMITS.pendingPerAddress), {
      timeout: 20_000,
    });
    expect(broker.halfOpen().evicted).toBe(100 - DEFAULT_BROKER_LIMITS.pendingPerAddress);
    await Promise.all(slow.slice(0, 100 - DEFAULT_BROKER_LIMITS.pendingPerAddress));
    // A CONNECT announcing 9 KB is closed at its header, before its body is read.
    const big = await rawSocket('127.0.0.4');
    big.on('error', () => {});
    const gone = closedByServer(big);
    big.write(Buffer.concat([Buffer.from([0x10]), remainingLength(9 * 1024)]));
    await gone;
    expect(broker.halfOpen().tooLarge).toBe(1);
  });

  it('gives back what 1,000 half-sent 500 KB CONNECTs from one address sent, and a station still connects', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage();
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const head = Buffer.concat([Buffer.from([0x10]), remainingLength(500 * 1024)]);
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const s = await rawSocket('127.0.0.1');
          s.on('error', () => {});
          const gone = closedByServer(s);
          s.write(head);
          s.write(chunk);
          await gone;
        }),
      );
    }
    gc();
    const after = process.memoryUsage();
    // Unbounded, each would hold its 64 KB (and more as it came): 64 MB. Bounded: at most
    // pendingTotal × maxConnectBytes (1,024 × 8 KiB = 8 MiB) may be held, here nothing at all.
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    expect(broker.halfOpen().open).toBe(0);
    expect(broker.halfOpen().tooLarge).toBe(1000);
    const station = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: '1.AP1',
      username: '1.AP1',
      password: SECRET,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(station);
    expect(station.connected).toBe(true);
  }, 120_000);
});

describe('stations connecting at once from one address', () => {
  it('all get in while their logins wait, however many strangers half-send CONNECTs there', async () => {
    // Every lookup waits until released: 40 logins from one address are being checked at once.
    // Under the old rule each arrival past 16 closed the oldest of them.
    const STATIONS = 40;
    let waiting = 0;
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const gated = await createStationBroker({
      directory: {
        async secretHash(tenantId, sn) {
          waiting++;
          await released;
          return tenantId === 1 && /^S\d+$/.test(sn) ? sha(SECRET) : null;
        },
      },
    });
    try {
      const { port: gatedPort } = await gated.listen({ port: 0, host: '127.0.0.1' });
      const stations = Array.from({ length: STATIONS }, (_, i) =>
        mqtt.connectAsync(`mqtt://127.0.0.1:${gatedPort}`, {
          clientId: `1.S${i}`,
          username: `1.S${i}`,
          password: SECRET,
          reconnectPeriod: 0,
          connectTimeout: 60_000,
        }),
      );
      await vi.waitFor(() => expect(waiting).toBe(STATIONS), { timeout: 20_000 });
      expect(gated.halfOpen()).toMatchObject({ open: STATIONS, verifying: STATIONS, evicted: 0 });
      // Strangers at the same address, never finishing their CONNECT: only they are closed.
      const slow: Array<Promise<void>> = [];
      for (let i = 0; i < 30; i++) {
        const s = await new Promise<Socket>((resolve, reject) => {
          const c = connect({ host: '127.0.0.1', port: gatedPort }, () => resolve(c));
          c.on('error', reject);
          sockets.push(c);
        });
        s.on('error', () => {});
        slow.push(closedByServer(s));
        s.write(Buffer.concat([Buffer.from([0x10]), remainingLength(200), str('MQ')]));
      }
      const extra = 30 - DEFAULT_BROKER_LIMITS.pendingPerAddress;
      await vi.waitFor(() => expect(gated.halfOpen().evicted).toBe(extra), { timeout: 20_000 });
      await Promise.all(slow.slice(0, extra));
      release();
      const connected = await Promise.all(stations);
      clients.push(...connected);
      expect(connected.every((c) => c.connected)).toBe(true);
      expect(gated.halfOpen()).toMatchObject({ verifying: 0, evicted: extra, busy: 0 });
    } finally {
      release();
      await gated.close();
    }
  }, 60_000);
});

describe('a stranger’s wrong secrets', () => {
  it('never refuse the station its right secret from its address', async () => {
    // From another address, as often as the stranger likes: the station does not notice.
    for (let i = 0; i < 40; i++) expect(await login('127.0.0.2', '1.AP1', `guess${i}`)).toBeGreaterThan(0);
    for (let i = 0; i < 40; i++) expect(await login('127.0.0.2', `1.X${i}`, 'guess')).toBeGreaterThan(0);
    expect(await login('127.0.0.2', '1.AP1', SECRET)).toBe(5); // the stranger's address waits
    expect(await login('127.0.0.1', '1.AP1', SECRET)).toBe(0);
    // From the station's own address (a stranger behind the shop's NAT): its usual address, where
    // its right secret is always checked.
    for (let i = 0; i < 40; i++) expect(await login('127.0.0.1', '1.AP1', `guess${i}`)).toBeGreaterThan(0);
    for (let i = 0; i < 40; i++) expect(await login('127.0.0.1', `1.X${i}`, 'guess')).toBeGreaterThan(0);
    expect(await login('127.0.0.1', '1.AP1', SECRET)).toBe(0);
    // The stranger's made-up usernames at that address wait all the same (no lookup).
    const n = lookups;
    expect(await login('127.0.0.1', '1.Y1', 'guess')).toBe(5);
    expect(lookups).toBe(n);
  });
});
