import type { PageSchedule } from '@esl/contract';
import { AddPageScheduleBody } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import {
  fillPageSchedule,
  NEW_SCHEDULE,
  overnight,
  pickerOf,
  timesProblem,
  toPageScheduleBody,
  weekdaysText,
} from './pageSchedule';

// The page schedule dialog's logic (docs/PAGES.md "Page schedules").

const schedule: PageSchedule = {
  id: 7,
  storeId: 1,
  name: 'Lunch',
  templateId: 3,
  templateName: 'Price',
  page: 2,
  weekdays: [1, 2, 3, 4, 5],
  from: '11:00',
  to: '14:00',
  enabled: true,
  timeZone: 'Asia/Shanghai',
  next: null,
  active: false,
  createdAt: 0,
  updatedAt: 0,
};

const words = {
  preset: (p: string) => `<${p}>`,
  day: (d: number) => ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][d] ?? '?',
  separator: ', ',
};

describe('the page schedule form', () => {
  it('sends the times as HH:mm, the weekdays in order and once, the name trimmed; the contract takes it', () => {
    const body = toPageScheduleBody({
      name: '  Lunch menu ',
      templateId: 3,
      page: 2,
      weekdays: [5, 1, 3, 1],
      from: pickerOf('11:30'),
      to: pickerOf('14:05'),
      enabled: false,
    });
    expect(body).toEqual({
      name: 'Lunch menu',
      templateId: 3,
      page: 2,
      weekdays: [1, 3, 5],
      from: '11:30',
      to: '14:05',
      enabled: false,
    });
    expect(AddPageScheduleBody.safeParse(body).success).toBe(true);
  });

  it('starts a new schedule on every day, page 2, enabled', () => {
    expect(NEW_SCHEDULE).toEqual({ page: 2, weekdays: [1, 2, 3, 4, 5, 6, 7], enabled: true });
  });

  it('fills the form from a schedule and sends the same schedule back', () => {
    const values = fillPageSchedule(schedule);
    expect(values.from?.format('HH:mm')).toBe('11:00');
    expect(values.to?.format('HH:mm')).toBe('14:00');
    expect(toPageScheduleBody(values)).toEqual({
      name: 'Lunch',
      templateId: 3,
      page: 2,
      weekdays: [1, 2, 3, 4, 5],
      from: '11:00',
      to: '14:00',
      enabled: true,
    });
  });

  it('says when a window ends the next day, and refuses an end equal to the start', () => {
    expect(overnight(pickerOf('22:00'), pickerOf('06:00'))).toBe(true);
    expect(overnight(pickerOf('11:00'), pickerOf('14:00'))).toBe(false);
    expect(overnight(null, pickerOf('14:00'))).toBe(false);
    expect(timesProblem(pickerOf('11:00'), pickerOf('11:00'))).toBe('sameTime');
    expect(timesProblem(pickerOf('11:00'), pickerOf('11:05'))).toBeNull();
    expect(timesProblem(undefined, pickerOf('11:00'))).toBeNull();
    // The contract refuses the same too.
    const same = { templateId: 1, page: 2, weekdays: [1], from: '11:00', to: '11:00' };
    expect(AddPageScheduleBody.safeParse(same).success).toBe(false);
  });

  it('words the weekdays as a preset when they are one, else day by day in week order', () => {
    expect(weekdaysText([1, 2, 3, 4, 5, 6, 7], words)).toBe('<everyDay>');
    expect(weekdaysText([5, 4, 3, 2, 1], words)).toBe('<workdays>');
    expect(weekdaysText([7, 6], words)).toBe('<weekend>');
    expect(weekdaysText([3, 1, 5], words)).toBe('Mon, Wed, Fri');
  });
});
