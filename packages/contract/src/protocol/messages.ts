import { z } from 'zod';
import {
  AckCode,
  CancelReason,
  JobKind,
  JobPrio,
  LedColour,
  PANEL_COLOUR_TYPES,
  PANEL_INKS,
  ResultCode,
  WakeReason,
} from './codes';
import { LIMITS, PROTOCOL_VERSION } from './limits';

/*
 * Every payload of the station protocol (DELIVERY.md §4.2). Objects drop fields they do not know
 * (a newer peer may add some within v1); anything malformed is refused whole. No transforms: what
 * is parsed is what was sent, and the JSON Schemas in docs/PROTOCOL.md are generated from these.
 */

const V = z.literal(PROTOCOL_VERSION).describe('protocol version');
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const U32 = int(0, 0xffff_ffff);

/** Server or station clock, Unix milliseconds. */
export const EpochMs = int(0, 8_640_000_000_000).describe('Unix time in milliseconds');
/** A job (task) id: base36, stable across attempts and content revisions. */
export const JobId = z.string().regex(/^[0-9a-z]{1,16}$/);
/** Content revision of a job: a higher rev replaces a lower one ("latest wins"). */
export const Rev = int(0, 0x7fff_ffff);
export const JobRef = z.tuple([JobId, Rev]).describe('[job id, rev]');
export type JobRef = z.infer<typeof JobRef>;
/** SHA-256 of an image or a blob, lower-case hex. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** The tag-side image version: the first 16 hex digits (64 bits) of the image's SHA-256. */
export const Ver = z.string().regex(/^[0-9a-f]{16}$/);
/** A tag's hardware id, upper-case hex (as the console shows it). */
export const TagId = z.string().regex(/^[0-9A-F]{8,16}$/);
/** A tag model's catalogue code (packages/contract models, e.g. `05`). */
export const HwCode = z.string().regex(/^[0-9A-F]{2}$/);
/** A learned tag model's key (`up/models`): vendor, a dash, the vendor's type, e.g. `oepl-35`. */
export const LEARNED_KEY = /^[a-z]{1,16}-[0-9A-Za-z-]{1,28}$/;
export const LearnedKey = z.string().regex(LEARNED_KEY);
/** A tag entry's model: a catalogue code, or the key of a model the station taught (`up/models`). */
export const TAG_HW = /^(?:[0-9A-F]{2}|[a-z]{1,16}-[0-9A-Za-z-]{1,28})$/;
export const TagHw = z
  .string()
  .regex(TAG_HW)
  .describe('catalogue code (e.g. `05`) or learned model key (e.g. `oepl-35`)');
/** A station alarm: a camelCase word (STATION_ALARMS lists the ones the server knows). */
export const AlarmCode = z.string().regex(/^[a-z][A-Za-z0-9]{0,31}$/);
/** Chosen by the station at each connect; ties its Last Will to that connection. */
export const ConnId = z.string().regex(/^[0-9A-Za-z_-]{4,32}$/);
/** A firmware version string. */
export const FwVersion = z.string().regex(/^[0-9A-Za-z._+-]{1,32}$/);
// No U+0000: PostgreSQL's text cannot hold it, so a station's NUL is invalid input on every database.
const Text = (max: number) =>
  z
    .string()
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the one character refused
    .regex(/^[^\u0000]*$/, 'no NUL characters');
const Host = z.string().regex(/^[0-9A-Za-z.:_-]{1,253}$/);
const Ip = z.union([z.ipv4(), z.ipv6()]);
const Percent = z.number().min(0).max(100);
const Dbm = z.number().min(-150).max(30);
const CmdSession = z.string().regex(/^[0-9a-z]{1,16}$/);

// ---------------------------------------------------------------------------------------------
// Station → server

export const StatusMsg = z
  .object({
    v: V,
    online: z.boolean(),
    connId: ConnId,
    at: EpochMs.describe('station clock when published (for the Will: when the connection was made)'),
  })
  .describe('Retained. `online: true` right after connecting; the Last Will is the same with `online: false`.');
export type StatusMsg = z.infer<typeof StatusMsg>;

