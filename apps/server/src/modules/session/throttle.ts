/**
 * Sign-in throttling (OWASP ASVS 2.2.1): failures make the next attempt wait, growing with each
 * one, instead of locking the account. The wait is counted three ways, and the longest applies:
 *
 * - this username from this address: the attacker guessing one account — grows to 15 minutes;
 * - this username from every address: a distributed guess — grows only to 30 seconds, so an
 *   attacker elsewhere can slow the real user down a little but never keep them out;
 * - this address for every username: one machine spraying many accounts — grows to 15 minutes.
 *
 * Only failures within the window (a day) count; a sign-in clears its own address's failures. A username that does not exist is throttled exactly as
 * one that does, so the answers tell nothing about which exist.
 */
export interface ThrottleRule {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first counted failure; it doubles with each further one. */
  firstMs: number;
  maxMs: number;
}

/** Longer than any wait, so a patient guesser's waits keep their length instead of starting over. */
export const THROTTLE_WINDOW_MS = 24 * 60 * 60_000;
export const PAIR_RULE: ThrottleRule = { free: 3, firstMs: 2_000, maxMs: 15 * 60_000 };
export const USERNAME_RULE: ThrottleRule = { free: 10, firstMs: 1_000, maxMs: 30_000 };
export const ADDRESS_RULE: ThrottleRule = { free: 20, firstMs: 1_000, maxMs: 15 * 60_000 };

/** The wait after `count` failures under a rule, in ms (0 while within the free ones). */
export function waitAfter(rule: ThrottleRule, count: number): number {
  if (count <= rule.free) return 0;
  const doublings = Math.min(count - rule.free - 1, 30);
  return Math.min(rule.maxMs, rule.firstMs * 2 ** doublings);
}

export interface Failure {
  ip: string;
  time: number;
}

/** More failures than this in one window change no wait (every rule has reached its longest). */
export const FAILURES_READ = 64;

/**
 * When the next attempt from `ip` may be checked, from the failures within the window: those of
 * the username (from any address) and those from the address (for any username). 0 = now.
 */
export function nextAttemptAt(ip: string, ofUsername: Failure[], fromAddress: Failure[]): number {
  return Math.max(
    until(
      PAIR_RULE,
      ofUsername.filter((f) => f.ip === ip),
    ),
    until(USERNAME_RULE, ofUsername),
    until(ADDRESS_RULE, fromAddress),
  );
  function until(rule: ThrottleRule, failures: Failure[]): number {
    if (failures.length === 0) return 0;
    const last = Math.max(...failures.map((f) => f.time));
    const wait = waitAfter(rule, failures.length);
    return wait === 0 ? 0 : last + wait;
  }
}
