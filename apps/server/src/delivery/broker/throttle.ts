/**
 * Failed-login waits (docs/SERVER.md, "Station logins"): failures never lock a key out; each one
 * past the free ones makes the key's next attempt wait, doubling up to a cap, and a key whose last
 * failure is older than `forgetMs` starts over. Memory stays bounded: at most `maxKeys` keys are
 * tracked (the least recently failed forgotten first), so a flood of made-up usernames cannot
 * grow it.
 */
export interface WaitRule {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first counted failure; it doubles with each further one, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** A key whose last failure is this old is forgotten. */
  forgetMs: number;
}

/** The wait after `count` failures under a rule, in ms (0 while within the free ones). */
export function waitAfter(rule: WaitRule, count: number): number {
  if (count <= rule.free) return 0;
  return Math.min(rule.maxMs, rule.firstMs * 2 ** Math.min(count - rule.free - 1, 30));
}

export class GrowingWaits {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(
    readonly rule: WaitRule,
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `key` may try again (0: now). */
  waitMs(key: string, now: number): number {
    const f = this.current(key, now);
    return f ? Math.max(0, f.last + waitAfter(this.rule, f.count) - now) : 0;
  }

  /** Records a failure; true when it is the first that makes the key wait (the moment to log it). */
  fail(key: string, now: number): boolean {
    const f = this.current(key, now) ?? { count: 0, last: now };
    f.count++;
    f.last = now;
    this.failures.delete(key);
    this.failures.set(key, f);
    if (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    return f.count === this.rule.free + 1;
  }

  /** A success forgets the key's failures. */
  clear(key: string): void {
    this.failures.delete(key);
  }

  private current(key: string, now: number) {
    const f = this.failures.get(key);
    if (f && now - f.last >= this.rule.forgetMs) {
      this.failures.delete(key);
      return undefined;
    }
    return f;
  }
}

/**
 * Where each station last logged in from (its "usual address"), for at most `max` stations (the
 * least recently seen forgotten first). Kept in memory: after a restart a station's first login
 * teaches it again.
 */
export class UsualAddresses {
  private readonly byUsername = new Map<string, string>();

  constructor(private readonly max = 100_000) {}

  get(username: string): string | undefined {
    return this.byUsername.get(username);
  }

  set(username: string, address: string): void {
    this.byUsername.delete(username);
    this.byUsername.set(username, address);
    if (this.byUsername.size > this.max) {
      const oldest = this.byUsername.keys().next().value;
      if (oldest !== undefined) this.byUsername.delete(oldest);
    }
  }
}
