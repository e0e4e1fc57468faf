import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import type { Language } from '../errors';
import { LocalTime, SCHEDULE_SCOPES } from './clock';
import { AlterProductBody, PRODUCT_FIELD_LABELS, PRODUCT_FIELDS, type ProductField } from './products';

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

/** One formatter per time zone: building one costs ~100 times a format (100,000 changes in a call). */
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockOf(tz: string): Intl.DateTimeFormat {
  let f = clocks.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    clocks.set(tz, f);
  }
  return f;
}

/** The wall clock of `ms` in `tz`, as `YYYY-MM-DDTHH:mm`. */
export function toLocalTime(ms: number, tz: string): string {
  const parts = clockOf(tz).formatToParts(new Date(ms));
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

/*
 * A change's own record when it takes effect (docs/SCHEDULE.md "When it takes effect"): a tag-log
 * row per tag it relabels (kind `schedule`) and a console notice to the user who scheduled it.
 */

/** The tag-log kind of a scheduled change taking effect (its rev is the change's id). */
export const SCHEDULE_TAG_LOG_KIND = 'schedule';

/** What a `schedule` tag-log row keeps (its `detail`, JSON). */
export interface ScheduleLogDetail {
  /** The change's id. */
  change: number;
  /** The fields it set, as scheduled (`ScheduleChanges`). */
  changes: Record<string, unknown>;
  /** Its time, Unix ms, and on the store's clock in its time zone. */
  at: number;
  localAt: string;
  timeZone: string;
}

const shownTime = (localAt: string) => localAt.replace('T', ' ');

/** The product form's order of the fields (custom fields after them). */
const fieldRank = (key: string) => {
  const i = (PRODUCT_FIELDS as readonly string[]).indexOf(key);
  return i >= 0 ? i : PRODUCT_FIELDS.length;
};

/** The fields a change set, in the reader's language: "price 2.99, name Milk" / "价格 2.99，名称 Milk". */
export function describeChanges(changes: Readonly<Record<string, unknown>>, lang: Language): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(changes).sort(([x], [y]) => fieldRank(x) - fieldRank(y))) {
    if (value === undefined) continue;
    if (key === 'custom') {
      parts.push(lang === 'en' ? 'custom fields' : '自定义字段');
      continue;
    }
    const label = PRODUCT_FIELD_LABELS[key as ProductField]?.[lang] ?? key;
    if (value === null || value === '') parts.push(lang === 'en' ? `${label} cleared` : `${label}清空`);
    else parts.push(`${label} ${String(value)}`);
  }
  return parts.join(lang === 'en' ? ', ' : '，');
}

/** The message of a `schedule` tag-log row: which change, what it set, and its time on the store's clock. */
export function scheduleLogMessage(d: ScheduleLogDetail, lang: Language): string {
  const what = describeChanges(d.changes, lang);
  const when = `${shownTime(d.localAt)} ${d.timeZone}`;
  return lang === 'en'
    ? `Scheduled change #${d.change} took effect (set for ${when}): ${what}`
    : `定时变更 #${d.change} 已生效（定于 ${when}）：${what}`;
}

/**
 * The console notice to the user who scheduled changes, once they took effect in a store: one
 * per store and batch (the changes one call, import or form made), with the tags relabelled.
 */
export interface ScheduleAppliedNotice {
  type: 'schedule.applied';
  storeId: number;
  storeName: string;
  /** The changes that took effect (ids), and how many products and tags they changed. */
  ids: number[];
  products: number;
  tags: number;
  /** Their time, Unix ms, and on the store's clock. */
  at: number;
  localAt: string;
  timeZone: string;
  /** What they set, in both languages (`scheduleAppliedSummary`). */
  summary: Record<Language, string>;
}

/**
 * What the changes of a notice set, in the reader's language: one product's name and fields
 * ("Milk: price 2.99"), or how many products and which fields ("12 products: price, name").
 */
export function scheduleAppliedSummary(
  items: readonly { productName: string; changes: Readonly<Record<string, unknown>> }[],
  lang: Language,
  /** How many there were, when `items` is a sample of them. */
  total = items.length,
): string {
  const [one] = items;
  if (total === 1 && one)
    return `${one.productName}${lang === 'en' ? ': ' : '：'}${describeChanges(one.changes, lang)}`;
  const keys = [
    ...new Set(items.flatMap((i) => Object.keys(i.changes).filter((k) => i.changes[k] !== undefined))),
  ].sort((x, y) => fieldRank(x) - fieldRank(y));
  const fields = keys.map((k) =>
    k === 'custom'
      ? lang === 'en'
        ? 'custom fields'
        : '自定义字段'
      : (PRODUCT_FIELD_LABELS[k as ProductField]?.[lang] ?? k),
  );
  return lang === 'en' ? `${total} products: ${fields.join(', ')}` : `${total} 个商品：${fields.join('、')}`;
}

/** The notice's text: "Scheduled change for <time> took effect in store X on N tags: <summary>". */
export function scheduleAppliedMessage(
  n: Pick<ScheduleAppliedNotice, 'storeName' | 'tags' | 'localAt' | 'summary'>,
  lang: Language,
): string {
  const when = shownTime(n.localAt);
  if (lang === 'en') {
    const tags = n.tags === 1 ? '1 tag' : `${n.tags} tags`;
    return `The scheduled change for ${when} took effect in store ${n.storeName} on ${tags}: ${n.summary.en}`;
  }
  return `定于 ${when} 的定时变更已在门店 ${n.storeName} 生效，共 ${n.tags} 个价签：${n.summary['zh-CN']}`;
}
