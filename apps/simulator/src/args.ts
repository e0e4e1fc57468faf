import { parseArgs } from 'node:util';
import { DEFAULTS, RADIO_PROFILES, type RadioProfileName, TagId } from '@esl/contract/protocol';
import { EMU_TAG_TYPES } from './oepl/types';
import type { ProvisionOptions } from './provision';
import type { SimulatorOptions } from './simulator';
import type { FlapSpec, StationSpec } from './station';
import type { FirmwareFaults } from './station/firmware';
import type { TagSpec } from './tag';

/** `40s`, `10m`, `2h`, `500ms`, or a plain number of seconds → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text} (use e.g. 500ms, 40s, 10m, 2h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h']);
}

/** `every 20s±10s down 5s` (or `+-`) → a flapping schedule in seconds. */
export function parseFlap(text: string): FlapSpec {
  const m = /^every\s+(\S+?)(?:\s*(?:±|\+-)\s*(\S+))?\s+down\s+(\S+)$/.exec(text.trim());
  if (!m) throw new Error(`not a flap schedule: ${text} (use e.g. "every 20s±10s down 5s")`);
  return {
    everyS: parseDuration(m[1]) / 1000,
    jitterS: m[2] ? parseDuration(m[2]) / 1000 : 0,
    downS: parseDuration(m[3]) / 1000,
  };
}

/** `05:60,0A:30,1C:10` → weighted tag models. */
export function parseModels(text: string): Array<[string, number]> {
  return text.split(',').map((part) => {
    const [code, weight = '1'] = part.split(':');
    const w = Number(weight);
    if (!/^[0-9A-Fa-f]{2}$/.test(code) || !(w > 0)) throw new Error(`not a model weight: ${part} (use e.g. 05:60)`);
    return [code.toUpperCase(), w];
  });
}

/** A share of a file: `0.5` or `50%`, more than 0 and less than 1. */
export function parseShare(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(%)?$/.exec(text.trim());
  const n = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!(n > 0 && n < 1)) throw new Error(`not a share of the file: ${text} (use e.g. 0.5 or 50%)`);
  return n;
}

/**
 * The firmware flags → whether stations take firmware jobs, and their faults. Any fault implies
 * `--firmware`. The corrupted chunk is named by its byte offset, a multiple of the chunk size.
 */
export function parseFirmwareFlags(v: {
  firmware: boolean;
  corruptChunk?: string;
  disconnectAt?: string;
  rollBack: boolean;
  rollBackTags?: string;
}): FirmwareFaults | false {
  const faults: FirmwareFaults = {};
  if (v.corruptChunk !== undefined) {
    const n = Number(v.corruptChunk);
    if (!(Number.isInteger(n) && n >= 0 && n % DEFAULTS.chunk === 0)) {
      throw new Error(
        `--fw-corrupt-chunk takes the byte offset of a chunk, a multiple of ${DEFAULTS.chunk} (0, ${DEFAULTS.chunk}, …): ${v.corruptChunk}`,
      );
    }
    faults.corruptChunkAt = n;
  }
  if (v.disconnectAt !== undefined) faults.disconnectAt = parseShare(v.disconnectAt);
  if (v.rollBack) faults.rollBack = true;
  if (v.rollBackTags !== undefined) {
    const ids = v.rollBackTags
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .filter(Boolean);
    const bad = ids.find((id) => !TagId.safeParse(id).success);
    if (ids.length === 0 || bad !== undefined) {
      throw new Error(
        `--fw-roll-back-tags takes tag hardware ids (8–16 hex digits), comma-separated: ${bad ?? v.rollBackTags}`,
      );
    }
    faults.rollBackTags = ids;
  }
  if (!v.firmware && Object.keys(faults).length === 0) return false;
  return faults;
}

/** `1.AP-01:secret` → a station to attach to. */
export function parseStation(text: string): StationSpec {
  const m = /^(\d+)\.([A-Za-z0-9_-]{1,32}):(.+)$/.exec(text);
  if (!m) throw new Error(`not a station: ${text} (use TENANT.SERIAL:SECRET, e.g. 1.AP-01:3f9c…)`);
  return { tenantId: Number(m[1]), sn: m[2].toUpperCase(), secret: m[3] };
}

/** The stations file: `{ "stations": [{ "tenantId", "sn", "secret", "tags"?: [{ "id", "hw", "wakeS"? }] }] }`. */
export function parseStationsFile(json: string): StationSpec[] {
  const data = JSON.parse(json) as { stations?: unknown };
  if (!Array.isArray(data.stations)) throw new Error('the stations file needs a "stations" array');
  return data.stations.map((s: Record<string, unknown>, i) => {
    if (typeof s.tenantId !== 'number' || typeof s.sn !== 'string' || typeof s.secret !== 'string') {
      throw new Error(`stations[${i}] needs tenantId (number), sn and secret (strings)`);
    }
    const tags = Array.isArray(s.tags) ? (s.tags as TagSpec[]) : undefined;
    return {
      tenantId: s.tenantId,
      sn: s.sn.toUpperCase(),
      secret: s.secret,
      tags,
      channel: s.channel as number | undefined,
    };
  });
}

