import { describe, expect, it } from 'vitest';
import { durationSince } from './duration';

describe('durationSince', () => {
  const t0 = Date.UTC(2026, 0, 15, 9, 0, 0);
  it('counts whole minutes, then hours and minutes, then days and hours', () => {
    expect(durationSince(t0, t0 + 59_999)).toEqual({ key: 'duration.minutes', vars: { count: 0 } });
    expect(durationSince(t0, t0 + 59 * 60_000)).toEqual({ key: 'duration.minutes', vars: { count: 59 } });
    expect(durationSince(t0, t0 + 61 * 60_000)).toEqual({ key: 'duration.hours', vars: { hours: 1, minutes: 1 } });
    expect(durationSince(t0, t0 + 49 * 3600_000)).toEqual({ key: 'duration.days', vars: { days: 2, hours: 1 } });
  });
  it('never answers less than nothing (a clock behind the server)', () => {
    expect(durationSince(t0, t0 - 5000)).toEqual({ key: 'duration.minutes', vars: { count: 0 } });
  });
});
