import { StoreParams, type TagStatus } from '@esl/contract';

/*
 * Tag status (DELIVERY.md §5.5), once as a pure function (the rules, unit-tested) and once as the
 * SQL CASE the sweeper and the report handler run set-based. Thresholds are store parameters.
 */

export interface StatusThresholds {
  /** Heard within this many wake intervals → normal/online. */
  missedWakes: number;
  /** Wake interval assumed for a tag that never reported its own, s (store param tagPollSeconds). */
  defaultWakeS: number;
  offlineMs: number;
  lostMs: number;
}

export function thresholdsOf(params: StoreParams): StatusThresholds {
  return {
    missedWakes: params.tagMissedWakes,
    defaultWakeS: params.tagPollSeconds,
    offlineMs: params.tagOfflineMinutes * 60_000,
    lostMs: params.tagLostHours * 3_600_000,
  };
}

/**
 * A store's saved parameters (JSON) as thresholds; missing or damaged → the defaults. Remembered
 * by the JSON text (the same text always gives the same thresholds, so a changed store's new text
 * is simply parsed anew): every tag report reads its store's, and parsing them was a schema
 * check per report.
 */
export function thresholdsFromJson(json: string | undefined | null): StatusThresholds {
  const key = json ?? '';
  const known = parsedThresholds.get(key);
  if (known) return known;
  const th = parseThresholds(key);
  if (parsedThresholds.size >= THRESHOLDS_KEPT) parsedThresholds.clear();
  parsedThresholds.set(key, th);
  return th;
}
const THRESHOLDS_KEPT = 1000;
const parsedThresholds = new Map<string, Readonly<StatusThresholds>>();

function parseThresholds(json: string): StatusThresholds {
  if (json) {
    try {
      const parsed = StoreParams.safeParse(JSON.parse(json));
      if (parsed.success) return Object.freeze(thresholdsOf(parsed.data));
    } catch {
      // fall through to the defaults
    }
  }
  return Object.freeze(thresholdsOf(StoreParams.parse({})));
}

export interface TagFacts {
  lastSeen: number | null;
  wakeS: number | null;
  /** The image version the tag reported, and what it should show (null: nothing pending). */
  shownVer: string | null;
  desiredHash: string | null;
  /** Whether the station it was last heard by is offline. */
  stationOffline: boolean;
}

export function tagStatus(t: TagFacts, now: number, th: StatusThresholds): TagStatus {
  if (t.lastSeen === null) return 'unknown';
  const age = now - t.lastSeen;
  if (age >= th.lostMs) return 'lost';
  if (age <= th.missedWakes * (t.wakeS ?? th.defaultWakeS) * 1000) {
    return t.desiredHash === null || t.desiredHash.slice(0, 16) === t.shownVer ? 'normal' : 'online';
  }
  if (t.stationOffline) return 'disconnected';
  if (age >= th.offlineMs) return 'offline';
  return 'interrupted';
}