export interface CliOptions {
  sim: SimulatorOptions;
  /** Stop after this much virtual time (ms); run until Ctrl-C when absent. */
  durationMs: number | null;
  reportFile: string | null;
  quiet: boolean;
  /** Stations and tags to get through the server's API before simulating (`--api`). */
  provision: Omit<ProvisionOptions, 'rng' | 'log'> | null;
  /** The store wall's port (`--http`, 0: any free one); null: no wall. */
  httpPort: number | null;
  httpHost: string;
  /** An emulated OpenEPaperLink access point to serve (`--oepl-ap`); null: none. */
  oepl: OeplCli | null;
}

/** `--oepl-ap [HOST:]PORT` and its tags. */
export interface OeplCli {
  host: string;
  port: number;
  tags: number;
  hwTypes: number[];
  maxsleep: number;
}

/** The emulated AP's flags → its options; null without `--oepl-ap`. */
export function parseOepl(v: { ap?: string; tags: string; types: string; maxsleep: string }): OeplCli | null {
  if (v.ap === undefined) return null;
  const m = /^(?:([^:]+):)?(\d{1,5})$/.exec(v.ap);
  if (!m || Number(m[2]) > 65_535) throw new Error(`--oepl-ap takes [HOST:]PORT (0: any free port): ${v.ap}`);
  const hwTypes = v.types.split(',').map((t) => Number.parseInt(t, 16));
  if (hwTypes.some((t) => !EMU_TAG_TYPES.has(t))) {
    throw new Error(`--oepl-types takes hwTypes of ${[...EMU_TAG_TYPES.keys()].map((k) => k.toString(16)).join(', ')}`);
  }
  const tags = Number(v.tags);
  const maxsleep = Number(v.maxsleep);
  if (!(Number.isInteger(tags) && tags >= 0 && tags <= 5000)) throw new Error('--oepl-tags takes 0 to 5000');
  if (!(maxsleep >= 0 && maxsleep <= 60)) throw new Error('--oepl-maxsleep takes 0 to 60 (minutes)');
  return { host: m[1] ?? '127.0.0.1', port: Number(m[2]), tags, hwTypes, maxsleep };
}

export const USAGE = `npm run sim -- [options]

  --url URL            broker (default mqtt://127.0.0.1:1884; mqtts://HOST:8884 for TLS)
  --ca FILE            with mqtts://: PEM certificate(s) to trust, e.g. the broker's self-signed one
  --station T.SN:SECRET  a station to simulate (repeatable)

  Through the server's API, as a user would (instead of --station):
  --api URL            the server, e.g. http://127.0.0.1:8080
  --user NAME          a tenant user allowed to add stations and tags (default admin)
                       the password comes from the environment variable ESL_PASSWORD
  --store NAME         the store (added when missing; default "Simulated store")
  --add-stations N     base stations to add (default 1); each gets --tags new tags
  --sn-prefix P        serial numbers of added stations: P-01, P-02, … (default SIM)
  --attach             use the store's existing stations (each gets a new secret) and tags

  --stations-file FILE JSON: { "stations": [{ "tenantId", "sn", "secret", "tags"?: [{ "id", "hw" }] }] }
  --tags N             tags to make up per station that lists none (default 0)
  --models LIST        models of made-up tags with weights (default 05:1), e.g. 05:60,0A:30,1C:10
  --wake DURATION      wake interval of made-up tags (default 40s)
  --profile NAME       radio: ${RADIO_PROFILES.join(', ')} (default oepl-2g4)
  --speed N            virtual time runs N times faster (default 1)
  --seed S             repeatable runs (default 1)
  --loss P             extra frame loss, 0–1 (default 0)
  --flap SCHEDULE      e.g. "every 20s±10s down 5s": abrupt disconnects
  --duration DURATION  stop after this much virtual time (default: until Ctrl-C)
  --report FILE        write the run's report (JSON) there at the end
  --http PORT          serve the store wall (every tag's screen as it decoded it) on PORT (0: any)
  --http-host HOST     the wall's address (default 127.0.0.1)

  Firmware upgrades (stations report model SIM-AP, station and module 1.0.0-sim, tags 1.0.0):
  --firmware           stations take firmware jobs (apfw, modulefw, tagfw); off: refused
  --fw-corrupt-chunk OFFSET  flip a byte of the chunk at this byte offset (a multiple of ${DEFAULTS.chunk}),
                       once per station: the file fails its check (badBlob) and is pulled again
  --fw-disconnect-at SHARE   lose the connection once a pull holds this share (0.5 or 50%), once
                       per station; it resumes from the first missing offset
  --fw-roll-back       station and module upgrades install, restart and come back on the old version
  --fw-roll-back-tags IDS    these tags (hardware ids, comma-separated) keep their old firmware
                       after a transfer
                       (each --fw-… flag implies --firmware)

  An emulated OpenEPaperLink access point (docs/OEPL.md), for \`npm run bridge\`:
  --oepl-ap [HOST:]PORT  serve it there (HTTP and /ws; 0: any free port; host 127.0.0.1)
  --oepl-tags N        its tags (default 20)
  --oepl-types LIST    their tag types, hex hwTypes in turn (default 31; 30 BW, 31 BWR, 32 BWY,
                       33 BWRY, 34 4.2" portrait, 35 a size the catalogue lacks)
  --oepl-maxsleep MIN  the AP's maxsleep, minutes (default 10)
  --quiet              no log lines
  --help`;

