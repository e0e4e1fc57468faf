import { describe, expect, it } from 'vitest';
import { AddScheduleBody, fromLocalTime, isTimeZone, toLocalTime } from './schedule';

describe('wall-clock times of a store (docs/SCHEDULE.md)', () => {
  it('reads a time on the store’s clock, each zone its own instant', () => {
    expect(fromLocalTime('2026-03-02T00:00', 'Asia/Shanghai')).toBe(Date.UTC(2026, 2, 1, 16, 0));
    expect(fromLocalTime('2026-03-02T00:00', 'UTC')).toBe(Date.UTC(2026, 2, 2, 0, 0));
    expect(fromLocalTime('2026-03-02T00:00', 'America/New_York')).toBe(Date.UTC(2026, 2, 2, 5, 0));
    expect(toLocalTime(Date.UTC(2026, 2, 1, 16, 0), 'Asia/Shanghai')).toBe('2026-03-02T00:00');
  });

  it('moves a time a clock change skips forward by the gap, and takes a repeated one as its first occurrence', () => {
    // New York, 8 March 2026: 02:00 EST → 03:00 EDT; 1 November 2026: 02:00 EDT → 01:00 EST.
    expect(fromLocalTime('2026-03-08T02:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(fromLocalTime('2026-03-08T03:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(fromLocalTime('2026-11-01T01:30', 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(fromLocalTime('2026-11-01T03:00', 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 8, 0));
  });

  it('knows time zones and refuses a change without fields or a malformed time', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    const ok = { productId: 1, at: '2026-03-02T00:00', changes: { price: '2.50' } };
    expect(AddScheduleBody.safeParse(ok).success).toBe(true);
    expect(AddScheduleBody.safeParse({ ...ok, changes: {} }).success).toBe(false);
    expect(AddScheduleBody.safeParse({ ...ok, at: '2026-03-02 24:00' }).success).toBe(false);
  });
});

describe('the store clock at scale', () => {
  it('builds one formatter per time zone, not one per call (a 100,000-change file held the server a minute)', () => {
    const Real = Intl.DateTimeFormat;
    let made = 0;
    // A class, so it stays a constructor (the formatter is built with `new`).
    class Counting extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made++;
      }
    }
    Intl.DateTimeFormat = Counting as unknown as typeof Intl.DateTimeFormat;
    try {
      const zone = 'Pacific/Chatham';
      for (let i = 0; i < 200; i++) {
        const t = Date.UTC(2031, 0, 1, 0, i);
        expect(fromLocalTime(toLocalTime(t, zone), zone)).toBe(t);
      }
      expect(made).toBeLessThanOrEqual(1);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
