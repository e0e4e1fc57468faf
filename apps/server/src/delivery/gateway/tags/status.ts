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

/** A store's saved parameters (JSON) as thresholds; missing or damaged → the defaults. */
export function thresholdsFromJson(json: string | undefined | null): StatusThresholds {
  if (json) {
    try {
      const parsed = StoreParams.safeParse(JSON.parse(json));
      if (parsed.success) return thresholdsOf(parsed.data);
    } catch {
      // fall through to the defaults
    }
  }
  return thresholdsOf(StoreParams.parse({}));
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
