import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import {
  decodeMessage,
  encodeMessage,
  type JobInput,
  MESSAGES,
  type Message,
  type MessageInput,
  type MessageName,
  messageForPath,
  parseTopic,
  type ResultEntry,
  type StationKey,
  stationRoot,
  stationUsername,
} from '@esl/contract/protocol';
import { encodeTagImage, type IndexImage } from '@esl/labels';
import { emuTags, type OeplAp, startOeplAp, VirtualClock } from '@esl/simulator';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { Bridge, type BridgeOptions } from '../bridge';

/**
 * The bridge between an emulated OEPL access point and an in-test broker whose other client plays
 * the server's side of docs/PROTOCOL.md: it answers hello with welcome and results with resack,
 * and sends jobs. Everything but the sockets runs on one manual virtual clock.
 */
export interface Rig {
  clock: VirtualClock;
  emu: OeplAp;
  /** The second AP, when the options asked for one (the bridge drives both). */
  emu2: OeplAp | null;
  bridge: Bridge;
  key: StationKey;
  /** Every up message the "server" received, by name. */
  of<K extends MessageName>(name: K): Message<K>[];
  results(): ResultEntry[];
  /** Sends an image job; resolves with its version. */
  sendImage(tag: string, image: IndexImage, job?: Partial<JobInput>): Promise<string>;
  send<K extends MessageName>(name: K, body: MessageInput<K>): Promise<void>;
  /** Moves virtual time in steps, letting the sockets answer between them. */
  advance(ms: number, stepMs?: number): Promise<void>;
  /** Advances until `pred` holds (or fails after `maxMs` of virtual time). */
  until(pred: () => boolean, what: string, maxMs?: number, stepMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const SECRET = 'bridge-secret-0123456789';

async function startBroker(key: StationKey): Promise<{ url: string; close(): Promise<void> }> {
  const aedes = await Aedes.createBroker();
  aedes.authenticate = (_client, username, password, done) => {
    const ok = username === stationUsername(key) ? String(password) === SECRET : username === 'server';
    done(null, ok);
  };
  const server: Server = createServer(aedes.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The server's side: welcome, resack, and what came up. */
async function startServerSide(
  url: string,
  key: StationKey,
  seen: Map<string, unknown[]>,
  now: () => number,
): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { username: 'server', clientId: 'server', reconnectPeriod: 0 });
  const root = stationRoot(key);
  await client.subscribeAsync([`${root}/up/#`, `${root}/status`], { qos: 1 });
  client.on('message', (topic, payload) => {
    const parsed = parseTopic(topic);
    if (!parsed) return;
    const name = parsed.kind === 'status' ? 'status' : messageForPath(topic.slice(root.length + 1));
    if (!name) return;
    const decoded = decodeMessage(name, payload);
    if (!decoded.ok) throw new Error(`bad ${name}: ${decoded.detail}`);
    const m = decoded.message;
    seen.set(name, [...(seen.get(name) ?? []), m]);
    const down = (n: MessageName, body: unknown) =>
      void client
        .publishAsync(`${root}/${MESSAGES[n].path}`, encodeMessage(n, body as MessageInput<typeof n>), { qos: 1 })
        .catch(() => {}); // the rig is stopping
    if (name === 'hello') {
      const h = m as Message<'hello'>;
      down('welcome', { v: 1, connId: h.connId, time: now(), cfgRev: h.cfgRev });
    }
    if (name === 'result') {
      const ids = (m as Message<'result'>).results.map((r) => [r.id, r.rev]);
      down('resack', { v: 1, ids });
    }
  });
  return client;
}

export interface RigOptions {
  tags?: { mac: string; hwType: number }[];
  /** Tags the (first) AP lists as served by another AP. */
  external?: { mac: string; hwType: number; apip: string }[];
  /** A second AP the bridge drives too (`--ap` twice), with its own tags. */
  second?: { tags: { mac: string; hwType: number }[]; external?: { mac: string; hwType: number; apip: string }[] };
  maxsleep?: number;
  oepl?: BridgeOptions['oepl'];
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const clock = new VirtualClock({ speed: 0, start: Date.UTC(2026, 0, 5, 9) });
  const key = { tenantId: 1, sn: 'OEPL1' };
  const broker = await startBroker(key);
  const seen = new Map<string, unknown[]>();
  const server = await startServerSide(broker.url, key, seen, () => clock.now());
  const maxsleep = options.maxsleep ?? 1;
  const emu = await startOeplAp({ clock, tags: options.tags ?? emuTags(3), external: options.external, maxsleep });
  const emu2 = options.second
    ? await startOeplAp({ clock, ...options.second, maxsleep, seed: 'second-ap', alias: 'Second AP' })
    : null;
  const bridge = new Bridge({
    url: broker.url,
    station: { ...key, secret: SECRET },
    aps: emu2 ? [emu.url, emu2.url] : [emu.url],
    clock,
    oepl: { paceMs: 0, ...options.oepl },
  });
  await bridge.start();
  const of = <K extends MessageName>(name: K) => (seen.get(name) ?? []) as Message<K>[];
  const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 2));
  const advance = async (ms: number, stepMs = 250) => {
    for (let t = 0; t < ms; t += stepMs) {
      await clock.advance(Math.min(stepMs, ms - t));
      await tick();
    }
  };
  const rig: Rig = {
    clock,
    emu,
    emu2,
    bridge,
    key,
    of,
    results: () => of('result').flatMap((r) => r.results),
    send: async (name, body) => {
      await server.publishAsync(`${stationRoot(key)}/${MESSAGES[name].path}`, encodeMessage(name, body), { qos: 1 });
    },
    sendImage: async (tag, image, job = {}) => {
      const enc = encodeTagImage(image, { wext: (8 - (image.width % 8)) % 8, hexit: 0 });
      const ver = enc.hash.slice(0, 16);
      const full = {
        id: 'j1',
        rev: 1,
        att: 1,
        kind: 'image' as const,
        tag,
        prio: 1 as const,
        ttlS: 3600,
        image: { hash: enc.hash, ver, size: enc.bytes.length, data: Buffer.from(enc.bytes).toString('base64') },
        ...job,
      };
      await rig.send('jobs', { v: 1, jobs: [full as JobInput] });
      return ver;
    },
    advance,
    until: async (pred, what, maxMs = 30 * 60_000, stepMs = 250) => {
      for (let t = 0; t < maxMs; t += stepMs) {
        if (pred()) return;
        await clock.advance(stepMs);
        await tick();
      }
      if (!pred()) throw new Error(`not within ${maxMs / 1000} s of virtual time: ${what}`);
    },
    stop: async () => {
      await bridge.stop();
      await emu.stop();
      await emu2?.stop();
      await server.endAsync();
      await broker.close();
      clock.stop();
    },
  };
  await rig.until(() => bridge.link.isWelcomed, 'welcome', 60_000);
  return rig;
}
