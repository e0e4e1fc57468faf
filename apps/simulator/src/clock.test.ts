import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';
import { Random } from './random';

describe('VirtualClock (manual)', () => {
  it('runs timers in due order, ties in the order set, only when advanced', async () => {
    const clock = new VirtualClock({ start: 1000, speed: 0 });
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 50);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 50);
    expect(seen).toEqual([]);
    await clock.advance(49);
    expect(seen).toEqual(['a@1010']);
    expect(clock.now()).toBe(1049);
    await clock.advance(1);
    expect(seen).toEqual(['a@1010', 'b@1050', 'c@1050']);
  });

  it('repeats intervals, and a cleared timer never runs', async () => {
    const clock = new VirtualClock({ start: 0, speed: 0 });
    const ticks: number[] = [];
    const id = clock.setInterval(() => {
      ticks.push(clock.now());
      if (ticks.length === 3) clock.clear(id);
    }, 100);
    const never = clock.setTimeout(() => ticks.push(-1), 150);
    clock.clear(never);
    await clock.advance(1000);
    expect(ticks).toEqual([100, 200, 300]);
    expect(clock.pending).toBe(0);
  });

  it('timers set by timers run in the same advance when due', async () => {
    const clock = new VirtualClock({ start: 0, speed: 0 });
    const seen: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => seen.push(clock.now()), 5), 5);
    await clock.advance(10);
    expect(seen).toEqual([10]);
  });
});

describe('VirtualClock (scaled)', () => {
  it('runs virtual time faster than real time', async () => {
    const clock = new VirtualClock({ start: 0, speed: 1000 });
    const fired = await new Promise<number>((resolve) => clock.setTimeout(() => resolve(clock.now()), 5_000));
    expect(fired).toBeGreaterThanOrEqual(5_000);
    clock.stop();
  });
});

describe('Random', () => {
  it('repeats with a seed, and forks do not disturb each other', () => {
    const a = new Random(42);
    const b = new Random(42);
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
    const x1 = new Random(42).fork('station AP1');
    const x2 = new Random(42).fork('station AP1');
    new Random(42).fork('station AP2').next();
    expect(x1.hex(12)).toBe(x2.hex(12));
    expect(new Random(42).fork('a').next()).not.toBe(new Random(42).fork('b').next());
    expect(new Random(1).next()).not.toBe(new Random(2).next());
  });

  it('draws within its ranges', () => {
    const r = new Random('ranges');
    for (let i = 0; i < 1000; i++) {
      const x = r.int(3, 5);
      expect(x >= 3 && x <= 5).toBe(true);
      expect(r.hex(4)).toMatch(/^[0-9A-F]{4}$/);
    }
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 2000; i++)
      counts[
        r.weighted([
          ['a', 3],
          ['b', 1],
        ] as const)
      ]++;
    expect(counts.a / 2000).toBeGreaterThan(0.7);
    expect(counts.a / 2000).toBeLessThan(0.8);
  });
});
