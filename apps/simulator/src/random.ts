/**
 * Seeded randomness: the same seed gives the same run. Each part of the simulation draws from its
 * own stream (`fork('station AP1')`), so adding a station or a tag does not change what the others
 * draw.
 */
export class Random {
  private state: number;

  constructor(readonly seed: string | number) {
    this.state = hash32(String(seed)) || 0x9e3779b9;
  }

  /** An independent stream named `label`, derived from this one's seed. */
  fork(label: string): Random {
    return new Random(`${this.seed}/${label}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    // mulberry32: a 32-bit state, enough for a simulation (not for secrets).
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** Normally distributed (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** One of `items`, by weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** `n` random hex digits, upper case. */
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 16).toString(16);
    return s.toUpperCase();
  }

  /** An id of `n` characters from [0-9a-z]. */
  id(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 36).toString(36);
    return s;
  }
}

/** FNV-1a, 32 bits. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