export const StationCaps = z.object({
  queue: int(1, 1_000_000).describe('jobs the station can hold'),
  queueBytes: int(0, 0x7fff_ffff).describe('bytes of image data it can hold'),
  inlineMax: int(0, LIMITS.maxInlineBytes).describe('largest image it takes inline; larger ones come as blobs'),
  chunk: int(512, LIMITS.maxChunkBytes).describe('blob chunk size it asks for'),
  fwConcurrent: int(0, 64).describe('tag firmware transfers it runs at once'),
  kinds: z.array(JobKind).min(1).max(16).describe('job kinds it accepts'),
});
export type StationCaps = z.infer<typeof StationCaps>;

export const HelloMsg = z
  .object({
    v: V,
    connId: ConnId,
    boot: U32.describe('boot counter: goes up by one at every station restart'),
    model: Text(64).describe('station hardware model'),
    fw: z.object({ ap: FwVersion, module: FwVersion.optional().describe('radio module firmware') }),
    radio: z.object({
      profile: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,31}$/)
        .describe('radio profile, e.g. oepl-2g4'),
      channel: int(0, 255),
      kbps: z.number().positive().max(100_000),
    }),
    caps: StationCaps,
    queue: z.array(JobRef).max(LIMITS.maxRefsPerMessage).describe('every job it holds, as [id, rev]'),
    outbox: int(0, 1_000_000).describe('results waiting for `resack`; it resends them after `welcome`'),
    net: z.object({
      ip: Ip,
      mac: z.mac(),
      gw: Ip.optional(),
      mask: z.ipv4().optional(),
      ntp: Host.optional(),
    }),
    cfgRev: U32.describe('revision of the last `down/config` applied (0: never configured)'),
    time: EpochMs.describe('station clock'),
  })
  .describe('First message after every connect (after the retained status).');
export type HelloMsg = z.infer<typeof HelloMsg>;

/** What a bridge knows of the vendor access point behind it (OpenEPaperLink: the `sys` message). */
export const AccessPointState = z.object({
  apstate: int(0, 255).describe('the AP’s own state code (OEPL: 1 online)'),
  runstate: int(0, 255).describe('the AP’s run state (OEPL: 2 running)'),
  lowBattery: U32.describe('tags the AP counts with a low battery'),
  timeouts: U32.describe('tags the AP counts as timed out'),
  fw: Text(64).optional().describe('the AP’s firmware'),
  channel: int(0, 255).optional().describe('its radio channel'),
  tags: U32.optional().describe('tags it holds'),
});
export type AccessPointState = z.infer<typeof AccessPointState>;

export const HeartbeatMsg = z
  .object({
    v: V,
    at: EpochMs.describe('station clock; the server stores the skew'),
    uptimeS: U32,
    cpu: Percent,
    mem: Percent,
    disk: Percent,
    queue: z.object({ jobs: U32, bytes: int(0, Number.MAX_SAFE_INTEGER) }),
    radio: z.object({
      busyPct: Percent.describe('share of airtime in use over the last interval'),
      svcPerS: z.number().min(0).max(10_000).describe('tag services (transfers, LED, pings) per second'),
      tx: int(0, Number.MAX_SAFE_INTEGER).describe('frames sent since boot'),
      rx: int(0, Number.MAX_SAFE_INTEGER).describe('frames received since boot'),
      crcErr: int(0, Number.MAX_SAFE_INTEGER).describe('frames received with a bad CRC since boot'),
      noiseDbm: Dbm.optional(),
    }),
    tagsHeard: U32.describe('distinct tags heard within 2 × their wake interval'),
    cfgRev: U32,
    alarms: z
      .array(AlarmCode)
      .max(16)
      .refine((a) => new Set(a).size === a.length, 'alarms repeat')
      .optional()
      .describe('alarms raised now (e.g. `radioSilent`); left out or empty: none'),
    ap: AccessPointState.optional().describe('a bridge: the state of the access point it drives'),
  })
  .describe('Every `heartbeatS` (60 s by default), QoS 0.');
export type HeartbeatMsg = z.infer<typeof HeartbeatMsg>;

