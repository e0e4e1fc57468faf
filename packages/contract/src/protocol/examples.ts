import type { MessageInput, MessageName } from './registry';

/*
 * One realistic example of every message, with its optional fields filled in. The tests round-trip
 * them and docs/PROTOCOL.md shows them (generated), so an example that stops matching its schema
 * fails both. Not exported from the package: production code has no use for them.
 */

// SHA-256 of the 12 illustration bytes inlined in the image job below (a real 296×152 label is ~1.2 KB).
export const EXAMPLE_IMAGE_HASH = 'dfb49989c14d226454b34421fb7f5ef055bbcba063f9f7aaa774f792c01f1113';
const HASH = EXAMPLE_IMAGE_HASH;
const FW_HASH = '9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';
const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

export const EXAMPLES: { readonly [K in MessageName]: MessageInput<K> } = {
  status: { v: 1, online: true, connId: 'k3v9q2', at: T0 },
  hello: {
    v: 1,
    connId: 'k3v9q2',
    boot: 7,
    model: 'ESL-AP-2G4',
    fw: { ap: '1.4.2', module: '0.9.1' },
    radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
    caps: {
      queue: 512,
      queueBytes: 2_097_152,
      inlineMax: 16_384,
      chunk: 16_384,
      fwConcurrent: 1,
      kinds: ['image', 'led', 'ping', 'tagcfg', 'tagfw', 'rollcall', 'apfw', 'modulefw'],
    },
    queue: [
      ['1a2b', 3],
      ['1a2c', 1],
    ],
    outbox: 1,
    net: {
      ip: '192.168.1.40',
      mac: '24:6F:28:A1:B2:C3',
      gw: '192.168.1.1',
      mask: '255.255.255.0',
      ntp: 'pool.ntp.org',
    },
    cfgRev: 2,
    time: T0 + 120,
  },
  heartbeat: {
    v: 1,
    at: T0 + 60_000,
    uptimeS: 3605,
    cpu: 12.5,
    mem: 41,
    disk: 8,
    queue: { jobs: 2, bytes: 2468 },
    radio: { busyPct: 3.2, svcPerS: 0.4, tx: 18_220, rx: 17_904, crcErr: 31, noiseDbm: -97 },
    tagsHeard: 1843,
    cfgRev: 2,
    alarms: ['radioSilent'],
    ap: { apstate: 1, runstate: 2, lowBattery: 3, timeouts: 1, fw: '2.80', channel: 11, tags: 212 },
  },
  models: {
    v: 1,
    models: [
      {
        key: 'oepl-35',
        name: 'M3 2.2 Lite',
        w: 250,
        h: 128,
        colours: ['white', 'black', 'red'],
        colourType: 'bwr',
        rotate: 1,
        led: true,
        button: false,
        nfc: false,
        source: 'shop AP, tag type 35 v2',
      },
    ],
  },
  tags: {
    v: 1,
    seq: 12,
    at: T0 + 30_000,
    full: false,
    tags: [
      {
        id: '0000021A3F5C',
        rssi: -62,
        lqi: 201,
        battMv: 2950,
        temp: 21.5,
        ver: HASH.slice(0, 16),
        fw: '1.2.0',
        hw: '05',
        wakeS: 40,
        seenAt: T0 + 29_410,
        reason: 'timer',
      },
    ],
  },
  ack: {
    v: 1,
    jobs: [
      { id: '1a2d', rev: 1, ok: true },
      { id: '1a2e', rev: 4, ok: false, code: 'full' },
    ],
  },
  result: {
    v: 1,
    results: [
      {
        id: '1a2b',
        rev: 3,
        code: 'ok',
        tag: '0000021A3F5C',
        ver: HASH.slice(0, 16),
        at: T0 + 41_000,
        tries: 1,
        airMs: 104,
        rssi: -62,
        present: true,
        detail: 'displayed',
      },
    ],
  },
  progress: { v: 1, id: '1a30', rev: 1, done: 65_536, total: 262_144 },
  blobRequest: { v: 1, hash: FW_HASH, offset: 65_536, length: 16_384 },
  cmdOutput: { v: 1, session: 'c7', seq: 2, out: 'uptime 3605 s, queue 2 jobs, channel 11\n', exit: 0 },
  welcome: { v: 1, connId: 'k3v9q2', time: T0 + 135, cfgRev: 3 },
  jobs: {
    v: 1,
    jobs: [
      {
        id: '1a2d',
        rev: 1,
        att: 1,
        kind: 'image',
        tag: '0000021A3F5C',
        prio: 1,
        ttlS: 300,
        force: false,
        image: { hash: HASH, ver: HASH.slice(0, 16), size: 12, data: '5QEBAQAoAIAAAgAA' },
      },
      {
        id: '1a2f',
        rev: 1,
        att: 2,
        kind: 'led',
        tag: '0000021A3F5C',
        prio: 0,
        ttlS: 120,
        led: { colour: 'green', onMs: 200, offMs: 300, count: 3, repeat: 2 },
      },
      {
        id: 'zt0000000000001b',
        rev: 2,
        att: 1,
        kind: 'timed',
        tag: '0000021A3F5C',
        prio: 1,
        ttlS: 3600,
        at: T0 + 7_200_000,
        image: { hash: HASH, ver: HASH.slice(0, 16), size: 12, data: '5QEBAQAoAIAAAgAA' },
      },
      { id: '1a30', rev: 1, att: 1, kind: 'page', tag: '0000021A3F5C', prio: 0, ttlS: 120, page: 2, stayS: 30 },
    ],
  },
  cancel: { v: 1, ids: [['1a2c', 1]], reason: 'superseded' },
  resack: { v: 1, ids: [['1a2b', 3]] },
  config: {
    v: 1,
    cfgRev: 3,
    wifi: { ssid: 'store-42', password: 'correct horse battery' },
    ntp: ['pool.ntp.org'],
    ip: { mode: 'static', addr: '192.168.1.40', mask: '255.255.255.0', gw: '192.168.1.1', dns: ['192.168.1.1'] },
    server: { host: 'esl.example.com', port: 1884 },
    upgradeUrl: 'https://esl.example.com/station/v1/blob',
    heartbeatS: 60,
    reportS: 30,
    radio: { channel: 11, power: 10 },
  },
  cmd: { v: 1, session: 'c7', seq: 2, open: { ttlS: 600 }, line: 'status', close: false },
  time: { v: 1, t: T0 + 600_000 },
};
