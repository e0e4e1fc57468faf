/*
 * Damped online/offline notices (DELIVERY.md §4.3), as a pure state machine over an injected
 * time: the database holds the truth (`stations.online`); this decides what the consoles are told.
 * An offline is told only if the station is not back within `offlineDelayMs`; more than
 * `flapTransitions` changes within `flapWindowMs` make it "flapping" (told once per window).
 */

export interface PresenceOptions {
  offlineDelayMs: number;
  flapTransitions: number;
  flapWindowMs: number;
}

export const DEFAULT_PRESENCE: PresenceOptions = {
  offlineDelayMs: 10_000,
  flapTransitions: 5,
  flapWindowMs: 5 * 60_000,
};

/** What the consoles should hear about a station. */
export type PresenceNotice =
  | { kind: 'online' | 'offline'; stationId: number; at: number }
  | { kind: 'flapping'; stationId: number; at: number; transitions: number };

interface State {
  /** What the consoles were last told (null: nothing yet this process). */
  told: boolean | null;
  online: boolean;
  /** When the station went offline while the consoles still think it online. */
  offlineSince: number | null;
  transitions: number[];
  flappingUntil: number;
}

export class Presence {
  private readonly states = new Map<number, State>();
  private readonly options: PresenceOptions;

  constructor(options: Partial<PresenceOptions> = {}) {
    this.options = { ...DEFAULT_PRESENCE, ...options };
  }

  /** The station's state changed (or was confirmed) at `now`; answers the notices due now. */
  set(stationId: number, online: boolean, now: number): PresenceNotice[] {
    const s = this.states.get(stationId) ?? {
      told: null,
      online: !online,
      offlineSince: null,
      transitions: [],
      flappingUntil: 0,
    };
    this.states.set(stationId, s);
    if (s.online === online && s.told !== null) return [];
    const out: PresenceNotice[] = [];
    if (s.told !== null) {
      s.transitions.push(now);
      while (s.transitions.length > 0 && s.transitions[0] <= now - this.options.flapWindowMs) s.transitions.shift();
      if (s.transitions.length > this.options.flapTransitions && now >= s.flappingUntil) {
        s.flappingUntil = now + this.options.flapWindowMs;
        out.push({ kind: 'flapping', stationId, at: now, transitions: s.transitions.length });
      }
    }
    s.online = online;
    if (online) {
      s.offlineSince = null;
      if (s.told !== true) {
        s.told = true;
        out.push({ kind: 'online', stationId, at: now });
      }
    } else if (s.told === null) {
      // First news of a station this process never told about: nothing to take back later.
      s.told = false;
      out.push({ kind: 'offline', stationId, at: now });
    } else if (s.told) {
      s.offlineSince = now;
    }
    return out;
  }

  /** Offline notices whose delay has passed (call on every tick). */
  due(now: number): PresenceNotice[] {
    const out: PresenceNotice[] = [];
    for (const [stationId, s] of this.states) {
      if (s.online || s.offlineSince === null || now - s.offlineSince < this.options.offlineDelayMs) continue;
      s.offlineSince = null;
      s.told = false;
      out.push({ kind: 'offline', stationId, at: now });
    }
    return out;
  }

  /** Forgets a deleted station. */
  forget(stationId: number): void {
    this.states.delete(stationId);
  }
}