export const TagEntry = z.object({
  id: TagId,
  rssi: Dbm.describe('signal of the tag’s last frame at the station'),
  lqi: int(0, 255).optional(),
  battMv: int(0, 10_000),
  temp: z.number().min(-60).max(125).optional().describe('°C'),
  ver: Ver.nullable().describe('version of the image the tag holds; null: none'),
  fw: FwVersion.optional(),
  hw: TagHw,
  wakeS: int(1, 7 * 86_400)
    .optional()
    .describe('the tag’s wake interval'),
  seenAt: EpochMs.describe('station clock of the last check-in'),
  reason: WakeReason.optional().describe('why the tag woke last'),
  page: int(1, LIMITS.maxPages)
    .optional()
    .describe('the page the tag shows of a label of several pages (§5.15); left out: page 1 or one page'),
});
export type TagEntry = z.infer<typeof TagEntry>;

const InkName = z.string().regex(/^[a-z][a-z0-9_-]{0,23}$/);
const sameInks = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** A tag model the station learned from its vendor's hardware (not in the catalogue). */
export const LearnedModel = z
  .object({
    key: LearnedKey.describe('stable per vendor and type, e.g. `oepl-35`; what `up/tags` entries name in `hw`'),
    name: Text(64).min(1).describe('the vendor’s name of the type'),
    w: int(1, 4096).describe('the panel’s width in pixels'),
    h: int(1, 4096).describe('its height'),
    colours: z
      .array(InkName)
      .min(1)
      .max(16)
      .refine((c) => new Set(c).size === c.length, 'colours repeat')
      .describe('the panel’s colours in its index order (lower case)'),
    colourType: z
      .enum(PANEL_COLOUR_TYPES)
      .nullable()
      .describe('our colour type with exactly these colours; null: none (the server draws nothing for it)'),
    rotate: int(0, 3).describe('quarter turns the vendor turns the picture by (0–3)'),
    led: z.boolean(),
    button: z.boolean(),
    nfc: z.boolean(),
    source: Text(128).min(1).describe('where it came from, e.g. `shop AP, tag type 35 v1`'),
  })
  .refine((m) => m.colourType === null || sameInks(PANEL_INKS[m.colourType], m.colours), {
    message: 'colours are not those of colourType',
    path: ['colourType'],
  });
export type LearnedModel = z.infer<typeof LearnedModel>;

export const ModelsMsg = z
  .object({
    v: V,
    models: z
      .array(LearnedModel)
      .max(LIMITS.maxModelsPerMessage)
      .refine((ms) => new Set(ms.map((m) => m.key)).size === ms.length, 'keys repeat'),
  })
  .describe(
    'Tag models the station learned (every one it knows), after every `welcome` and when it learns one. QoS 1.',
  );
export type ModelsMsg = z.infer<typeof ModelsMsg>;

export const TagsMsg = z
  .object({
    v: V,
    seq: U32.describe('goes up by one per report since the connect'),
    at: EpochMs,
    full: z.boolean().describe('true: every tag heard recently; false: only changes since the last report'),
    tags: z.array(TagEntry).max(LIMITS.maxTagsPerReport),
  })
  .describe('Every `reportS` (30 s) or at 500 entries; a full report at least every 10 minutes.');
export type TagsMsg = z.infer<typeof TagsMsg>;

export const AckEntry = z.object({
  id: JobId,
  rev: Rev,
  ok: z.boolean(),
  code: AckCode.optional().describe('why not, when `ok` is false'),
});
export type AckEntry = z.infer<typeof AckEntry>;

export const AckMsg = z
  .object({ v: V, jobs: z.array(AckEntry).min(1).max(LIMITS.maxAcksPerMessage) })
  .describe('Receipt of jobs, batched at most 100 ms.');
export type AckMsg = z.infer<typeof AckMsg>;

export const ResultEntry = z.object({
  id: JobId,
  rev: Rev,
  code: ResultCode,
  tag: TagId.optional().describe('the tag concerned (roll call: one entry per tag)'),
  ver: Ver.optional().describe('the version the tag now holds'),
  at: EpochMs,
  tries: int(0, 1000).optional(),
  airMs: int(0, 86_400_000).optional().describe('airtime the job took'),
  rssi: Dbm.optional(),
  present: z.boolean().optional().describe('roll call: heard within 2 × its wake interval'),
  detail: Text(200).optional(),
});
export type ResultEntry = z.infer<typeof ResultEntry>;

