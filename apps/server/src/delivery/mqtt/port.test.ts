import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClientPort } from './client';
import { inProcessPort } from './inprocess';
import type { MqttMessage, MqttPort } from './port';

// One behaviour, two implementations: the server code above the port must not care which broker
// it runs on. The network one is tested against a plain aedes (no station auth) on a free port.
let aedes: Aedes;
let server: Server;
let url: string;

beforeAll(async () => {
  aedes = await Aedes.createBroker();
  server = createServer(aedes.handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => aedes.close(() => r()));
  await new Promise<void>((r) => server.close(() => r()));
});

function inbox() {
  const got: MqttMessage[] = [];
  const waiters: Array<() => void> = [];
  return {
    got,
    handler: (m: MqttMessage) => {
      got.push(m);
      for (const w of waiters.splice(0)) w();
    },
    async count(n: number) {
      while (got.length < n) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

let n = 0;
const ports: Record<string, () => Promise<MqttPort>> = {
  'in-process': async () => inProcessPort(aedes),
  'mqtt.js client': () => connectClientPort({ url, clientId: `test-server-${++n}` }),
};

describe.each(Object.keys(ports))('MqttPort (%s)', (kind) => {
  it('delivers what is published under a subscribed filter, bytes intact', async () => {
    const port = await ports[kind]();
    const box = inbox();
    const stop = await port.subscribe(`t/${kind}/+/up/#`, box.handler);
    await port.publish(`t/${kind}/a/up/hello`, '{"v":1}');
    await port.publish(`t/${kind}/a/down/jobs`, 'not for us');
    await port.publish(`t/${kind}/b/up/x`, new Uint8Array([0, 255, 7]));
    await box.count(2);
    expect(box.got.map((m) => m.topic)).toEqual([`t/${kind}/a/up/hello`, `t/${kind}/b/up/x`]);
    expect(box.got[0].payload.toString()).toBe('{"v":1}');
    expect([...box.got[1].payload]).toEqual([0, 255, 7]);
    expect(box.got.every((m) => !m.retain)).toBe(true);
    await stop();
    await port.close();
  });

  it('hands retained messages to a later subscriber, marked retained', async () => {
    const port = await ports[kind]();
    await port.publish(`r/${kind}/1/status`, 'online', { retain: true });
    const box = inbox();
    await port.subscribe(`r/${kind}/+/status`, box.handler);
    await box.count(1);
    expect(box.got[0]).toMatchObject({ topic: `r/${kind}/1/status`, retain: true });
    expect(box.got[0].payload.toString()).toBe('online');
    await port.close();
  });

  it('stops delivering after unsubscribe', async () => {
    const port = await ports[kind]();
    const box = inbox();
    const other = inbox();
    const stop = await port.subscribe(`u/${kind}/#`, box.handler);
    await port.subscribe(`u/${kind}/#`, other.handler);
    await port.publish(`u/${kind}/1`, 'one');
    await box.count(1);
    await stop();
    await port.publish(`u/${kind}/2`, 'two');
    // The second subscriber on the same filter still receives: the first one's stop was its own.
    await other.count(2);
    expect(box.got.map((m) => m.payload.toString())).toEqual(['one']);
    await port.close();
  });
});
