import { describe, expect, it } from 'vitest';
import { isTransient, retryDelayMs, withRetry } from './retry';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('withRetry', () => {
  it('runs a transaction that lost a deadlock or a serialisation check again, with growing jittered waits', async () => {
    const waits: number[] = [];
    let runs = 0;
    const answer = await withRetry(
      async () => {
        runs++;
        if (runs === 1) throw failure('40P01');
        if (runs === 2) throw failure('40001');
        return 'stored';
      },
      { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    );
    expect(answer).toBe('stored');
    expect(runs).toBe(3);
    expect(waits).toEqual([retryDelayMs(1, 0.5), retryDelayMs(2, 0.5)]);
    expect(waits[1]).toBeGreaterThan(waits[0] as number);
  });

  it('gives up after its last run, and never retries any other failure', async () => {
    let runs = 0;
    const always = () => {
      runs++;
      return Promise.reject(failure('40P01'));
    };
    await expect(withRetry(always, { attempts: 4, sleep: async () => {} })).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(4);
    runs = 0;
    const unique = () => {
      runs++;
      return Promise.reject(failure('23505'));
    };
    await expect(withRetry(unique, { sleep: async () => {} })).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });

  it('keeps its waits within half and all of a doubling step, capped', () => {
    expect(isTransient(failure('40P01'))).toBe(true);
    expect(isTransient(new Error('x'))).toBe(false);
    for (const r of [0, 0.999]) {
      expect(retryDelayMs(1, r, 20, 1000)).toBeGreaterThanOrEqual(10);
      expect(retryDelayMs(1, r, 20, 1000)).toBeLessThanOrEqual(20);
      expect(retryDelayMs(30, r, 20, 1000)).toBeLessThanOrEqual(1000);
      expect(retryDelayMs(30, r, 20, 1000)).toBeGreaterThanOrEqual(500);
    }
  });
});
