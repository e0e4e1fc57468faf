import { describe, expect, it } from 'vitest';
import { Random } from '../random';
import { channelBound, checkInMs, serviceMs, storeBound, uniformLoad } from './bound';
import { checkIn, transferImage } from './link';
import { PROFILES } from './profiles';

/*
 * DELIVERY.md §7's table. It was computed by a script that was not kept; this model spells every
 * frame out (four control frames per transfer, one block request per 4 KiB block, the last part of
 * a block carrying only what is left) and lands within 1 % of each figure. The checks allow 1.5 %:
 * forgetting the inter-frame space (−11 %), the block preparation (−29 %) or the ρ/2 correction
 * (−10 % on the bound) fails them.
 */
const close = (actual: number, expected: number) => {
  expect(Math.abs(actual - expected) / expected, `${actual} vs ${expected}`).toBeLessThan(0.015);
};

const table = [
  { profile: 'oepl-2g4', small: 103, large: 324, checkIn: '4.4', rho40: '0.22', bound40: 232 },
  { profile: 'subghz-50k', small: 370, large: 1330, checkIn: '14.2', rho40: '0.71', bound40: 1146 },
  { profile: 'subghz-100k', small: 214, large: 745, checkIn: '8.1', rho40: '0.40', bound40: 537 },
] as const;

describe('radio bound (DELIVERY.md §7)', () => {
  it.each(table)('$profile: service time, check-in, ρ and the bound for 2,000 tags at 40 s', (row) => {
    const p = PROFILES[row.profile];
    close(serviceMs(p, 1234), row.small); // 296×152 BWR label
    close(serviceMs(p, 4990), row.large); // 800×480 BWR label
    expect(checkInMs(p).toFixed(1)).toBe(row.checkIn);
    const ch = channelBound(p, uniformLoad(2000, 1234, 40));
    expect(ch.rho.toFixed(2)).toBe(row.rho40);
    close(ch.boundS, row.bound40);
  });

  it('subghz-50k at 120 s wakes: ρ 0.24 → 838 s', () => {
    const ch = channelBound(PROFILES['subghz-50k'], uniformLoad(2000, 1234, 120));
    expect(ch.rho.toFixed(2)).toBe('0.24');
    close(ch.boundS, 838);
  });

  it('a full store: 20,000 tags on 10 stations on 10 channels ≈ 232 s (8.6 labels/s per channel)', () => {
    const p = PROFILES['oepl-2g4'];
    const bound = storeBound(
      p,
      Array.from({ length: 10 }, () => uniformLoad(2000, 1234, 40)),
    );
    close(bound, 232);
    close(2000 / bound, 8.6);
  });

  it('is infinite when idle polling alone fills the channel', () => {
    expect(channelBound(PROFILES['subghz-50k'], uniformLoad(6000, 1234, 40)).boundS).toBe(Number.POSITIVE_INFINITY);
  });

  it('only tags to update cost service; every tag on the channel costs polling', () => {
    const p = PROFILES['oepl-2g4'];
    const some = channelBound(p, { sizes: [1234, 1234], wakeS: Array(2000).fill(40) });
    expect(some.serviceS).toBeCloseTo((2 * serviceMs(p, 1234)) / 1000, 9);
    expect(some.rho).toBeCloseTo(0.2176, 4);
  });
});

describe('lossy link', () => {
  it('without loss, a check-in and a transfer take exactly the service time', () => {
    for (const p of Object.values(PROFILES)) {
      for (const size of [1, 99, 1234, 4096, 4097, 4990, 60_000]) {
        const rng = new Random(1);
        const total = checkIn(p, 0, rng).airMs + transferImage(p, size, 0, rng).airMs;
        expect(total).toBeCloseTo(serviceMs(p, size), 9);
      }
    }
  });

  it('with loss, a lost part costs a part and a block request, not the block', () => {
    const p = PROFILES['oepl-2g4'];
    const rng = new Random('loss');
    let extra = 0;
    let n = 0;
    for (let i = 0; i < 500; i++) {
      const t = transferImage(p, 4990, 0.02, rng);
      if (!t.ok) continue;
      n++;
      extra += t.airMs - transferImage(p, 4990, 0, rng).airMs;
    }
    const lossless = serviceMs(p, 4990);
    // 2 % of ~57 frames lost → about one re-request round (block request + prep + a part) per transfer.
    expect(n).toBeGreaterThan(490);
    expect(extra / n).toBeGreaterThan(10);
    expect(extra / n).toBeLessThan(0.25 * lossless);
  });

  it('gives up after five rounds on a block', () => {
    const t = transferImage(PROFILES['oepl-2g4'], 1234, 0.9, new Random(3));
    expect(t.ok).toBe(false);
  });
});
