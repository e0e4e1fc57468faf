import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import { fromLocalTime, toLocalTime } from './schedule';

/*
 * Page schedules (issue 29 item 3, docs/PAGES.md "Page schedules"): on the weekdays chosen, from
 * `from` to `to` (the store's wall clock, its time zone), the tags of the store whose label is
 * drawn with template `templateId` show page `page`, and page 1 again after `to`. A `to` at or
 * before `from` ends the next day (a night). The server sends each switch ahead with its time
 * (docs/PROTOCOL.md §5.15 rule 5), so the tags change page together and no picture is sent.
 */

/** ISO weekdays: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A time of day on the store's clock, `HH:mm` (00:00–23:59). */
export const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalid');

const Weekdays = z
  .array(z.number().int().min(1).max(7))
  .min(1, 'required')
  .max(7)
  .refine((d) => new Set(d).size === d.length, 'duplicate');

const timesDiffer = (b: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (b.from !== undefined && b.to !== undefined && b.from === b.to)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'sameTime' });
};

export const AddPageScheduleBody = z
  .object({
    name: Line(100).default(''),
    /** The template whose tags switch (of the tenant; every tag of the store drawn with it). */
    templateId: Id,
    /** The page shown in the window (2–8; the template must have it). */
    page: z.number().int().min(2).max(8),
    weekdays: Weekdays,
    from: ClockTime,
    to: ClockTime,
    enabled: z.boolean().default(true),
  })
  .superRefine(timesDiffer);
export type AddPageScheduleBody = z.input<typeof AddPageScheduleBody>;

/** Fields given replace those of a schedule of the current store. */
export const EditPageScheduleBody = z
  .object({
    id: Id,
    name: Line(100).optional(),
    templateId: Id.optional(),
    page: z.number().int().min(2).max(8).optional(),
    weekdays: Weekdays.optional(),
    from: ClockTime.optional(),
    to: ClockTime.optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine(timesDiffer);
export const DeletePageScheduleBody = z.object({ ids: Ids });
export const DeletePageScheduleData = z.object({ deleted: z.number().int() });

export const PageScheduleListBody = Paging.extend({ templateId: Id.optional() });

/** One window of a schedule: Unix ms, and the store's wall clock (`YYYY-MM-DDTHH:mm`). */
export const PageWindow = z.object({
  start: z.number().int(),
  end: z.number().int(),
  startAt: z.string(),
  endAt: z.string(),
});
export type PageWindow = z.infer<typeof PageWindow>;

export const PageSchedule = z.object({
  id: z.number().int(),
  storeId: z.number().int(),
  name: z.string(),
  templateId: z.number().int(),
  templateName: z.string(),
  page: z.number().int(),
  weekdays: z.array(z.number().int()),
  from: z.string(),
  to: z.string(),
  enabled: z.boolean(),
  timeZone: z.string(),
  /** The window under way, else the next one; null when disabled. */
  next: PageWindow.nullable(),
  /** True while `next` is under way. */
  active: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type PageSchedule = z.infer<typeof PageSchedule>;

/** The date `days` after `date` (`YYYY-MM-DD`). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** ISO weekday (1 Monday … 7 Sunday) of a date `YYYY-MM-DD`. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7;
}

export interface PageTimes {
  weekdays: readonly number[];
  from: string;
  to: string;
}

/**
 * The window of a schedule under way at `now`, else the next one (null: no weekday chosen). A
 * window starts at `from` on a chosen weekday of the store's clock and ends at `to` that day, or
 * the next day when `to` is not after `from`; clock changes as `fromLocalTime` reads them.
 */
export function pageWindow(s: PageTimes, tz: string, now: number): PageWindow | null {
  const days = new Set(s.weekdays);
  if (days.size === 0) return null;
  const today = toLocalTime(now, tz).slice(0, 10);
  const overnight = s.to <= s.from;
  // Yesterday's window may still run (a night); then up to a week ahead.
  for (let k = -1; k <= 8; k++) {
    const date = addDays(today, k);
    if (!days.has(weekdayOf(date))) continue;
    const start = fromLocalTime(`${date}T${s.from}`, tz);
    const end = fromLocalTime(`${overnight ? addDays(date, 1) : date}T${s.to}`, tz);
    if (end <= now || end <= start) continue;
    return { start, end, startAt: toLocalTime(start, tz), endAt: toLocalTime(end, tz) };
  }
  return null;
}
