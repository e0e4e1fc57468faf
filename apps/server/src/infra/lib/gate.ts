/**
 * Admits at most `perKey` runs of a costly call per key (a tenant) and `total` across all keys;
 * a caller over either limit is refused at once rather than queued, so an attacker cannot line
 * up work and a person is told to try again. `enter` returns the function that frees the place
 * (call it in a finally), or null when the call must be refused.
 */
export class Gate {
  private readonly running = new Map<number, number>();
  private all = 0;

  constructor(
    readonly perKey: number,
    readonly total: number,
  ) {}

  enter(key: number): (() => void) | null {
    const mine = this.running.get(key) ?? 0;
    if (mine >= this.perKey || this.all >= this.total) return null;
    this.running.set(key, mine + 1);
    this.all++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.all--;
      const now = (this.running.get(key) ?? 1) - 1;
      if (now === 0) this.running.delete(key);
      else this.running.set(key, now);
    };
  }

  /** Runs in progress (for tests). */
  get size(): number {
    return this.all;
  }
}
