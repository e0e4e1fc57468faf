import { z } from 'zod';
import { Id, Line, Paging } from '../common';
import { STATION_COMMANDS } from '../protocol/codes';

/** Characters of a host name or address (server, NTP). */
export const HOST_NAME_CHARS = 253;
/** Characters of a station's upgrade URL. */
export const UPGRADE_URL_CHARS = 512;
const HostName = z
  .string()
  .trim()
  .regex(new RegExp(`^[0-9A-Za-z.:_-]{1,${HOST_NAME_CHARS}}$`), 'invalid');
const Ipv4OrEmpty = z.union([z.literal(''), z.ipv4('invalid')]);

/**
 * A base station's desired configuration as the console edits it (DELIVERY.md §4.3). The server
 * sends it as `down/config` with a new revision; the station reports the revision it applied.
 * Empty text means "the station keeps its own" (no WiFi, no NTP, its own broker address).
 */
export const StationConfigFields = z.object({
  wifiSsid: Line(32).default(''),
  ntpServers: z.array(HostName).max(4).default([]),
  ipMode: z.enum(['dhcp', 'static']).default('dhcp'),
  ip: Ipv4OrEmpty.default(''),
  mask: Ipv4OrEmpty.default(''),
  gateway: Ipv4OrEmpty.default(''),
  serverHost: z.union([z.literal(''), HostName]).default(''),
  serverPort: z.number().int().min(1).max(65_535).nullable().default(null),
  upgradeUrl: z.union([z.literal(''), z.url('invalid').max(UPGRADE_URL_CHARS)]).default(''),
  heartbeatS: z.number().int().min(10).max(3600).default(60),
  reportS: z.number().int().min(5).max(3600).default(30),
});

/** A static address needs the address, mask and gateway; a WiFi password needs a network name. */
const staticNeedsAddresses = <T extends z.infer<typeof StationConfigFields>>(c: T, ctx: z.RefinementCtx) => {
  if (c.ipMode !== 'static') return;
  for (const key of ['ip', 'mask', 'gateway'] as const) {
    if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required' });
  }
};

export type StationConfigFields = z.infer<typeof StationConfigFields>;

export const StationConfig = StationConfigFields.extend({
  /** Write-only: answers only say whether one is set (`wifiPasswordSet`). */
  wifiPasswordSet: z.boolean(),
});
export type StationConfig = z.infer<typeof StationConfig>;

export const StationConfigInput = StationConfigFields.extend({
  /** Write-only. Left out: the stored one stays; '' removes it. */
  wifiPassword: z
    .string()
    .max(64, 'tooLong')
    .refine((s) => !/[\r\n\0]/.test(s), 'invalid')
    .optional(),
}).superRefine(staticNeedsAddresses);
export type StationConfigInput = z.input<typeof StationConfigInput>;

/** Where the station is with the desired configuration. */
export const ConfigState = z.enum(['none', 'pending', 'applied']);
export type ConfigState = z.infer<typeof ConfigState>;

/** What a bridge reports of the vendor access point behind it (docs/PROTOCOL.md §5.7). */
export const AccessPointStatus = z.object({
  /** The AP's state and run state codes (OpenEPaperLink: 1 online, 2 running). */
  apstate: z.number().int(),
  runstate: z.number().int(),
  /** Tags the AP counts with a low battery, and timed out. */
  lowBattery: z.number().int(),
  timeouts: z.number().int(),
  /** Its firmware, radio channel and tag count; null where the bridge does not know them. */
  fw: z.string().nullable(),
  channel: z.number().int().nullable(),
  tags: z.number().int().nullable(),
});
export type AccessPointStatus = z.infer<typeof AccessPointStatus>;

/**
 * What a base station is: `station` speaks docs/PROTOCOL.md itself (the secret "add" answers goes
 * into it); `oepl` is an OpenEPaperLink access point at `apUrl`, driven by a bridge the server
 * runs in its own process (docs/OEPL.md), so the server holds its secret and no one else needs it.
 */
export const StationKind = z.enum(['station', 'oepl']);
export type StationKind = z.infer<typeof StationKind>;

/** Characters of an access point's address. */
export const AP_URL_CHARS = 200;

/**
 * An OpenEPaperLink AP's address: `http://HOST[:PORT]` (or https), nothing after the host and
 * port but an optional `/`, no user name or password. Answers the origin (`http://host:port`).
 */
export const ApUrl = z
  .string()
  .trim()
  .min(1, 'required')
  .max(AP_URL_CHARS, 'tooLong')
  .refine((s) => apOrigin(s) !== null, 'apUrl')
  .transform((s) => apOrigin(s) as string);

