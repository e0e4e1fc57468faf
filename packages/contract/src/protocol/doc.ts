import { z } from 'zod';
import { encodeMessage } from './codec';
import {
  ACK_CODE_INFO,
  CANCEL_REASONS,
  JOB_KINDS,
  LED_COLOURS,
  RESULT_CODE_INFO,
  RESULT_CODES,
  STATION_ALARM_INFO,
  STATION_COMMANDS,
  WAKE_REASONS,
} from './codes';
import { EXAMPLE_IMAGE_HASH, EXAMPLES } from './examples';
import { FIRMWARE_HEADER_MAX, FIRMWARE_MAGIC, FIRMWARE_PAYLOAD_MAX, FirmwareHeader } from './firmware';
import { DEFAULTS, LIMITS, TOPIC_ROOT } from './limits';
import { BLOB_CHUNK, MESSAGE_NAMES, MESSAGES, type MessageInput, type MessageName } from './registry';

/*
 * The generated parts of docs/PROTOCOL.md. The prose around them is written by hand; these blocks
 * come from the schemas, so the document cannot drift from the code (a test compares them).
 * Regenerate: `node --import tsx packages/contract/scripts/protocol-doc.ts`.
 */

const BEGIN = (name: string) => `<!-- BEGIN GENERATED ${name} (packages/contract/scripts/protocol-doc.ts) -->`;
const END = (name: string) => `<!-- END GENERATED ${name} -->`;

/** Formats the JSON Schema specification defines: the regular expression zod adds says no more. */
const STANDARD_FORMATS = new Set(['ipv4', 'ipv6', 'mac', 'base64', 'uri']);

