import { describe, expect, it } from 'vitest';
import { AddPageScheduleBody, EditPageScheduleBody, pageWindow, weekdayOf } from './pageSchedules';
import { fromLocalTime } from './schedule';

// The windows of a page schedule (docs/PAGES.md "Page schedules") on the store's clock.

const SH = 'Asia/Shanghai';
const at = (local: string, tz = SH) => fromLocalTime(local, tz);

describe('page schedule windows', () => {
  it('reads ISO weekdays', () => {
    expect(weekdayOf('2026-12-07')).toBe(1); // a Monday
    expect(weekdayOf('2026-12-13')).toBe(7);
  });

  it('answers the window under way, else the next one on a chosen weekday', () => {
    const lunch = { weekdays: [1, 2, 3, 4, 5], from: '11:00', to: '14:00' };
    // Monday 10:00: today's window is next.
    expect(pageWindow(lunch, SH, at('2026-12-07T10:00'))).toEqual({
      start: at('2026-12-07T11:00'),
      end: at('2026-12-07T14:00'),
      startAt: '2026-12-07T11:00',
      endAt: '2026-12-07T14:00',
    });
    // Monday 12:00: under way.
    expect(pageWindow(lunch, SH, at('2026-12-07T12:00'))?.start).toBe(at('2026-12-07T11:00'));
    // Its end is not in it: at 14:00 the next one is Tuesday's.
    expect(pageWindow(lunch, SH, at('2026-12-07T14:00'))?.startAt).toBe('2026-12-08T11:00');
    // Friday afternoon: Monday's, past the weekend.
    expect(pageWindow(lunch, SH, at('2026-12-11T15:00'))?.startAt).toBe('2026-12-14T11:00');
    expect(pageWindow({ ...lunch, weekdays: [] }, SH, at('2026-12-07T10:00'))).toBeNull();
  });

  it('ends a window the next day when its end is not after its start; the weekday is the start’s', () => {
    const night = { weekdays: [5], from: '22:00', to: '06:00' };
    // Saturday 03:00: Friday night's window still runs.
    expect(pageWindow(night, SH, at('2026-12-12T03:00'))).toMatchObject({
      startAt: '2026-12-11T22:00',
      endAt: '2026-12-12T06:00',
    });
    expect(pageWindow(night, SH, at('2026-12-12T07:00'))?.startAt).toBe('2026-12-18T22:00');
  });

  it('reads the times on each store’s own clock, across a clock change', () => {
    const lunch = { weekdays: [7], from: '11:00', to: '14:00' };
    // London leaves summer time on Sunday 2026-10-25: 11:00 is 11:00 GMT that day, 10:00 UTC the week before.
    const before = pageWindow(lunch, 'Europe/London', Date.UTC(2026, 9, 18, 0, 0));
    const after = pageWindow(lunch, 'Europe/London', Date.UTC(2026, 9, 25, 0, 0));
    expect(before?.start).toBe(Date.UTC(2026, 9, 18, 10, 0));
    expect(after?.start).toBe(Date.UTC(2026, 9, 25, 11, 0));
    expect(after?.end).toBe(Date.UTC(2026, 9, 25, 14, 0));
  });

  it('takes pages 2–8, weekdays once each, HH:mm times that differ', () => {
    const ok = { templateId: 1, page: 2, weekdays: [1, 2], from: '11:00', to: '14:00' };
    expect(AddPageScheduleBody.parse(ok)).toMatchObject({ name: '', enabled: true });
    for (const bad of [
      { ...ok, page: 1 },
      { ...ok, page: 9 },
      { ...ok, weekdays: [] },
      { ...ok, weekdays: [1, 1] },
      { ...ok, weekdays: [8] },
      { ...ok, from: '24:00' },
      { ...ok, to: '9:00' },
      { ...ok, to: '11:00' },
    ])
      expect(AddPageScheduleBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(EditPageScheduleBody.safeParse({ id: 1, from: '11:00', to: '11:00' }).success).toBe(false);
    expect(EditPageScheduleBody.safeParse({ id: 1, to: '11:00' }).success).toBe(true);
  });
});
