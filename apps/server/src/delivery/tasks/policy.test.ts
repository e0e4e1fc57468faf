import { describe, expect, it } from 'vitest';
import { backoffMs, handlingOf, jobId, slotId, ttlS, windowSize } from './policy';

describe('task policy', () => {
  it('backs off 30 s · 2^(n−1) within ±20 %, at most 30 min', () => {
    expect(backoffMs(1, 0.5)).toBe(30_000);
    expect(backoffMs(2, 0.5)).toBe(60_000);
    expect(backoffMs(3, 0)).toBe(96_000);
    expect(backoffMs(3, 0.999_999)).toBeCloseTo(144_000, -1);
    expect(backoffMs(20, 0.5)).toBe(1_800_000);
    expect(backoffMs(1, 0.5, 0.01)).toBe(300);
  });

  it('sizes the window from the radio, the queue and its bytes (DELIVERY.md §5.4)', () => {
    // 1,234-B labels, 40 s wake, 9.7 tags/s: the radio wants 776 jobs; a 250-slot queue caps it.
    const radio = { queueBytes: 64 * 1024 * 1024, avgBytes: 1234, wakeS: 40, svcPerS: 9.7 };
    expect(windowSize({ ...radio, queue: 250 })).toBe(250);
    expect(windowSize({ ...radio, queue: 10_000 })).toBe(776);
    expect(windowSize({ ...radio, queue: 10_000, queueBytes: 100 * 1234 })).toBe(100);
    expect(windowSize({ ...radio, queue: 10_000, svcPerS: 0 })).toBe(1);
  });

  it('gives jobs a TTL of three wakes plus the queue ahead, within 5 min … 1 h', () => {
    expect(ttlS(40, 0, 9.7)).toBe(300);
    expect(ttlS(600, 0, 9.7)).toBe(1800);
    expect(ttlS(40, 2000, 9.7)).toBe(326);
    expect(ttlS(3600, 0, 9.7)).toBe(3600);
  });

  it('handles each result code as DELIVERY.md §4.2 says', () => {
    expect(['ok', 'skipped'].map(handlingOf)).toEqual(['done', 'done']);
    expect(['timeout', 'nack', 'badBlob', 'unknownTag'].map(handlingOf)).toEqual(['retry', 'retry', 'retry', 'retry']);
    expect(handlingOf('displayError')).toBe('retryOnce');
    expect(['cancelled', 'replaced'].map(handlingOf)).toEqual(['cancelled', 'cancelled']);
    expect(['lowBattery', 'unsupported'].map(handlingOf)).toEqual(['final', 'final']);
  });

  it('names slots in base 36 on the wire and reads them back', () => {
    expect(jobId(123_456)).toBe('2n9c');
    expect(slotId('2n9c')).toBe(123_456);
    expect(slotId('zzzzzzzzzzzzzzzz')).toBeNull();
    expect(slotId('0')).toBeNull();
  });
});
