import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema';
import { COUNT_TTL_MS, countCache, touchStore } from './counts';

const fakeDb = () => ({}) as Kysely<Database>;

describe('tag-list totals cache', () => {
  it('reuses a total until it expires or the store changes, per database handle', () => {
    const db = fakeDb();
    const cache = countCache(db);
    cache.set(1, 'k', 42, 1000, cache.version(1));
    expect(cache.get(1, 'k', 1000 + COUNT_TTL_MS - 1)).toBe(42);
    expect(cache.get(1, 'k', 1000 + COUNT_TTL_MS)).toBeUndefined();
    expect(cache.get(2, 'k', 1000)).toBeUndefined();
    expect(countCache(fakeDb()).get(1, 'k', 1000)).toBeUndefined();

    touchStore(db, 1);
    expect(cache.get(1, 'k', 1000)).toBeUndefined();
  });

  it('never keeps a total counted across a write', () => {
    const cache = countCache(fakeDb());
    const before = cache.version(7);
    cache.touch(7); // a write lands while the count runs
    cache.set(7, 'k', 10, 0, before);
    expect(cache.get(7, 'k', 0)).toBeUndefined();
  });
});