/** The origin of an AP address, or null when it is not `http[s]://HOST[:PORT][/]`. */
export function apOrigin(raw: string): string | null {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(raw)) return null;
  try {
    const url = new URL(raw);
    if (url.username || url.password || !url.hostname) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * A base station (access point) of the current store. The runtime figures stay null or empty
 * until the station reports them over MQTT (hello and heartbeat, docs/PROTOCOL.md).
 */
export const Station = z.object({
  id: z.number().int(),
  /** Serial number, upper case, unique per tenant. */
  sn: z.string(),
  name: z.string(),
  module: z.string(),
  /** Usage in percent, 0–100; null until reported. */
  cpu: z.number().nullable(),
  memory: z.number().nullable(),
  disk: z.number().nullable(),
  ip: z.string(),
  mac: z.string(),
  /** Network figures the station reported in its hello (the desired ones are in `config`). */
  ntpServer: z.string(),
  gateway: z.string(),
  mask: z.string(),
  serverAddress: z.string(),
  serverPort: z.number().int().nullable(),
  upgradeUrl: z.string(),
  firmware: z.string(),
  /** Unix ms of the last heartbeat; null when the station never reported. */
  lastHeartbeat: z.number().int().nullable(),
  online: z.boolean(),
  createdAt: z.number().int(),
  /** Radio-module firmware the station reported. */
  moduleFirmware: z.string(),
  /** Seconds since the station booted, at its last heartbeat. */
  uptimeS: z.number().int().nullable(),
  /** Jobs (and bytes of image data) waiting in the station's queue. */
  queueJobs: z.number().int().nullable(),
  queueBytes: z.number().int().nullable(),
  /** Share of airtime the station's radio was busy, %. */
  radioBusyPct: z.number().nullable(),
  /** Tags the station heard recently. */
  tagsHeard: z.number().int().nullable(),
  /** Station clock minus server clock, ms (the server warns above 5 s). */
  clockSkewMs: z.number().int().nullable(),
  /** The desired configuration; the WiFi password never leaves the server. */
  config: StationConfig,
  /** Revision of the desired configuration (0: never set) and the one the station last reported. */
  configRev: z.number().int(),
  configAppliedRev: z.number().int().nullable(),
  configState: ConfigState,
  kind: StationKind,
  /** For `oepl`: the access point's address (`http://HOST[:PORT]`); '' otherwise. */
  apUrl: z.string(),
  /** Alarms the station's last heartbeat raised (STATION_ALARMS, e.g. `radioSilent`); empty: none. */
  alarms: z.array(z.string()),
  /** The access point a bridge drives, as its last heartbeat described it; null: not a bridge. */
  ap: AccessPointStatus.nullable(),
});
export type Station = z.infer<typeof Station>;

/** Serial numbers: letters, digits, '-' and '_'; stored upper case. */
export const StationSn = z
  .string()
  .trim()
  .min(1, 'required')
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'invalid')
  .transform((s) => s.toUpperCase());

export const AddStationBody = z
  .object({
    sn: StationSn,
    name: Line(64).default(''),
    module: Line(32).default(''),
    kind: StationKind.default('station'),
    /** Required for `oepl`; not taken for `station`. */
    apUrl: z
      .string()
      .trim()
      .max(AP_URL_CHARS, 'tooLong')
      .refine((v) => v === '' || apOrigin(v) !== null, 'apUrl')
      .transform((v) => (v === '' ? '' : (apOrigin(v) as string)))
      .default(''),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'oepl' && !b.apUrl) ctx.addIssue({ code: 'custom', path: ['apUrl'], message: 'required' });
    if (b.kind === 'station' && b.apUrl) ctx.addIssue({ code: 'custom', path: ['apUrl'], message: 'stationKind' });
  });

/** A station's name, and an OEPL station's AP address (its bridge restarts on a new one). */
export const EditStationBody = z.object({
  id: Id,
  name: Line(64).optional(),
  apUrl: ApUrl.optional(),
});

/** Reads `GET /sysinfo` of an OpenEPaperLink AP before it is added or changed. */
export const TestStationApBody = z.object({ apUrl: ApUrl });

/** Why an AP could not be read (the console says each in the user's language). */
export const ApTestFailure = z.enum(['address', 'unresolved', 'refused', 'timeout', 'unreachable', 'http', 'notOepl']);
export type ApTestFailure = z.infer<typeof ApTestFailure>;