export function jsonSchemaOf(name: MessageName): Record<string, unknown> {
  const schema = z.toJSONSchema(MESSAGES[name].schema, {
    io: 'input',
    override: (ctx) => {
      const s = ctx.jsonSchema as Record<string, unknown>;
      if (typeof s.format === 'string' && STANDARD_FORMATS.has(s.format)) delete s.pattern;
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

const code = (s: string) => `\`${s}\``;
const json = (v: unknown) => JSON.stringify(v, null, 2);
const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;
const dirText = (dir: 'up' | 'down') => (dir === 'up' ? 'station → server' : 'server → station');

function topicsTable(): string {
  const rows = MESSAGE_NAMES.map((n) => {
    const m = MESSAGES[n];
    return `| ${code(m.path)} | [${n}](#${n.toLowerCase()}) | ${dirText(m.dir)} | ${m.qos} | ${m.retain ? 'yes' : ''} | ${m.summary} |`;
  });
  const b = BLOB_CHUNK;
  rows.push(`| ${code(b.path)} | [blob chunk](#blob-chunk) | ${dirText(b.dir)} | ${b.qos} | | ${b.summary} |`);
  return [
    '| topic (after `esl/v1/{tid}/{sn}/`) | message | direction | QoS | retained | what |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function limitsTable(): string {
  const rows = [
    ['largest JSON payload', `${LIMITS.maxMessageBytes} bytes`],
    ['largest MQTT packet (embedded broker)', `${LIMITS.maxPacketBytes} bytes`],
    ['jobs per `down/jobs`', LIMITS.maxJobsPerMessage],
    ['entries per `up/tags`', LIMITS.maxTagsPerReport],
    ['models per `up/models`', LIMITS.maxModelsPerMessage],
    ['entries per `up/ack` / `up/result`', `${LIMITS.maxAcksPerMessage} / ${LIMITS.maxResultsPerMessage}`],
    ['`[id, rev]` pairs per `hello.queue`, `down/cancel`, `down/resack`', LIMITS.maxRefsPerMessage],
    ['inline image (hard cap; a station advertises `caps.inlineMax`)', `${LIMITS.maxInlineBytes} bytes`],
    ['blob chunk a station may ask for', `${LIMITS.maxChunkBytes} bytes`],
    ['blob requests in flight per station', LIMITS.maxBlobRequestsInFlight],
    ['command line / command output per message', `${LIMITS.maxCmdLine} / ${LIMITS.maxCmdOutput} characters`],
    ['heartbeat interval (default, `down/config` changes it)', `${DEFAULTS.heartbeatS} s`],
    ['tag report interval (default)', `${DEFAULTS.reportS} s`],
    ['full tag report at least every', `${DEFAULTS.fullReportS} s`],
    ['ack batching at most', `${DEFAULTS.ackBatchMs} ms`],
    ['`down/time` every', `${DEFAULTS.timeS} s`],
    ['offline after silence of', `${DEFAULTS.missedHeartbeats} × heartbeat interval`],
    ['MQTT keepalive (recommended / largest accepted)', `${DEFAULTS.keepaliveS} s / ${DEFAULTS.maxKeepaliveS} s`],
    ['default `caps.inlineMax` / `caps.chunk`', `${DEFAULTS.inlineMax} / ${DEFAULTS.chunk} bytes`],
  ];
  return ['| limit | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

function codesBlock(): string {
  const result = RESULT_CODES.map(
    (c) => `| ${code(c)} | ${RESULT_CODE_INFO[c].meaning} | ${RESULT_CODE_INFO[c].handling} |`,
  );
  const ack = Object.entries(ACK_CODE_INFO).map(([c, m]) => `| ${code(c)} | ${m} |`);
  const list = (xs: readonly string[]) => xs.map(code).join(', ');
  const alarms = Object.entries(STATION_ALARM_INFO).map(([c, m]) => `| ${code(c)} | ${m} |`);
  return [
    '**Result codes** (`up/result` `code`):',
    '',
    '| code | meaning | what the server does |',
    '|---|---|---|',
    ...result,
    '',
    '**Ack codes** (`up/ack` `code`, with `ok: false`):',
    '',
    '| code | meaning |',
    '|---|---|',
    ...ack,
    '',
    '**Alarms** (`up/heartbeat` `alarms`; the server keeps these and counts any other):',
    '',
    '| alarm | meaning |',
    '|---|---|',
    ...alarms,
    '',
    `- **Job kinds**: ${list(JOB_KINDS)}.`,
    `- **Cancel reasons**: ${list(CANCEL_REASONS)}.`,
    `- **Wake reasons**: ${list(WAKE_REASONS)}.`,
    `- **LED colours**: ${list(LED_COLOURS)}.`,
    `- **Command-window allow-list**: ${list(STATION_COMMANDS)}.`,
  ].join('\n');
}

function messagesBlock(): string {
  const parts: string[] = [];
  for (const name of MESSAGE_NAMES) {
    const m = MESSAGES[name];
    const schema = jsonSchemaOf(name);
    parts.push(
      `### ${name}`,
      '',
      `${code(`${TOPIC_ROOT}/{tid}/{sn}/${m.path}`)} · ${dirText(m.dir)} · QoS ${m.qos}${m.retain ? ' · retained' : ''}`,
      '',
      typeof schema.description === 'string' ? schema.description : m.summary,
      '',
      'Example:',
      '',
      fence('json', json(EXAMPLES[name])),
      '',
      '<details><summary>JSON Schema</summary>',
      '',
      fence('json', json(schema)),
      '',
      '</details>',
      '',
    );
  }
  parts.push(
    '### blob chunk',
    '',
    `${code(`${TOPIC_ROOT}/{tid}/{sn}/${BLOB_CHUNK.path}`)} · ${dirText('down')} · QoS ${BLOB_CHUNK.qos}`,
    '',
    'The payload is raw bytes, not JSON: the blob bytes from `offset`, as many as the request’s',
    '`length` asked for (fewer only at the end of the blob). `hash` is the blob’s SHA-256 in lower-case',
    'hex and `offset` a decimal byte offset without leading zeros.',
  );
  return parts.join('\n');
}

/** One step of the worked example: who sends what, when. */
type Step =
  | { at: number; note: string }
  | { [K in MessageName]: { at: number; name: K; body: MessageInput<K>; note?: string } }[MessageName]
  | { at: number; raw: string; topic: string; note?: string };

const tid = 7;
const sn = 'AP-01';
const root = `${TOPIC_ROOT}/${tid}/${sn}`;
const T = 1_767_225_600_000;
const img = EXAMPLE_IMAGE_HASH;
const ver = img.slice(0, 16);
const bigHash = 'c0ffee00'.repeat(8);

/** A station that rebooted holding two jobs reconnects, resyncs and updates a tag. */
export const EXAMPLE_SESSION: readonly Step[] = [
  {
    at: 0,
    note: `CONNECT clientId=${tid}.${sn} username=${tid}.${sn} password=<secret> clean=true keepalive=60, will: topic=${root}/status retain=true qos=1 payload={"v":1,"online":false,"connId":"k3v9q2","at":${T}}`,
  },
  { at: 0, name: 'status', body: { v: 1, online: true, connId: 'k3v9q2', at: T } },
  {
    at: 5,
    name: 'hello',
    body: {
      ...EXAMPLES.hello,
      connId: 'k3v9q2',
      queue: [
        ['1a2b', 2],
        ['1a2c', 1],
      ],
      outbox: 1,
      time: T + 5,
    },
    note: 'it holds 1a2b at rev 2 and 1a2c; one result waits in its outbox',
  },
  { at: 40, name: 'welcome', body: { v: 1, connId: 'k3v9q2', time: T + 38, cfgRev: 2 } },
  {
    at: 41,
    name: 'cancel',
    body: { v: 1, ids: [['1a2c', 1]], reason: 'superseded' },
    note: 'the server no longer wants 1a2c',
  },
  {
    at: 42,
    name: 'jobs',
    body: {
      v: 1,
      jobs: [
        {
          id: '1a2b',
          rev: 3,
          att: 1,
          kind: 'image',
          tag: '0000021A3F5C',
          prio: 1,
          ttlS: 300,
          image: { hash: img, ver, size: 12, data: '5QEBAQAoAIAAAgAA' },
        },
      ],
    },
    note: 'rev 3 replaces the rev 2 the station holds',
  },
  {
    at: 45,
    name: 'result',
    body: {
      v: 1,
      results: [{ id: '19zz', rev: 1, code: 'ok', tag: '00000219AA01', ver: 'aa00bb11cc22dd33', at: T - 9000 }],
    },
    note: 'the outbox, resent after welcome',
  },
  { at: 60, name: 'resack', body: { v: 1, ids: [['19zz', 1]] }, note: 'stored: the station forgets it' },
  { at: 130, name: 'ack', body: { v: 1, jobs: [{ id: '1a2b', rev: 3, ok: true }] } },
  { at: 31_000, note: 'tag 0000021A3F5C wakes, checks in with another version; the station transfers the image' },
  {
    at: 31_110,
    name: 'result',
    body: {
      v: 1,
      results: [
        { id: '1a2b', rev: 3, code: 'ok', tag: '0000021A3F5C', ver, at: T + 31_105, tries: 1, airMs: 103, rssi: -62 },
      ],
    },
  },
  { at: 31_140, name: 'resack', body: { v: 1, ids: [['1a2b', 3]] } },
  {
    at: 35_000,
    name: 'tags',
    body: {
      v: 1,
      seq: 1,
      at: T + 35_000,
      full: false,
      tags: [
        {
          id: '0000021A3F5C',
          rssi: -62,
          lqi: 198,
          battMv: 2948,
          temp: 21.5,
          ver,
          hw: '05',
          wakeS: 40,
          seenAt: T + 31_000,
        },
      ],
    },
    note: 'the next report confirms the version the tag holds',
  },
  {
    at: 60_000,
    name: 'heartbeat',
    body: { ...EXAMPLES.heartbeat, at: T + 60_000, uptimeS: 60, queue: { jobs: 0, bytes: 0 } },
  },
  {
    at: 61_000,
    name: 'jobs',
    body: {
      v: 1,
      jobs: [
        {
          id: '1a31',
          rev: 1,
          att: 1,
          kind: 'image',
          tag: '00000219AA01',
          prio: 2,
          ttlS: 600,
          image: { hash: bigHash, ver: bigHash.slice(0, 16), size: 40_000 },
        },
      ],
    },
    note: 'too big to inline: the station pulls it as a blob',
  },
  { at: 61_050, name: 'ack', body: { v: 1, jobs: [{ id: '1a31', rev: 1, ok: true }] } },
  { at: 61_060, name: 'blobRequest', body: { v: 1, hash: bigHash, offset: 0, length: 16_384 } },
  { at: 61_061, name: 'blobRequest', body: { v: 1, hash: bigHash, offset: 16_384, length: 16_384 } },
  { at: 61_062, name: 'blobRequest', body: { v: 1, hash: bigHash, offset: 32_768, length: 7232 } },
  { at: 61_080, topic: `${root}/down/blob/${bigHash}/0`, raw: '16384 bytes' },
  { at: 61_085, topic: `${root}/down/blob/${bigHash}/16384`, raw: '16384 bytes' },
  { at: 61_090, topic: `${root}/down/blob/${bigHash}/32768`, raw: '7232 bytes' },
  { at: 61_100, note: 'the station checks the SHA-256 of the 40,000 bytes, then waits for the tag to wake' },
  { at: 95_000, note: 'power cut' },
  {
    at: 185_000,
    name: 'status',
    body: { v: 1, online: false, connId: 'k3v9q2', at: T },
    note: 'silence for 1.5 × keepalive: the broker publishes the Will on the station’s behalf',
  },
];

function sessionBlock(): string {
  const lines: string[] = [];
  for (const step of EXAMPLE_SESSION) {
    const t = `+${(step.at / 1000).toFixed(3)} s`;
    if ('raw' in step) {
      lines.push(`${t}  S ← ${step.topic.slice(root.length + 1)}  <${step.raw}>`);
    } else if ('name' in step) {
      const m = MESSAGES[step.name];
      // encodeMessage checks each step against its schema: an invalid example cannot be generated.
      const body = encodeMessage(step.name, step.body as never);
      if (step.note) lines.push(`${t}  -- ${step.note}`);
      lines.push(`${t}  ${m.dir === 'up' ? 'S →' : 'S ←'} ${m.path}${m.retain ? ' (retained)' : ''}  ${body}`);
    } else {
      lines.push(`${t}  -- ${step.note}`);
    }
  }
  return fence('text', lines.join('\n'));
}

/** The firmware file's header: its JSON Schema and an example (docs/PROTOCOL.md §10). */
export function firmwareHeaderSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(FirmwareHeader, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

function firmwareBlock(): string {
  const example: FirmwareHeader = FirmwareHeader.parse({
    kind: 'tag',
    version: '1.1.0',
    hw: ['05', '0A'],
    size: 61_440,
    sha256: 'c0ffee00'.repeat(8),
    name: 'tag firmware 1.1.0',
  });
  return [
    '| bytes | what |',
    '|---|---|',
    `| 0–${FIRMWARE_MAGIC.length - 1} | ${code(FIRMWARE_MAGIC)} (ASCII) |`,
    `| ${FIRMWARE_MAGIC.length}–${FIRMWARE_MAGIC.length + 1} | length *H* of the header, big-endian, 1–${FIRMWARE_HEADER_MAX} |`,
    `| ${FIRMWARE_MAGIC.length + 2} … ${FIRMWARE_MAGIC.length + 1} + *H* | the header, UTF-8 JSON (schema below) |`,
    `| then | exactly \`size\` bytes of payload (at most ${FIRMWARE_PAYLOAD_MAX} bytes); nothing after it |`,
    '',
    'Example header:',
    '',
    fence('json', json(example)),
    '',
    '<details><summary>JSON Schema of the header</summary>',
    '',
    fence('json', json(firmwareHeaderSchema())),
    '',
    '</details>',
  ].join('\n');
}

export function renderBlocks(): Record<string, string> {
  return {
    firmware: firmwareBlock(),
    topics: topicsTable(),
    limits: limitsTable(),
    codes: codesBlock(),
    session: sessionBlock(),
    messages: messagesBlock(),
  };
}

/** The document with every generated block replaced by its current text. */
export function applyBlocks(markdown: string, blocks: Record<string, string> = renderBlocks()): string {
  let out = markdown;
  for (const [name, body] of Object.entries(blocks)) {
    const begin = BEGIN(name);
    const end = END(name);
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/PROTOCOL.md lacks the markers of block ${name}`);
    out = `${out.slice(0, from + begin.length)}\n${body}\n${out.slice(to)}`;
  }
  return out;
}

export const blockMarkers = { BEGIN, END };