export const ResultMsg = z
  .object({ v: V, results: z.array(ResultEntry).min(1).max(LIMITS.maxResultsPerMessage) })
  .describe('How jobs ended. Kept in the station’s outbox and resent until `down/resack`.');
export type ResultMsg = z.infer<typeof ResultMsg>;

export const ProgressMsg = z
  .object({ v: V, id: JobId, rev: Rev, done: U32, total: U32 })
  .describe('Firmware and large images, at most once a second per job, QoS 0.');
export type ProgressMsg = z.infer<typeof ProgressMsg>;

export const BlobRequestMsg = z
  .object({
    v: V,
    hash: Sha256Hex,
    offset: int(0, LIMITS.maxBlobBytes),
    length: int(1, LIMITS.maxChunkBytes),
  })
  .describe('Asks for one chunk of a blob; answered on `down/blob/{hash}/{offset}`.');
export type BlobRequestMsg = z.infer<typeof BlobRequestMsg>;

export const CmdOutputMsg = z
  .object({
    v: V,
    session: CmdSession,
    seq: U32,
    out: Text(LIMITS.maxCmdOutput),
    exit: int(-255, 255).optional().describe('set on the last output of a command'),
  })
  .describe('Command-window output.');
export type CmdOutputMsg = z.infer<typeof CmdOutputMsg>;

// ---------------------------------------------------------------------------------------------
// Server → station

export const WelcomeMsg = z
  .object({
    v: V,
    connId: ConnId.describe('the connId of the hello it answers'),
    time: EpochMs.describe('server clock'),
    cfgRev: U32.describe('revision of the desired config; differs from the hello’s → `down/config` follows'),
  })
  .describe('Answer to hello; followed by `cancel`/`jobs` that reconcile the queue.');
export type WelcomeMsg = z.infer<typeof WelcomeMsg>;

const JobBase = {
  id: JobId,
  rev: Rev,
  att: int(1, 1000).describe('attempt, for logs only'),
  prio: JobPrio,
  ttlS: int(1, 7 * 86_400).describe('give up this long after receipt → result timeout'),
  force: z.boolean().optional().describe('transfer even if the tag already reports `ver`'),
};

export const ImagePayload = z
  .object({
    hash: Sha256Hex,
    ver: Ver.describe('= the first 16 digits of hash'),
    size: int(1, LIMITS.maxBlobBytes).describe('bytes of the encoded image'),
    data: z
      .base64()
      .max(Math.ceil(LIMITS.maxInlineBytes / 3) * 4)
      .optional()
      .describe('the image, if inline'),
  })
  .refine((i) => i.hash.startsWith(i.ver), { message: 'ver is not the start of hash', path: ['ver'] })
  .refine((i) => i.data === undefined || base64Length(i.data) === i.size, {
    message: 'data is not size bytes',
    path: ['data'],
  });

export const LedPattern = z.object({
  colour: LedColour,
  onMs: int(1, 10_000),
  offMs: int(0, 10_000),
  count: int(1, 100).describe('flashes per repeat'),
  repeat: int(1, 1000),
});
export type LedPattern = z.infer<typeof LedPattern>;

export const FwPayload = z.object({
  version: FwVersion,
  hash: Sha256Hex,
  size: int(1, LIMITS.maxBlobBytes),
  hw: z.array(HwCode).max(64).optional().describe('tag models it is for (tag firmware)'),
});

/** What a tag with NFC gives a phone held to it: a URI record or a text record (NDEF). */
export const NfcPayload = z.object({
  type: z.enum(['uri', 'text']).describe('NDEF record type: `uri` (a product page) or `text`'),
  value: Text(512).min(1).describe('the URI or the text, UTF-8'),
});
export type NfcPayload = z.infer<typeof NfcPayload>;

const tagJob = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ ...JobBase, kind: z.literal(kind), tag: TagId, ...shape });
const stationJob = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ ...JobBase, kind: z.literal(kind), ...shape });

