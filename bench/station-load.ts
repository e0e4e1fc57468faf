/**
 * Station load on the embedded broker (issue 12's figure; docs/PERFORMANCE.md). Not a test.
 *
 *   node --import tsx bench/station-load.ts [--stations 1000] [--tags 2000]
 *     [--seconds 60] [--report 30] [--heartbeat 60]
 *
 * This process runs what the server will: the embedded broker with station logins and ACL, and
 * the server-side port receiving every station message and checking it against the contract
 * (decodeMessage). A child process plays `--stations` stations that connect, say hello and then,
 * in real time, send a heartbeat every `--heartbeat` s and a full report of `--tags` tags every
 * `--report` s (in messages of 500). Measured here: connect time, then over `--seconds` of steady
 * load this process's CPU (share of one core), event-loop delay and messages/entries per second.
 * Storing reports (the gateway, later) is not part of it yet.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { decodeMessage, encodeMessage, messageForPath, parseTopic, topics } from '@esl/contract/protocol';
import mqtt from 'mqtt';
import { createStationBroker } from '../apps/server/src/delivery/broker';
import { inProcessPort } from '../apps/server/src/delivery/mqtt';
import { loadTagId } from './load-ids';

const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '1000' },
    tags: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '60' },
    report: { type: 'string', default: '30' },
    heartbeat: { type: 'string', default: '60' },
    child: { type: 'string' },
    /** Child only: the stations' tenant, and whether each station has tags of its own. */
    tenant: { type: 'string', default: '1' },
    distinct: { type: 'boolean', default: false },
  },
});
const stations = Number(values.stations);
const tagCount = Number(values.tags);
const reportS = Number(values.report);
const heartbeatS = Number(values.heartbeat);
const T0 = Date.now();

if (values.child) await child(values.child);
else await parent();

