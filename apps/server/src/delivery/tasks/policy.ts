/*
 * The numbers of the task engine (DELIVERY.md §5.2, §5.4), pure so they are tested alone.
 */

/** Attempts before a slot fails for good (the reconciler opens it again when the tag is heard). */
export const MAX_ATTEMPTS = 8;
/** How long a station has to ack a job before it is sent again. */
export const ACK_MS = 15_000;
/** Slack after a job's TTL before the server gives up on its result. */
export const DONE_SLACK_MS = 60_000;
/** A render lease: a crashed renderer's slots are taken by another after this long. */
export const RENDER_LEASE_MS = 60_000;

/**
 * Failures the reconciler does not re-open when the tag is heard: the same picture would fail the
 * same way (a new revision — a data or template change, a refresh — tries again).
 */
export const NEVER_REOPENED = ['renderError', 'noTemplate', 'unsupported', 'invalid'] as const;
/**
 * Failures a report re-opens only after HELD_RETRY_MS (one try a day), or — `lowBattery` — as
 * soon as the tag reports a battery BATTERY_RISE_PCT points above the one it refused with.
 */
export const HELD = ['lowBattery', 'displayError'] as const;
export const HELD_RETRY_MS = 24 * 3_600_000;
export const BATTERY_RISE_PCT = 10;

/**
 * Wait before retry `attempt` (1 = the first retry): 30 s · 2^(attempt−1), at most 30 min, ± 20 %
 * jitter (`random` in [0, 1)); `scale` shortens it (tests on a speeded-up clock).
 */
export function backoffMs(attempt: number, random: number, scale = 1): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 30 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random) * scale);
}

/** The TTL a job gets at its station: 3 wakes plus its place in the queue, within 5 min … 1 h. */
export function ttlS(wakeS: number | null, queueAhead: number, svcPerS: number): number {
  const wake = wakeS ?? 40;
  const wait = svcPerS > 0 ? queueAhead / svcPerS : 0;
  return Math.round(Math.min(3600, Math.max(300, 3 * wake + wait)));
}

export interface WindowInput {
  /** caps.queue and caps.queueBytes of the station. */
  queue: number;
  queueBytes: number;
  /** Average job size, bytes. */
  avgBytes: number;
  /** The tags' wake interval, s. */
  wakeS: number;
  /** Jobs the radio serves per second (measured, or the profile's estimate). */
  svcPerS: number;
}

/**
 * Jobs a station may hold at once: what it can store, and no more than it can serve in two wake
 * intervals — with random wake phases a polling station serves at most `window / wakeS` per second,
 * so a window below `wakeS · svcPerS` idles the radio (§5.4).
 */
export function windowSize(w: WindowInput): number {
  const byBytes = w.avgBytes > 0 && w.queueBytes > 0 ? Math.floor(w.queueBytes / w.avgBytes) : w.queue;
  const byRadio = Math.ceil(2 * w.wakeS * w.svcPerS);
  return Math.max(1, Math.min(w.queue, byBytes, byRadio));
}

/** Result codes that end a slot for good; the rest are retried (with backoff) or re-routed. */
export type ResultHandling = 'done' | 'retry' | 'final' | 'cancelled' | 'retryOnce';

export function handlingOf(code: string): ResultHandling {
  switch (code) {
    case 'ok':
    case 'skipped':
      return 'done';
    case 'timeout':
    case 'nack':
    case 'badBlob':
    case 'unknownTag':
      return 'retry';
    case 'displayError':
      return 'retryOnce';
    case 'cancelled':
    case 'replaced':
      return 'cancelled';
    default:
      return 'final';
  }
}

/** A slot id on the wire (base36) and back. */
export const jobId = (id: number) => id.toString(36);
export const slotId = (job: string) => {
  const n = Number.parseInt(job, 36);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};
