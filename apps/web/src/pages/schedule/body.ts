import type { BodyOf, ScheduledChange } from '@esl/contract';
import type { Dayjs } from 'dayjs';

/** What the schedule dialog's form holds. */
export interface ScheduleFormValues {
  at: Dayjs;
  scope?: 'store' | 'chain';
  price?: string;
  originalPrice?: string;
  name?: string;
  note?: string;
}

/** The store's wall-clock time the picker shows, as the call takes it (`YYYY-MM-DDTHH:mm`). */
export const toLocal = (at: Dayjs) => at.format('YYYY-MM-DDTHH:mm');

/** The fields the form sets (empty ones left out). */
export function scheduleChanges(v: ScheduleFormValues): BodyOf<'addSchedule'>['changes'] {
  const out: Record<string, string> = {};
  for (const key of ['price', 'originalPrice', 'name'] as const) {
    const value = (v[key] ?? '').trim();
    if (value) out[key] = value;
  }
  return out;
}

/** A change's fields as the list shows them ("price 3.50, name Apple"). */
export function describeChanges(c: ScheduledChange, t: (key: string, vars: Record<string, string>) => string): string {
  return Object.entries(c.changes)
    .map(([field, value]) => {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      return ['price', 'originalPrice', 'name'].includes(field)
        ? t(`change.${field}`, { value: shown })
        : t('change.other', { field, value: shown });
    })
    .join(', ');
}