async function parent(): Promise<void> {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const broker = await createStationBroker({
    directory: { secretHash: async (_tid, sn) => sha(`secret-${sn}`) },
    limits: { addressWait: { free: 1_000_000, firstMs: 1000, maxMs: 1000, forgetMs: 1000 } },
  });
  const { port } = await broker.listen({ port: 0, host: '127.0.0.1' });
  const server = inProcessPort(broker.aedes);
  const count = { messages: 0, entries: 0, invalid: 0, hellos: 0, bytes: 0 };
  const receive = (topic: string, payload: Buffer) => {
    const t = parseTopic(topic);
    const name = t && (t.kind === 'status' ? 'status' : t.kind === 'up' ? messageForPath(`up/${t.name}`) : undefined);
    if (!name) return count.invalid++;
    const m = decodeMessage(name, payload);
    if (!m.ok) return count.invalid++;
    count.messages++;
    count.bytes += payload.length;
    if (name === 'hello') count.hellos++;
    if (name === 'tags') count.entries += (m.message as { tags: unknown[] }).tags.length;
  };
  await server.subscribe(topics.serverUpFilter, (m) => receive(m.topic, m.payload));
  await server.subscribe(topics.serverStatusFilter, (m) => receive(m.topic, m.payload));

  const started = performance.now();
  const gen = spawn(
    process.execPath,
    ['--import', 'tsx', new URL(import.meta.url).pathname, '--child', `mqtt://127.0.0.1:${port}`, ...argvFor()],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  while (count.hellos < stations) await sleep(100);
  const connectS = (performance.now() - started) / 1000;
  // Let every station's first report go out, then measure a steady window.
  await sleep(reportS * 1000);
  const before = { ...count };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  await sleep(Number(values.seconds) * 1000);
  loop.disable();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const perS = (k: keyof typeof count) => Math.round((count[k] - before[k]) / wall);
  console.log(
    JSON.stringify(
      {
        stations,
        tagsPerStation: tagCount,
        reportS,
        heartbeatS,
        connectS: Math.round(connectS * 10) / 10,
        windowS: Math.round(wall),
        cpuPctOfOneCore: Math.round(((cpu.user + cpu.system) / 1e6 / wall) * 1000) / 10,
        messagesPerS: perS('messages'),
        tagEntriesPerS: perS('entries'),
        megabytesPerS: Math.round(((count.bytes - before.bytes) / wall / 1e6) * 10) / 10,
        eventLoopDelayP99Ms: Math.round(loop.percentile(99) / 1e5) / 10,
        invalid: count.invalid,
        rssMb: Math.round(process.memoryUsage().rss / 1e6),
      },
      null,
      2,
    ),
  );
  gen.kill();
  await server.close();
  await broker.close();
  process.exit(0);
}

function argvFor(): string[] {
  return [
    '--stations',
    String(stations),
    '--tags',
    String(tagCount),
    '--report',
    String(reportS),
    '--heartbeat',
    String(heartbeatS),
  ];
}

/**
 * The load: light stations with payloads encoded once (the generator must not be the limit). With
 * `--distinct` each station reports its own tags, so its reports are encoded per station.
 */
async function child(url: string): Promise<void> {
  const tenantId = Number(values.tenant);
  const reportsOf = (i: number): string[] => {
    const entries = entriesOf(i);
    const out: string[] = [];
    for (let k = 0; k < entries.length; k += 500) {
      out.push(encodeMessage('tags', { v: 1, seq: k / 500, at: T0, full: true, tags: entries.slice(k, k + 500) }));
    }
    return out;
  };
  const shared = values.distinct ? null : reportsOf(0);
  await load(url, tenantId, (i) => shared ?? reportsOf(i));
}

function entriesOf(station: number) {
  return Array.from({ length: tagCount }, (_, i) => ({
    id: loadTagId(station, i, tagCount, values.distinct === true),
    rssi: -60 - (i % 25),
    lqi: 200,
    battMv: 2950,
    temp: 21.5,
    ver: 'dfb49989c14d2264',
    fw: '1.2.0',
    hw: '05',
    wakeS: 40,
    seenAt: T0,
    reason: 'timer' as const,
  }));
}

async function load(url: string, tenantId: number, reportsFor: (i: number) => string[]): Promise<void> {
  const heartbeat = encodeMessage('heartbeat', {
    v: 1,
    at: T0,
    uptimeS: 60,
    cpu: 10,
    mem: 30,
    disk: 10,
    queue: { jobs: 0, bytes: 0 },
    radio: { busyPct: 5, svcPerS: 0.5, tx: 100, rx: 100, crcErr: 0, noiseDbm: -96 },
    tagsHeard: tagCount,
    cfgRev: 0,
  });
  const connectOne = async (i: number) => {
    const key = { tenantId, sn: `L${i}` };
    const username = `${tenantId}.L${i}`;
    const reports = reportsFor(i);
    const connId = `c${i.toString(36).padStart(4, '0')}`;
    const client = mqtt.connect(url, {
      clientId: username,
      username,
      password: `secret-L${i}`,
      clean: true,
      keepalive: 60,
      reconnectPeriod: 0,
      will: {
        topic: topics.status(key),
        payload: Buffer.from(encodeMessage('status', { v: 1, online: false, connId, at: T0 })),
        qos: 1,
        retain: true,
      },
    });
    // An error with no listener would end the process; a failed connect ends only this try.
    client.on('error', () => {});
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
        client.once('close', () => reject(new Error('closed before CONNACK')));
      });
    } catch (err) {
      client.end(true);
      throw err;
    }
    await client.publishAsync(topics.status(key), encodeMessage('status', { v: 1, online: true, connId, at: T0 }), {
      qos: 1,
      retain: true,
    });
    const hello = encodeMessage('hello', {
      v: 1,
      connId,
      boot: 1,
      model: 'LOAD',
      fw: { ap: '1.0.0' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: { queue: 512, queueBytes: 4_194_304, inlineMax: 16_384, chunk: 16_384, fwConcurrent: 1, kinds: ['image'] },
      queue: [],
      outbox: 0,
      net: { ip: '10.0.0.1', mac: '24:00:00:00:00:01' },
      cfgRev: 0,
      time: T0,
    });
    await client.publishAsync(topics.up(key, 'hello'), hello, { qos: 1 });
    // Random phases, as real stations would have.
    const phase = Math.random();
    setTimeout(
      () => {
        const send = () => {
          for (const r of reports) client.publish(topics.up(key, 'tags'), r, { qos: 1 });
        };
        send();
        setInterval(send, reportS * 1000);
      },
      phase * reportS * 1000,
    );
    setTimeout(
      () => {
        client.publish(topics.up(key, 'heartbeat'), heartbeat, { qos: 0 });
        setInterval(() => client.publish(topics.up(key, 'heartbeat'), heartbeat, { qos: 0 }), heartbeatS * 1000);
      },
      phase * heartbeatS * 1000,
    );
  };
  // A busy server may not answer a connect in time: try again (up to five times) rather than
  // end the whole load; what never connected is said at the end of the connect phase.
  let failed = 0;
  const withRetry = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await connectOne(i);
      } catch (err) {
        if (attempt === 5) {
          failed++;
          console.error(`station L${i}: ${(err as Error).message}; gave up after ${attempt} tries`);
          return;
        }
        await sleep(1000 * attempt);
      }
    }
  };
  for (let i = 0; i < stations; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, stations - i) }, (_, k) => withRetry(i + k)));
  }
  console.error(`load: ${stations - failed} of ${stations} stations connected`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
