import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** How long a list total may be reused. */
export const COUNT_TTL_MS = 2000;
const MAX_ENTRIES = 2000;

interface Entry {
  count: number;
  expires: number;
  version: number;
}

/**
 * Totals of the tag list, reused for a moment: counting tens of thousands of index entries costs
 * far more than reading a page of 20, and a console pages through the same filter. Writes through
 * this process invalidate a store's totals at once (`touchStore`); another server process's writes
 * show in the total after at most COUNT_TTL_MS. The rows themselves are always read fresh.
 */
class CountCache {
  private readonly entries = new Map<string, Entry>();
  private readonly versions = new Map<number, number>();

  /** Read before counting: a total counted across a write is stored under the old version, so it is never used. */
  version(storeId: number): number {
    return this.versions.get(storeId) ?? 0;
  }

  get(storeId: number, key: string, now: number): number | undefined {
    const entry = this.entries.get(`${storeId}|${key}`);
    if (!entry || entry.expires <= now || entry.version !== this.version(storeId)) return undefined;
    return entry.count;
  }

  set(storeId: number, key: string, count: number, now: number, version: number): void {
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    }
    this.entries.set(`${storeId}|${key}`, { count, expires: now + COUNT_TTL_MS, version });
  }

  touch(storeId: number): void {
    this.versions.set(storeId, this.version(storeId) + 1);
  }
}

// One cache per database handle, so separate apps (tests) never share totals.
const caches = new WeakMap<Kysely<Database>, CountCache>();

export function countCache(db: Kysely<Database>): CountCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CountCache();
    caches.set(db, cache);
  }
  return cache;
}

/** Call after any change to a store's tags or products (a product's name or barcode is a tag filter). */
export function touchStore(db: Kysely<Database>, storeId: number): void {
  countCache(db).touch(storeId);
}
