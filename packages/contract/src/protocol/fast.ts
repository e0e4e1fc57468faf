import { WAKE_REASONS } from './codes';
import { LIMITS, PROTOCOL_VERSION } from './limits';
import { TAG_HW, type TagEntry, type TagsMsg } from './messages';

/*
 * A hand-written check of `up/tags`, the one message that arrives by the million: a 1,000-station
 * store sends 66,000 entries a second, and zod's object walk cost ~0.9 us an entry, a tenth of the
 * gateway's CPU (bench/station-gateway.bench.ts --cpu-prof). It accepts exactly what TagsMsg
 * accepts and answers the same value (unknown fields dropped) — fast.test.ts holds the two
 * against each other over generated messages. Anything it does not accept goes to zod, which
 * says why; so this never needs an error message of its own.
 */

const VER = /^[0-9a-f]{16}$/;
const TAG_ID = /^[0-9A-F]{8,16}$/;
const HW = TAG_HW;
const FW = /^[0-9A-Za-z._+-]{1,32}$/;
const EPOCH_MAX = 8_640_000_000_000;
const REASONS: ReadonlySet<unknown> = new Set<unknown>(WAKE_REASONS);

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isNum = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const isStr = (v: unknown, re: RegExp): v is string => typeof v === 'string' && re.test(v);

function entry(e: unknown): TagEntry | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return null;
  const o = e as Record<string, unknown>;
  const { id, rssi, lqi, battMv, temp, ver, fw, hw, wakeS, seenAt, reason, page } = o;
  if (!isStr(id, TAG_ID) || !isNum(rssi, -150, 30) || !isInt(battMv, 0, 10_000)) return null;
  if (!(ver === null || isStr(ver, VER)) || !isStr(hw, HW) || !isInt(seenAt, 0, EPOCH_MAX)) return null;
  const out: TagEntry = { id, rssi, battMv, ver, hw, seenAt };
  if (lqi !== undefined) {
    if (!isInt(lqi, 0, 255)) return null;
    out.lqi = lqi;
  }
  if (temp !== undefined) {
    if (!isNum(temp, -60, 125)) return null;
    out.temp = temp;
  }
  if (fw !== undefined) {
    if (!isStr(fw, FW)) return null;
    out.fw = fw;
  }
  if (wakeS !== undefined) {
    if (!isInt(wakeS, 1, 7 * 86_400)) return null;
    out.wakeS = wakeS;
  }
  if (reason !== undefined) {
    if (!REASONS.has(reason)) return null;
    out.reason = reason as TagEntry['reason'];
  }
  if (page !== undefined) {
    if (!isInt(page, 1, LIMITS.maxPages)) return null;
    out.page = page;
  }
  return out;
}

/** The parsed report when `value` is a valid TagsMsg; null when it is not (ask zod why). */
export function fastTagsMsg(value: unknown): TagsMsg | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { v, seq, at, full, tags } = value as Record<string, unknown>;
  if (v !== PROTOCOL_VERSION || !isInt(seq, 0, 0xffff_ffff) || !isInt(at, 0, EPOCH_MAX)) return null;
  if (typeof full !== 'boolean' || !Array.isArray(tags) || tags.length > LIMITS.maxTagsPerReport) return null;
  const out: TagEntry[] = new Array(tags.length);
  for (let i = 0; i < tags.length; i++) {
    const e = entry(tags[i]);
    if (!e) return null;
    out[i] = e;
  }
  return { v, seq, at, full, tags: out };
}
