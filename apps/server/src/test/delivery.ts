import { createHash } from 'node:crypto';
import { findTagModel } from '@esl/contract';
import {
  decodeMessage,
  encodeMessage,
  MESSAGES,
  type Message,
  type MessageInput,
  type MessageName,
  messageForPath,
  parseTopic,
  type StationKey,
  stationRoot,
  topics,
} from '@esl/contract/protocol';
import { encodeTagImage, type TagImage } from '@esl/labels';
import { createStationBroker, type StationBroker } from '../delivery/broker/broker';
import type { BrokerEvent } from '../delivery/broker/events';
import { inProcessPort } from '../delivery/mqtt/inprocess';
import type { MqttPort } from '../delivery/mqtt/port';

/*
 * Test harness: the embedded broker on a free port with stations from a map, and the server's
 * side of the port recording every station message after checking it against the contract.
 */

export interface SeenMessage {
  station: string;
  name: MessageName;
  message: unknown;
}

export interface StationHarness {
  readonly broker: StationBroker;
  readonly server: MqttPort;
  readonly url: string;
  readonly events: BrokerEvent[];
  readonly seen: SeenMessage[];
  /** Station messages that failed the schema or had no known topic (should stay empty). */
  readonly invalid: string[];
  /** Every message `name` from `key`, decoded, oldest first. */
  of<K extends MessageName>(key: StationKey, name: K): Message<K>[];
  /** Publishes a server → station message (encoded and checked). */
  send<K extends MessageName>(key: StationKey, name: K, body: MessageInput<K>): Promise<void>;
  /** Answers the latest hello of `key` with a welcome (server time = the station's, so no skew). */
  welcome(key: StationKey, cfgRev?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startStationHarness(secrets: Record<string, string>): Promise<StationHarness> {
  const events: BrokerEvent[] = [];
  const broker = await createStationBroker({
    directory: {
      async secretHash(tenantId, sn) {
        const secret = secrets[`${tenantId}.${sn}`];
        return secret ? createHash('sha256').update(secret).digest('hex') : null;
      },
    },
    onEvent: (e) => events.push(e),
  });
  const { port } = await broker.listen({ port: 0, host: '127.0.0.1' });
  const server = inProcessPort(broker.aedes);
  const seen: SeenMessage[] = [];
  const invalid: string[] = [];
  const receive = (topic: string, payload: Buffer) => {
    const t = parseTopic(topic);
    const name = t && (t.kind === 'status' ? 'status' : t.kind === 'up' ? messageForPath(`up/${t.name}`) : undefined);
    if (!t || !name) return invalid.push(topic);
    const decoded = decodeMessage(name, payload);
    if (!decoded.ok) return invalid.push(`${topic}: ${decoded.error} ${decoded.detail}`);
    seen.push({ station: `${t.tenantId}.${t.sn}`, name, message: decoded.message });
  };
  await server.subscribe(topics.serverUpFilter, (m) => receive(m.topic, m.payload));
  await server.subscribe(topics.serverStatusFilter, (m) => receive(m.topic, m.payload));

  const of = <K extends MessageName>(key: StationKey, name: K) =>
    seen
      .filter((s) => s.station === `${key.tenantId}.${key.sn}` && s.name === name)
      .map((s) => s.message as Message<K>);
  const send = async <K extends MessageName>(key: StationKey, name: K, body: MessageInput<K>) => {
    await server.publish(`${stationRoot(key)}/${MESSAGES[name].path}`, encodeMessage(name, body), {
      qos: MESSAGES[name].qos,
    });
  };
  return {
    broker,
    server,
    url: `mqtt://127.0.0.1:${port}`,
    events,
    seen,
    invalid,
    of,
    send,
    async welcome(key, cfgRev = 0) {
      const hello = of(key, 'hello').at(-1);
      if (!hello) throw new Error(`no hello from ${key.tenantId}.${key.sn}`);
      await send(key, 'welcome', { v: 1, connId: hello.connId, time: hello.time, cfgRev });
    },
    async close() {
      await server.close();
      await broker.close();
    },
  };
}

/** A real encoded image for a tag model (a pattern of its inks; `noise` makes it incompressible). */
export function testImage(modelCode: string, seed = 1, noise = false): TagImage {
  const model = findTagModel(modelCode);
  if (!model) throw new Error(`no model ${modelCode}`);
  let x = seed || 1;
  const data = new Uint8Array(model.w * model.h).map((_, i) => {
    if (noise) {
      // xorshift32
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % 3;
    }
    return (i + seed) % 7 === 0 ? 1 : (i + seed) % 11 === 0 ? 2 : 0;
  });
  return encodeTagImage(
    { width: model.w, height: model.h, colourType: 'bwr', data },
    { wext: model.wext, hexit: model.hexit },
  );
}
