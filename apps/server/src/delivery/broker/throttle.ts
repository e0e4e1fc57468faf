/**
 * Failed-login throttling: at most `limit` failures per key within `windowMs`; a key at its limit
 * is refused without checking its secret until its oldest failure leaves the window. Memory stays
 * bounded: each key keeps at most `limit` times, and at most `maxKeys` keys are tracked (the
 * oldest forgotten first), so a flood of made-up usernames cannot grow it.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** True while `key` may not try again. */
  blocked(key: string, now: number): boolean {
    return this.recent(key, now).length >= this.limit;
  }

  /** Records a failure; true when this one reached the limit (the moment to log a lockout). */
  fail(key: string, now: number): boolean {
    const times = this.recent(key, now);
    times.push(now);
    if (times.length > this.limit) times.shift();
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    return times.length === this.limit;
  }

  /** A success forgets the key's failures. */
  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Milliseconds until `key` may try again (0 when not blocked). */
  retryInMs(key: string, now: number): number {
    const times = this.recent(key, now);
    return times.length >= this.limit ? times[0] + this.windowMs - now : 0;
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    while (times.length > 0 && times[0] <= now - this.windowMs) times.shift();
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}
