import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import { LocalTime, SCHEDULE_SCOPES } from './clock';
import { AlterProductBody } from './products';

/*
 * Prices on a schedule (issue 29 item 1, docs/SCHEDULE.md): a product change that takes effect at
 * a time, per store or chain-wide, in each store's own time zone.
 */

export { LocalTime, SCHEDULE_SCOPES } from './clock';

/** The fields a scheduled change sets: those of a product update, barcode excepted; at least one. */
export const ScheduleChanges = AlterProductBody.omit({ id: true, barcode: true }).refine(
  (c) => Object.values(c).some((v) => v !== undefined),
  'empty',
);
export type ScheduleChanges = z.infer<typeof ScheduleChanges>;

export const SCHEDULE_STATUSES = ['pending', 'applied', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/**
 * A change of a product of the current store at `at`. `chain`: also of every product with the
 * same barcode in the other stores the caller may see, each at `at` in its own store's time zone.
 */
export const AddScheduleBody = z.object({
  productId: Id,
  at: LocalTime,
  scope: z.enum(SCHEDULE_SCOPES).default('store'),
  changes: ScheduleChanges,
  note: Line(200).default(''),
});
export const AddScheduleData = z.object({ ids: z.array(z.number().int()), stores: z.number().int() });

/** Another time and/or other fields for a pending change (fields given replace the whole set). */
export const EditScheduleBody = z.object({ id: Id, at: LocalTime.optional(), changes: ScheduleChanges.optional() });
export const CancelScheduleBody = z.object({ ids: Ids });
export const CancelScheduleData = z.object({ cancelled: z.number().int() });

export const ScheduleListBody = Paging.extend({
  status: z.enum(SCHEDULE_STATUSES).optional(),
  productId: Id.optional(),
});

export const ScheduledChange = z.object({
  id: z.number().int(),
  storeId: z.number().int(),
  productId: z.number().int(),
  barcode: z.string(),
  productName: z.string(),
  changes: z.record(z.string(), z.unknown()),
  /** When it takes effect, Unix ms, and as the store's wall clock in its time zone. */
  at: z.number().int(),
  localAt: z.string(),
  timeZone: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  note: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  appliedAt: z.number().int().nullable(),
  /**
   * A pending change's delivery ahead of its time: tags showing the product, and those whose
   * station holds the label for this change's time (its timed image, docs/SCHEDULE.md). Null
   * when the change is not pending.
   */
  progress: z.object({ held: z.number().int(), tags: z.number().int() }).nullable(),
});
export type ScheduledChange = z.infer<typeof ScheduledChange>;

/** True when the runtime knows the IANA time zone. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `ms` in `tz`, as `YYYY-MM-DDTHH:mm`. */
export function toLocalTime(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(ms));
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '00';
  return `${p('year')}-${p('month')}-${p('day')}T${p('hour')}:${p('minute')}`;
}

/**
 * The instant a wall-clock time of `tz` names (Unix ms). A time a clock change skips (spring
 * forward) is moved forward by the gap (02:30 on a 02:00 → 03:00 night is 03:30); a time it
 * repeats (fall back) is its first occurrence — the `compatible` rule of JavaScript's Temporal.
 */
export function fromLocalTime(local: string, tz: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw new RangeError(`not a local time: ${local}`);
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  const offset = (ms: number) => Date.parse(`${toLocalTime(ms, tz)}:00Z`) - Math.floor(ms / 60_000) * 60_000;
  // The offsets a day before and a day after: equal but across a clock change.
  const before = asUtc - offset(asUtc - 86_400_000);
  const after = asUtc - offset(asUtc + 86_400_000);
  const valid = [before, after].filter((t) => toLocalTime(t, tz) === local);
  return valid.length ? Math.min(...valid) : before;
}
