/**
 * The simulator's time. Everything simulated (tag wakes, radio airtime, heartbeats, TTLs) runs on
 * virtual milliseconds; only the network to the broker is real.
 *
 * - `speed` > 0: virtual time runs `speed` times faster than real time (`--speed 10` divides every
 *   wake interval and transfer by ten; the server's real latency is multiplied by ten, so
 *   efficiency measured at ×10 is a lower estimate of ×1).
 * - `speed` 0 (manual): virtual time stands still until `advance(ms)` moves it, running the due
 *   timers in order — what tests use, so nothing waits on real time.
 *
 * Timers due at the same instant run in the order they were set: with a seed, runs repeat.
 */

export type TimerId = number;

interface Timer {
  id: TimerId;
  due: number;
  seq: number;
  fn: () => void;
  every: number;
}

export interface ClockOptions {
  /** Virtual time at the start, Unix ms (default: now). */
  start?: number;
  /** Virtual ms per real ms; 0 for a manual clock. Default 1. */
  speed?: number;
}

export class VirtualClock {
  readonly speed: number;
  private readonly heap: Timer[] = [];
  private readonly live = new Map<TimerId, Timer>();
  private seq = 0;
  private nextId = 1;
  /** Manual mode: the current time. Scaled mode: virtual time at `realAnchor`. */
  private virtualAnchor: number;
  private realAnchor: number;
  private realTimer: ReturnType<typeof setTimeout> | null = null;
  private armedDue = Number.POSITIVE_INFINITY;
  private stopped = false;
  private running = false;

  constructor(options: ClockOptions = {}) {
    this.speed = options.speed ?? 1;
    if (!(this.speed >= 0) || !Number.isFinite(this.speed)) throw new RangeError('speed must be ≥ 0');
    this.virtualAnchor = options.start ?? Date.now();
    this.realAnchor = performance.now();
  }

  get manual(): boolean {
    return this.speed === 0;
  }

  /** Virtual Unix milliseconds (whole). */
  now(): number {
    if (this.manual) return this.virtualAnchor;
    return Math.floor(this.virtualAnchor + (performance.now() - this.realAnchor) * this.speed);
  }

  /** Virtual time is whole milliseconds: delays are rounded. */
  setTimeout(fn: () => void, ms: number): TimerId {
    return this.add(fn, Math.max(0, Math.round(ms)), 0);
  }

  setInterval(fn: () => void, ms: number): TimerId {
    const every = Math.round(ms);
    if (!(every > 0)) throw new RangeError('interval must be ≥ 1 ms');
    return this.add(fn, every, every);
  }

  clear(id: TimerId | null | undefined): void {
    if (id == null) return;
    const t = this.live.get(id);
    if (t) {
      this.live.delete(id);
      t.fn = noop; // left in the heap, skipped when it comes up
    }
  }

  /** Resolves after `ms` of virtual time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Timers waiting. */
  get pending(): number {
    return this.live.size;
  }

  /**
   * Manual clock: moves time forward by `ms`, running every timer that falls due in order. Between
   * timers it lets pending I/O run (one macrotask), so messages a timer sends leave the process.
   */
  async advance(ms: number): Promise<void> {
    if (!this.manual) throw new Error('advance() is for a manual clock (speed 0)');
    if (this.running) throw new Error('advance() is already running');
    this.running = true;
    try {
      const target = this.virtualAnchor + Math.round(ms);
      for (;;) {
        const t = this.peek();
        if (!t || t.due > target) break;
        this.pop();
        this.virtualAnchor = Math.max(this.virtualAnchor, t.due);
        this.fire(t);
        await yieldToIo();
      }
      this.virtualAnchor = target;
      await yieldToIo();
    } finally {
      this.running = false;
    }
  }

  /** Cancels every timer and stops the scaled clock's real timer. */
  stop(): void {
    this.stopped = true;
    for (const t of this.live.values()) t.fn = noop;
    this.live.clear();
    this.heap.length = 0;
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = null;
  }

  private add(fn: () => void, delay: number, every: number): TimerId {
    if (this.stopped) return 0;
    const t: Timer = { id: this.nextId++, due: this.now() + delay, seq: this.seq++, fn, every };
    this.live.set(t.id, t);
    this.push(t);
    if (!this.manual && t.due < this.armedDue) this.arm();
    return t.id;
  }

  private fire(t: Timer): void {
    if (t.fn === noop) return;
    if (t.every > 0) {
      // Re-armed before it runs, so a callback may clear its own interval.
      t.due += t.every;
      t.seq = this.seq++;
      this.push(t);
    } else {
      this.live.delete(t.id);
    }
    t.fn();
  }

  private arm(): void {
    const t = this.peek();
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = null;
    this.armedDue = Number.POSITIVE_INFINITY;
    if (!t || this.stopped) return;
    this.armedDue = t.due;
    const realDelay = Math.max(0, (t.due - this.now()) / this.speed);
    this.realTimer = setTimeout(() => this.runDue(), Math.min(realDelay, 2 ** 31 - 1));
  }

  private runDue(): void {
    this.realTimer = null;
    this.armedDue = Number.POSITIVE_INFINITY;
    const now = this.now();
    // A bounded batch, so a flood of due timers cannot starve the network.
    for (let i = 0; i < 10_000; i++) {
      const t = this.peek();
      if (!t || t.due > now) break;
      this.pop();
      try {
        this.fire(t);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    this.arm();
  }

  // A binary min-heap on (due, seq).
  private less(a: Timer, b: Timer): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }
  private peek(): Timer | undefined {
    while (this.heap.length > 0 && this.heap[0].fn === noop) this.pop();
    return this.heap[0];
  }
  private push(t: Timer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  private pop(): Timer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function noop(): void {}

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
