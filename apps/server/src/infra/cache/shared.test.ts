import { describe, expect, it } from 'vitest';
import { attachCache, cached, SharedCache } from './shared';

describe('SharedCache', () => {
  it('serves a value until its tenant changes, and only that tenant', () => {
    const cache = new SharedCache();
    cache.set('a', 'one', cache.stamp(1), 0, 1000);
    cache.set('b', 'two', cache.stamp(2), 0, 1000);
    expect(cache.get('a', 10)).toBe('one');
    cache.invalidate(1);
    expect(cache.get('a', 10)).toBeUndefined();
    expect(cache.get('b', 10)).toBe('two');
  });

  it('ends everything on a change without a tenant (the platform operator)', () => {
    const cache = new SharedCache();
    cache.set('a', 'one', cache.stamp(1), 0, 1000);
    cache.set('p', 'op', cache.stamp(null), 0, 1000);
    cache.invalidate(null);
    expect(cache.get('a', 10)).toBeUndefined();
    expect(cache.get('p', 10)).toBeUndefined();
  });

  it('never keeps a value read across a change (stamp taken before the read)', () => {
    const cache = new SharedCache();
    const stamp = cache.stamp(1);
    cache.invalidate(1); // a write lands while the value is being read
    cache.set('a', 'stale', stamp, 0, 1000);
    expect(cache.get('a', 10)).toBeUndefined();
    const other = cache.stamp(2);
    cache.invalidate(null);
    cache.set('b', 'stale', other, 0, 1000);
    expect(cache.get('b', 10)).toBeUndefined();
  });

  it('drops values after their time limit', () => {
    const cache = new SharedCache();
    cache.set('a', 'one', cache.stamp(1), 0, 1000);
    expect(cache.get('a', 999)).toBe('one');
    expect(cache.get('a', 1000)).toBeUndefined();
  });

  it('reads nothing while disabled (the cross-process channel is down)', () => {
    const cache = new SharedCache();
    cache.set('a', 'one', cache.stamp(1), 0, 1000);
    cache.enabled = false;
    expect(cache.get('a', 10)).toBeUndefined();
    cache.set('b', 'two', cache.stamp(1), 0, 1000);
    cache.enabled = true;
    expect(cache.get('b', 10)).toBeUndefined();
  });

  it('stays within its size bound', () => {
    const cache = new SharedCache(100);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i, cache.stamp(1), 0, 1000);
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.get('k999', 1)).toBe(999);
    expect(cache.get('k0', 1)).toBeUndefined();
  });

  it('hands out frozen values, so no reader can change what the next one gets', () => {
    const cache = new SharedCache();
    cache.set('rows', [{ id: 1, name: 'A' }], cache.stamp(1), 0, 1000);
    const rows = cache.get<{ id: number; name: string }[]>('rows', 1) ?? [];
    expect(() => {
      rows[0].name = 'B';
    }).toThrow(TypeError);
    expect(() => rows.push({ id: 2, name: 'C' })).toThrow(TypeError);
  });

  it('announces changes to other processes and counts them', async () => {
    const sent: (number | null)[] = [];
    const cache = new SharedCache(100, async (t) => {
      sent.push(t);
    });
    const before = cache.changes;
    await cache.changed(7);
    await cache.changed(null);
    expect(sent).toEqual([7, null]);
    expect(cache.changes).toBe(before + 2);
  });
});

describe('cached()', () => {
  it('reads through the cache of a database handle, and straight through for others', async () => {
    const db = {};
    const cache = new SharedCache();
    attachCache(db, cache);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cached(db, 'k', 1, 1000, load)).toBe(1);
    expect(await cached(db, 'k', 1, 1000, load)).toBe(1);
    cache.invalidate(1);
    expect(await cached(db, 'k', 1, 1000, load)).toBe(2);
    const transaction = {};
    expect(await cached(transaction, 'k', 1, 1000, load)).toBe(3);
    expect(await cached(transaction, 'k', 1, 1000, load)).toBe(4);
  });

  it('does not keep a value when the tenant changed during the read', async () => {
    const db = {};
    const cache = new SharedCache();
    attachCache(db, cache);
    let reads = 0;
    await cached(db, 'k', 1, 1000, async () => {
      cache.invalidate(1);
      return ++reads;
    });
    expect(await cached(db, 'k', 1, 1000, async () => ++reads)).toBe(2);
  });
});