/** What the server found at the address: an AP and its figures, or why not. */
export const TestStationApData = z.object({
  ok: z.boolean(),
  apUrl: z.string(),
  failure: ApTestFailure.nullable(),
  /** The HTTP status, for `http`. */
  status: z.number().int().nullable(),
  /** From the AP's /sysinfo (short, printable; '' when absent). */
  alias: z.string(),
  firmware: z.string(),
  env: z.string(),
  /** How long the AP took to answer, ms. */
  ms: z.number().int(),
});
export type TestStationApData = z.infer<typeof TestStationApData>;

/** The added station plus its MQTT secret, shown this once; the server keeps only a hash of it. */
/** For `oepl` the secret is '' (the server holds the station's login; nothing to configure). */
/**
 * Where and as whom a station logs in (docs/PROTOCOL.md §2), answered with its secret so the
 * person setting the station up has all of it in one place. The server says it: from
 * MQTT_PUBLIC_URL, or its broker's listener and the address the console reached it by.
 */
export const StationLogin = z.object({
  /** `host:port` of the broker's plain MQTT listener; null: none (only TLS, or no station broker). */
  address: z.string().nullable(),
  /** `host:port` of its MQTT over TLS listener; null: none. */
  tlsAddress: z.string().nullable(),
  /** The MQTT user name, also the client id: `{tenantId}.{serial}`. */
  username: z.string(),
  /** The broker listens only on the server's own machine: a station elsewhere cannot reach it. */
  localOnly: z.boolean(),
});
export type StationLogin = z.infer<typeof StationLogin>;

export const AddStationData = Station.extend({ secret: z.string(), login: StationLogin });
export type AddStationData = z.infer<typeof AddStationData>;

export const StationListBody = Paging.extend({
  /** Contained in the serial number or the name, case-insensitive. */
  text: Line(64).optional(),
  online: z.boolean().optional(),
});

export const SetStationConfigBody = z.object({ id: Id, config: StationConfigInput });
export const SetStationConfigData = z.object({
  id: z.number().int(),
  configRev: z.number().int(),
  /** Whether the station was online and was sent the configuration now (else at its next hello). */
  sent: z.boolean(),
});

/** A command-window session id (the protocol's `session`). */
export const CmdSessionId = z.string().regex(/^[0-9a-z]{1,16}$/, 'invalid');

export const OpenCmdWindowBody = z.object({ id: Id });
/** The session is open; output comes back to this console session only, as `station.cmd` notices. */
export const OpenCmdWindowData = z.object({
  id: z.number().int(),
  sn: z.string(),
  session: CmdSessionId,
  /** The session closes by itself after this long without a line. */
  ttlS: z.number().int(),
  /** The commands the station accepts (`log` as `log tail [n]`). */
  commands: z.array(z.string()),
});

/**
 * A command line. Whether it is allowed (`isAllowedCommand`) the server checks after naming the
 * line in the operation log, so a refused line is logged too.
 */
export const CmdLine = z.string().trim().min(1, 'required').max(200, 'tooLong');

export const StationCmdBody = z.object({
  id: Id,
  session: CmdSessionId,
  line: CmdLine.optional(),
  /** Closes the session (after the line, if any). */
  close: z.boolean().optional(),
});
export const StationCmdData = z.object({ seq: z.number().int() });

/** A `station.cmd` notice: output of one command-window line, to the session that opened it. */
export const StationCmdNotice = z.object({
  type: z.literal('station.cmd'),
  id: z.number().int(),
  session: CmdSessionId,
  seq: z.number().int(),
  out: z.string(),
  exit: z.number().int().optional(),
});
export type StationCmdNotice = z.infer<typeof StationCmdNotice>;

/**
 * The command-window allow-list (DELIVERY.md §4.4): status, ping, scan, channel, log tail [n],
 * reboot; arguments are short words of letters, digits, '.', ':' and '-'.
 */
export function isAllowedCommand(line: string): boolean {
  const [word = '', ...args] = line.trim().split(/\s+/);
  if (!(STATION_COMMANDS as readonly string[]).includes(word)) return false;
  if (args.length > 3 || args.some((a) => !/^[0-9A-Za-z.:-]{1,64}$/.test(a))) return false;
  if (word === 'log')
    return args[0] === 'tail' && args.length <= 2 && (args[1] === undefined || /^\d{1,3}$/.test(args[1]));
  if (word === 'status' || word === 'reboot' || word === 'scan') return args.length === 0;
  return true;
}

export const RenewStationSecretBody = z.object({ id: Id });
/**
 * The station's new MQTT secret, shown this once. The old one stops working at once and a
 * connection made with it is closed; the station must be configured with the new one.
 */
export const RenewStationSecretData = z.object({
  id: z.number().int(),
  sn: z.string(),
  secret: z.string(),
  login: StationLogin,
});
export type RenewStationSecretData = z.infer<typeof RenewStationSecretData>;