/** The command line; `readFile` reads a --stations-file and a --ca file (the CLI passes fs, tests a map). */
export function parseCli(
  argv: string[],
  readFile: (path: string) => string,
  env: Record<string, string | undefined> = {},
): CliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: 'mqtt://127.0.0.1:1884' },
      ca: { type: 'string' },
      station: { type: 'string', multiple: true, default: [] },
      'stations-file': { type: 'string' },
      tags: { type: 'string', default: '0' },
      models: { type: 'string', default: '05:1' },
      wake: { type: 'string', default: '40s' },
      profile: { type: 'string', default: 'oepl-2g4' },
      speed: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      loss: { type: 'string', default: '0' },
      flap: { type: 'string' },
      duration: { type: 'string' },
      report: { type: 'string' },
      http: { type: 'string' },
      'http-host': { type: 'string', default: '127.0.0.1' },
      firmware: { type: 'boolean', default: false },
      'fw-corrupt-chunk': { type: 'string' },
      'fw-disconnect-at': { type: 'string' },
      'fw-roll-back': { type: 'boolean', default: false },
      'fw-roll-back-tags': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      api: { type: 'string' },
      user: { type: 'string', default: 'admin' },
      store: { type: 'string', default: 'Simulated store' },
      'add-stations': { type: 'string', default: '1' },
      'sn-prefix': { type: 'string', default: 'SIM' },
      attach: { type: 'boolean', default: false },
      'oepl-ap': { type: 'string' },
      'oepl-tags': { type: 'string', default: '20' },
      'oepl-types': { type: 'string', default: '31' },
      'oepl-maxsleep': { type: 'string', default: '10' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  const stations = values.station.map(parseStation);
  if (values['stations-file'] !== undefined) stations.push(...parseStationsFile(readFile(values['stations-file'])));
  const api = values.api;
  const oepl = parseOepl({
    ap: values['oepl-ap'],
    tags: values['oepl-tags'],
    types: values['oepl-types'],
    maxsleep: values['oepl-maxsleep'],
  });
  if (stations.length === 0 && api === undefined && oepl === null)
    throw new Error('no stations: give --station T.SN:SECRET, --stations-file FILE or --api URL');
  if (api !== undefined && stations.length > 0) throw new Error('--api provisions its own stations: drop --station');
  if (api !== undefined && !/^https?:\/\/[^\s]+$/.test(api))
    throw new Error(`--api must be an http(s) address: ${api}`);
  const password = env.ESL_PASSWORD;
  if (api !== undefined && !password)
    throw new Error('--api needs the password in the environment variable ESL_PASSWORD');
  if (values.ca !== undefined && !values.url.startsWith('mqtts://'))
    throw new Error('--ca is for a TLS broker: give an mqtts:// --url');
  const ca = values.ca === undefined ? undefined : readFile(values.ca);
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`--ca ${values.ca}: not a PEM certificate`);
  if (!(RADIO_PROFILES as readonly string[]).includes(values.profile))
    throw new Error(`unknown profile ${values.profile}`);
  const number = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (!(n >= min && n <= max)) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return n;
  };
  const models = parseModels(values.models);
  const wakeS = parseDuration(values.wake) / 1000;
  const tagsPerStation = number('tags', values.tags, 0, 100_000);
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(values['sn-prefix'])) throw new Error('--sn-prefix takes letters, digits, - and _');
  const firmware = parseFirmwareFlags({
    firmware: values.firmware,
    corruptChunk: values['fw-corrupt-chunk'],
    disconnectAt: values['fw-disconnect-at'],
    rollBack: values['fw-roll-back'],
    rollBackTags: values['fw-roll-back-tags'],
  });
  return {
    provision:
      api === undefined
        ? null
        : {
            api,
            username: values.user,
            password: password as string,
            store: values.store,
            stations: number('add-stations', values['add-stations'], 1, 1000),
            tagsPerStation,
            models,
            wakeS,
            snPrefix: values['sn-prefix'],
            attach: values.attach,
          },
    sim: {
      url: values.url,
      ...(ca === undefined ? {} : { ca }),
      stations,
      tagsPerStation,
      models,
      wakeS,
      profile: values.profile as RadioProfileName,
      speed: number('speed', values.speed, 0.001, 10_000),
      seed: values.seed,
      loss: number('loss', values.loss, 0, 1),
      flap: values.flap ? parseFlap(values.flap) : null,
      firmware,
    },
    durationMs: values.duration ? parseDuration(values.duration) : null,
    reportFile: values.report ?? null,
    quiet: values.quiet,
    httpPort: values.http === undefined ? null : Math.trunc(number('http', values.http, 0, 65_535)),
    httpHost: values['http-host'],
    oepl,
  };
}