export const Job = z.discriminatedUnion('kind', [
  tagJob('image', { image: ImagePayload }),
  tagJob('led', { led: LedPattern }),
  tagJob('ping', { led: LedPattern.optional().describe('flash while answering, to find the tag') }),
  tagJob('tagcfg', { cfg: z.object({ wakeS: int(1, 7 * 86_400).optional() }) }),
  tagJob('tagfw', { fw: FwPayload }),
  stationJob('rollcall', {}),
  stationJob('apfw', { fw: FwPayload }),
  stationJob('modulefw', { fw: FwPayload }),
  // Timed image (docs/PROTOCOL.md §5.14): held by the tag beside what it shows, shown at `at`.
  tagJob('timed', {
    image: ImagePayload,
    at: EpochMs.describe('server time at which the tag shows it (held until then)'),
  }),
  // Page switch (docs/PROTOCOL.md §5.15): the tag shows another page of the label it holds, no image sent.
  tagJob('page', {
    page: int(1, LIMITS.maxPages).describe('the page to show (1: the first)'),
    stayS: int(0, 86_400).describe('seconds it stays before the tag goes back to page 1; 0: it stays'),
    at: EpochMs.optional().describe('server time at which the tag switches (held until then); left out: at once'),
  }),
  // NFC content (docs/PROTOCOL.md §5.16, docs/SHELF.md): what a phone held to the tag reads.
  tagJob('nfc', { nfc: NfcPayload }),
]);
export type Job = z.infer<typeof Job>;
export type JobInput = z.input<typeof Job>;
export const JobsMsg = z
  .object({ v: V, jobs: z.array(Job).min(1).max(LIMITS.maxJobsPerMessage) })
  .describe('New jobs, or higher revs of held ones.');
export type JobsMsg = z.infer<typeof JobsMsg>;

export const CancelMsg = z
  .object({ v: V, ids: z.array(JobRef).min(1).max(LIMITS.maxRefsPerMessage), reason: CancelReason })
  .describe('Drop these jobs (any rev ≤ the given one); a transfer already running finishes or aborts.');
export type CancelMsg = z.infer<typeof CancelMsg>;

export const ResackMsg = z
  .object({ v: V, ids: z.array(JobRef).min(1).max(LIMITS.maxRefsPerMessage) })
  .describe('These results are stored; the station may drop them from its outbox.');
export type ResackMsg = z.infer<typeof ResackMsg>;

export const StationConfigMsg = z
  .object({
    v: V,
    cfgRev: U32,
    wifi: z
      .object({ ssid: Text(32).min(1), password: Text(64) })
      .optional()
      .describe('write-only: a station never reports or logs the password'),
    ntp: z.array(Host).max(4).optional().describe('NTP servers; the station needs none (the server sends time)'),
    ip: z
      .discriminatedUnion('mode', [
        z.object({ mode: z.literal('dhcp') }),
        z.object({ mode: z.literal('static'), addr: Ip, mask: z.ipv4(), gw: Ip, dns: z.array(Ip).max(2).optional() }),
      ])
      .optional(),
    server: z
      .object({ host: Host, port: int(1, 65_535) })
      .optional()
      .describe('MQTT broker to use'),
    upgradeUrl: z.url().max(512).optional().describe('where to fetch firmware over HTTP (optional)'),
    heartbeatS: int(10, 3600),
    reportS: int(5, 3600),
    radio: z.object({ channel: int(0, 255), power: int(-30, 30).describe('dBm') }).optional(),
  })
  .describe(
    'Desired configuration. A group left out keeps what the station has; the station reports `cfgRev` once applied.',
  );
export type StationConfigMsg = z.infer<typeof StationConfigMsg>;

export const CmdMsg = z
  .object({
    v: V,
    session: CmdSession,
    seq: U32,
    open: z
      .object({ ttlS: int(1, 3600) })
      .optional()
      .describe('opens the session'),
    line: Text(LIMITS.maxCmdLine)
      .optional()
      .describe('a command line (allow-list: status, ping, scan, channel, log, reboot)'),
    close: z.boolean().optional(),
  })
  .describe('Command window: open a session, send a line, close.');
export type CmdMsg = z.infer<typeof CmdMsg>;

export const TimeMsg = z
  .object({ v: V, t: EpochMs.describe('server clock') })
  .describe('Server time, every 10 minutes, QoS 0.');
export type TimeMsg = z.infer<typeof TimeMsg>;

/** Bytes a base64 string decodes to (the string is already known to be valid base64). */
function base64Length(s: string): number {
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return (s.length / 4) * 3 - pad;
}
