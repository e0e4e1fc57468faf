import type { AddPageScheduleBody, PageSchedule } from '@esl/contract';
import dayjs, { type Dayjs } from 'dayjs';

/*
 * The page schedule dialog's logic (docs/PAGES.md "Page schedules"): what its form holds, the body
 * it sends, and how a schedule reads in the list. Times are the store's clock (`HH:mm`).
 */

/** What the page schedule form holds. */
export interface PageScheduleValues {
  name?: string;
  templateId?: number;
  page?: number;
  /** ISO weekdays, 1 Monday … 7 Sunday. */
  weekdays?: number[];
  from?: Dayjs | null;
  to?: Dayjs | null;
  enabled?: boolean;
}

/** Presets of the weekday choice. */
export const WEEKDAY_PRESETS = {
  everyDay: [1, 2, 3, 4, 5, 6, 7],
  workdays: [1, 2, 3, 4, 5],
  weekend: [6, 7],
} as const;

export const NEW_SCHEDULE: PageScheduleValues = {
  page: 2,
  weekdays: [...WEEKDAY_PRESETS.everyDay],
  enabled: true,
};

/** `HH:mm` of a picked time. */
export const clockOf = (t: Dayjs) => t.format('HH:mm');

/** A time of day (`HH:mm`) as the time picker holds it. */
export const pickerOf = (hhmm: string) => dayjs(`2000-01-01T${hhmm}`);

/** The body the add and edit calls take; weekdays in order, each once. */
export function toPageScheduleBody(v: PageScheduleValues): AddPageScheduleBody {
  return {
    name: (v.name ?? '').trim(),
    templateId: v.templateId ?? 0,
    page: v.page ?? 2,
    weekdays: [...new Set(v.weekdays ?? [])].sort((a, b) => a - b),
    from: v.from ? clockOf(v.from) : '',
    to: v.to ? clockOf(v.to) : '',
    enabled: v.enabled ?? true,
  };
}

/** The form's values for a schedule being edited. */
export function fillPageSchedule(s: PageSchedule): PageScheduleValues {
  return {
    name: s.name,
    templateId: s.templateId,
    page: s.page,
    weekdays: [...s.weekdays],
    from: pickerOf(s.from),
    to: pickerOf(s.to),
    enabled: s.enabled,
  };
}

/** A window that ends the next day (its end is not after its start). */
export function overnight(from: Dayjs | null | undefined, to: Dayjs | null | undefined): boolean {
  return Boolean(from && to && clockOf(to) <= clockOf(from));
}

/** The form's own check of the times: which message key to show, or null when they are fine. */
export function timesProblem(from: Dayjs | null | undefined, to: Dayjs | null | undefined): 'sameTime' | null {
  return from && to && clockOf(from) === clockOf(to) ? 'sameTime' : null;
}

/**
 * The weekdays in words: a preset's name when they are one, else each day (`day` names an ISO
 * weekday), in week order.
 */
export function weekdaysText(
  weekdays: readonly number[],
  words: { preset: (p: keyof typeof WEEKDAY_PRESETS) => string; day: (d: number) => string; separator: string },
): string {
  const days = [...new Set(weekdays)].sort((a, b) => a - b);
  for (const p of Object.keys(WEEKDAY_PRESETS) as Array<keyof typeof WEEKDAY_PRESETS>) {
    const preset = WEEKDAY_PRESETS[p];
    if (preset.length === days.length && preset.every((d, i) => days[i] === d)) return words.preset(p);
  }
  return days.map(words.day).join(words.separator);
}
