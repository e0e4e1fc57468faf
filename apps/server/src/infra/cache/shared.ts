/**
 * A read cache for tenant configuration that changes rarely and is read on every request: who a
 * session token belongs to, which stores a user may see, a page of the store list.
 *
 * Correctness rests on generations, not on timing. Each tenant has a generation, and there is one
 * global generation; every call that changes data moves its tenant's generation on (the platform
 * operator's calls move the global one), in this process at once and in every other server process
 * through the database (PostgreSQL NOTIFY, see `pgbus.ts`). An entry is only used while both
 * generations it was read under are still current. A reader takes the stamp *before* it queries,
 * so a value read across a change is stored under the old stamp and never served.
 *
 * The database stays the only source of truth: losing the cache loses nothing, and while the
 * cross-process channel is down (`enabled = false`) every read goes to the database.
 */

export interface Stamp {
  readonly global: number;
  readonly tenant: number;
  /** The tenant the value belongs to; null for the platform operator's own data. */
  readonly tenantId: number | null;
}

interface Entry {
  value: unknown;
  stamp: Stamp;
  expires: number;
}

const PLATFORM = -1;

export class SharedCache {
  /** False while invalidations from other processes may be missed: nothing is read from the cache. */
  enabled = true;
  private global = 0;
  /** How many invalidations this process has seen: lets a reader who cannot name the tenant in advance detect a change. */
  private seen = 0;
  private readonly tenants = new Map<number, number>();
  private readonly entries = new Map<string, Entry>();

  /**
   * @param maxEntries bound on memory: the oldest entries go first.
   * @param publish tells other processes about an invalidation (set by the PostgreSQL channel).
   * @param now the clock time limits are read on (the server's config.now, so tests can move it).
   */
  constructor(
    readonly maxEntries = 20_000,
    public publish: (tenantId: number | null) => Promise<void> = async () => {},
    readonly now: () => number = Date.now,
  ) {}

  /** Read this before querying the database for a value you mean to `set`. */
  stamp(tenantId: number | null): Stamp {
    return { global: this.global, tenant: this.tenants.get(tenantId ?? PLATFORM) ?? 0, tenantId };
  }

  get<V>(key: string, now: number): V | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now || !this.current(entry.stamp)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as V;
  }

  /** Keeps `value` until its tenant changes or `ttlMs` passes, whichever comes first. */
  set(key: string, value: unknown, stamp: Stamp, now: number, ttlMs: number): void {
    if (!this.enabled || ttlMs <= 0 || !this.current(stamp)) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      // Map keeps insertion order: drop the oldest tenth in one go.
      let drop = Math.ceil(this.maxEntries / 10);
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--drop === 0) break;
      }
    }
    this.entries.set(key, { value: freeze(value), stamp, expires: now + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops this process's entries whose key starts with `prefix` (a TTL-kept figure its writer knows changed). */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** A change in `tenantId` (null: anything, e.g. the platform operator's calls), here and elsewhere. */
  async changed(tenantId: number | null): Promise<void> {
    this.invalidate(tenantId);
    await this.publish(tenantId);
  }

  /** A change seen here or reported by another process. */
  invalidate(tenantId: number | null): void {
    this.seen++;
    if (tenantId === null) {
      this.global++;
      this.entries.clear();
      return;
    }
    this.tenants.set(tenantId, (this.tenants.get(tenantId) ?? 0) + 1);
  }

  /** Changes seen so far; equal before and after a read means none happened in between. */
  get changes(): number {
    return this.seen;
  }

  get size(): number {
    return this.entries.size;
  }

  private current(stamp: Stamp): boolean {
    return stamp.global === this.global && stamp.tenant === (this.tenants.get(stamp.tenantId ?? PLATFORM) ?? 0);
  }
}

/**
 * Every reader gets the same object, so it must not change: frozen two levels deep (a list of
 * rows, a row's fields), and a handler that tried to write to one fails loudly in tests.
 */
function freeze<V>(value: V, depth = 2): V {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (depth > 0) for (const v of Object.values(value)) freeze(v, depth - 1);
  return Object.freeze(value);
}

/**
 * Caches per database handle, as repositories receive only the handle. Handles without a cache
 * (transactions, scripts, benches seeding directly) always read the database.
 */
const byDb = new WeakMap<object, SharedCache>();

export function attachCache(db: object, cache: SharedCache): void {
  byDb.set(db, cache);
}

export function cacheOf(db: object): SharedCache | undefined {
  return byDb.get(db);
}

/**
 * Reads through the cache of `db`: `load` runs when the value is missing, stale or uncached.
 * `undefined` results are not kept (use null for "known to be absent").
 */
export async function cached<V>(
  db: object,
  key: string,
  tenantId: number | null,
  ttlMs: number,
  load: () => Promise<V>,
): Promise<V> {
  const cache = byDb.get(db);
  if (!cache) return load();
  const now = cache.now();
  const hit = cache.get<V>(key, now);
  if (hit !== undefined) return hit;
  const stamp = cache.stamp(tenantId);
  const value = await load();
  if (value !== undefined) cache.set(key, value, stamp, now, ttlMs);
  return value;
}
