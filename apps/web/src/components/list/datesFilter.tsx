import { DatePicker, type GetProps } from 'antd';
import type { FilterField } from './filters';

// Apart from filters.tsx so that only the screens with a date filter (the logs) load antd's date
// picker, one of its largest components.

/** A date range as the filter form holds it. */
export type DateRange = GetProps<typeof DatePicker.RangePicker>['value'];

/** A filter from one day to another; either end may stay open. */
export function datesFilter(name: string, label: string): Extract<FilterField, { kind: 'dates' }> {
  return { kind: 'dates', name, label, input: <DatePicker.RangePicker allowEmpty={[true, true]} /> };
}

/** The start of the first day and the end of the last one, in milliseconds (unset ends: undefined). */
export function rangeBounds(range: DateRange | undefined): { from?: number; to?: number } {
  return { from: range?.[0]?.startOf('day').valueOf(), to: range?.[1]?.endOf('day').valueOf() };
}
