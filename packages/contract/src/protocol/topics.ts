import { TOPIC_ROOT } from './limits';

/**
 * Topic names of the station protocol. A station's topics sit under `esl/v1/{tid}/{sn}/`: the
 * tenant id and the serial are its identity, so no store appears (a station can move between
 * stores; its topics must not change).
 */

/** Tenant ids are positive decimal integers without leading zeros. */
const TID = /^[1-9][0-9]{0,15}$/;
/** Serials are stored upper case (DB constraint `stations_tenant_sn`). */
const SN = /^[A-Z0-9_-]{1,32}$/;
const HASH = /^[0-9a-f]{64}$/;
const OFFSET = /^(0|[1-9][0-9]{0,9})$/;

export const UP_NAMES = ['hello', 'heartbeat', 'models', 'tags', 'ack', 'result', 'progress', 'blob', 'cmd'] as const;
export type UpName = (typeof UP_NAMES)[number];
export const DOWN_NAMES = ['welcome', 'jobs', 'cancel', 'resack', 'blob', 'config', 'cmd', 'time'] as const;
export type DownName = (typeof DOWN_NAMES)[number];

/** A station's identity on the broker and in topics. */
export interface StationKey {
  readonly tenantId: number;
  readonly sn: string;
}

export function isTenantId(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0;
}
export function isSerial(sn: string): boolean {
  return SN.test(sn);
}

function checkKey(key: StationKey): void {
  if (!isTenantId(key.tenantId)) throw new RangeError(`bad tenant id ${key.tenantId}`);
  if (!isSerial(key.sn)) throw new RangeError(`bad station serial ${JSON.stringify(key.sn)}`);
}

/** `esl/v1/{tid}/{sn}` (no trailing slash). */
export function stationRoot(key: StationKey): string {
  checkKey(key);
  return `${TOPIC_ROOT}/${key.tenantId}/${key.sn}`;
}

export const topics = {
  status: (key: StationKey) => `${stationRoot(key)}/status`,
  up: (key: StationKey, name: UpName) => `${stationRoot(key)}/up/${name}`,
  down: (key: StationKey, name: Exclude<DownName, 'blob'>) => `${stationRoot(key)}/down/${name}`,
  /** `down/blob/{hash}/{offset}`: one chunk of raw bytes. */
  blobChunk: (key: StationKey, hash: string, offset: number) => {
    if (!HASH.test(hash)) throw new RangeError('blob hash must be 64 lower-case hex digits');
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('bad blob offset');
    return `${stationRoot(key)}/down/blob/${hash}/${offset}`;
  },
  /** What a station may subscribe to: its own `down/#` and nothing else. */
  downFilter: (key: StationKey) => `${stationRoot(key)}/down/#`,
  /** What the server subscribes to (shared in scale-out). */
  serverUpFilter: `${TOPIC_ROOT}/+/+/up/#`,
  serverStatusFilter: `${TOPIC_ROOT}/+/+/status`,
  /** Server-internal (scale-out): console notices per tenant and dispatcher wake-ups. Stations are denied. */
  serverNotice: (tenantId: number) => `${TOPIC_ROOT}/_srv/notice/${tenantId}`,
  serverNudge: `${TOPIC_ROOT}/_srv/nudge`,
  serverInternalFilter: `${TOPIC_ROOT}/_srv/#`,
} as const;

export type ParsedTopic =
  | (StationKey & { readonly kind: 'status' })
  | (StationKey & { readonly kind: 'up'; readonly name: UpName })
  | (StationKey & { readonly kind: 'down'; readonly name: Exclude<DownName, 'blob'> })
  | (StationKey & { readonly kind: 'down'; readonly name: 'blob'; readonly hash: string; readonly offset: number });

/** A station topic back to its parts; null for anything that is not exactly one of ours. */
export function parseTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length < 5 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return null;
  const [, , tid, sn, kind, name, ...rest] = parts;
  if (!TID.test(tid) || !SN.test(sn)) return null;
  const tenantId = Number(tid);
  if (!isTenantId(tenantId)) return null;
  if (kind === 'status') return parts.length === 5 ? { tenantId, sn, kind } : null;
  if (kind === 'up') {
    return parts.length === 6 && (UP_NAMES as readonly string[]).includes(name)
      ? { tenantId, sn, kind, name: name as UpName }
      : null;
  }
  if (kind !== 'down') return null;
  if (name === 'blob') {
    const [hash, offset] = rest;
    if (rest.length !== 2 || !HASH.test(hash) || !OFFSET.test(offset)) return null;
    return { tenantId, sn, kind, name, hash, offset: Number(offset) };
  }
  return parts.length === 6 && (DOWN_NAMES as readonly string[]).includes(name)
    ? { tenantId, sn, kind, name: name as Exclude<DownName, 'blob'> }
    : null;
}

/** MQTT username (and client id) of a station: `{tid}.{sn}`; `.` occurs in neither part. */
export function stationUsername(key: StationKey): string {
  checkKey(key);
  return `${key.tenantId}.${key.sn}`;
}

/**
 * A username back to the station it names, or null. Strict: anything that could widen a topic
 * pattern (`+`, `#`, `/`), lower case, spaces or leading zeros are refused, not normalised.
 */
export function parseStationUsername(username: string | undefined | null): StationKey | null {
  if (typeof username !== 'string') return null;
  const dot = username.indexOf('.');
  if (dot < 0 || dot !== username.lastIndexOf('.')) return null;
  const tid = username.slice(0, dot);
  const sn = username.slice(dot + 1);
  if (!TID.test(tid) || !SN.test(sn)) return null;
  const tenantId = Number(tid);
  return isTenantId(tenantId) ? { tenantId, sn } : null;
}

/**
 * MQTT topic-filter matching (`+` one level, `#` the rest, `$`-topics never matched by a leading
 * wildcard). A `$share/{group}/` prefix on the filter is ignored: the message's topic is the plain one.
 */
export function topicMatches(filter: string, topic: string): boolean {
  let f = filter;
  if (f.startsWith('$share/')) {
    const cut = f.indexOf('/', '$share/'.length);
    if (cut < 0) return false;
    f = f.slice(cut + 1);
  }
  const fp = f.split('/');
  const tp = topic.split('/');
  if (topic.startsWith('$') && (fp[0] === '+' || fp[0] === '#')) return false;
  for (let i = 0; i < fp.length; i++) {
    if (fp[i] === '#') return i === fp.length - 1;
    if (i >= tp.length) return false;
    if (fp[i] !== '+' && fp[i] !== tp[i]) return false;
  }
  return fp.length === tp.length;
}
