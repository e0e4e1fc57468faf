import { z } from 'zod';
import { ShopRef } from '../common';
import { TagStatus } from './tags';

/**
 * The dashboard's four statistics (SPEC.md §7, `/sumary/*`; docs/DASHBOARD.md). Every figure is
 * counted from the rows that exist when the call is made; nothing is kept on the side.
 */

const Count = z.number().int().nonnegative();

export const TagStatusCount = z.object({ status: TagStatus, count: Count });
export type TagStatusCount = z.infer<typeof TagStatusCount>;

/** `/sumary/getshopstatic`: the caller's current store at a glance. */
export const ShopStatic = z.object({
  /** The current store: every figure but `templates` and `visible` is about it alone. */
  store: ShopRef,
  /** Online = the flag the base-station list shows and filters on. */
  stations: z.object({ total: Count, online: Count, offline: Count }),
  tags: z.object({
    total: Count,
    /** Tags showing a product. */
    bound: Count,
    unbound: Count,
    /** One entry per status of TAG_STATUSES, in that order, zeros included. */
    byStatus: z.array(TagStatusCount),
  }),
  products: Count,
  /** Templates belong to the tenant, not to a store. */
  templates: Count,
  /** Totals over every store the caller may see: the whole tenant for an administrator. */
  visible: z.object({ stores: Count, stations: Count, tags: Count, products: Count }),
  /** Delivery to the store's tags (DELIVERY.md §5.5). */
  delivery: z.object({
    /** Task slots waiting to be rendered or sent. */
    queued: Count,
    /** Sent to a station, not finished yet. */
    inFlight: Count,
    /** Tag-log rows of the last 24 h that ended done: tasks carried out (a skipped refresh is not counted). */
    done24h: Count,
    /** Tag-log rows of the last 24 h that failed. */
    failed24h: Count,
    /** Median time from queued to shown of the screen updates done in the last 24 h, s; null: none. */
    p50LatencyS: z.number().nonnegative().nullable(),
  }),
});
export type ShopStatic = z.infer<typeof ShopStatic>;

/** `/sumary/gettagmodeldistribution`: tags of the current store per catalogue model, most first. */
export const TagModelCount = z.object({
  /** Catalogue code, e.g. '05'. */
  model: z.string(),
  /** Catalogue name, e.g. '2.13L' (the code when the catalogue does not know it). */
  name: z.string(),
  count: Count,
});
export type TagModelCount = z.infer<typeof TagModelCount>;
export const TagModelDistribution = z.array(TagModelCount);

/** `/sumary/gettagshopdistribution`: tags per store the caller may see, stores without tags included. */
export const TagStoreCount = z.object({ storeId: z.number().int(), name: z.string(), count: Count });
export type TagStoreCount = z.infer<typeof TagStoreCount>;
export const TagShopDistribution = z.array(TagStoreCount);

export const TAG_CHANGE_DAYS = { min: 7, max: 90, default: 7 } as const;

export const TagChangeStatBody = z.object({
  /** How many days, today included. */
  days: z.coerce.number().int().min(TAG_CHANGE_DAYS.min).max(TAG_CHANGE_DAYS.max).default(TAG_CHANGE_DAYS.default),
  /**
   * Where a day starts: minutes east of UTC (China: 480). The console sends its own; the server
   * counts in UTC without it.
   */
  utcOffset: z.coerce.number().int().min(-720).max(840).default(0),
});

/**
 * What `/sumary/gettagchanglogsatat` counts: successful operation-log rows (code 0) of these
 * calls made in the current store, one per call however many tags or products it touched.
 */
export const TAG_CHANGE_CALLS = {
  /** A tag bound to a product, or tags unbound. */
  binding: ['/mgr/tag/bindesl', '/mgr/tag/unbindesl'],
  /** Tags added to or deleted from the store. */
  tags: ['/mgr/tag/add', '/mgr/tag/delete'],
  /** Products added, altered (price changes included), deleted or imported. */
  products: [
    '/mgr/product/add',
    '/mgr/product/alert',
    '/mgr/product/delete',
    '/mgr/product/import',
    '/mgr/product/importmapped',
  ],
} as const;
export type TagChangeKind = keyof typeof TAG_CHANGE_CALLS;
export const TAG_CHANGE_KINDS = Object.keys(TAG_CHANGE_CALLS) as TagChangeKind[];

export const TagChangeDay = z.object({
  /** YYYY-MM-DD in the body's `utcOffset`. */
  date: z.string(),
  /** binding + tags + products. */
  count: Count,
  binding: Count,
  tags: Count,
  products: Count,
  /** Screen updates the tags confirmed (tag log: refreshes ending `ok`; a skip sent nothing). */
  delivered: Count,
  /** Screen updates that failed (tag log: refreshes ending `failed`). */
  failed: Count,
});
export type TagChangeDay = z.infer<typeof TagChangeDay>;
/** One entry per day, oldest first, ending today; days without changes included. */
export const TagChangeStat = z.array(TagChangeDay);
