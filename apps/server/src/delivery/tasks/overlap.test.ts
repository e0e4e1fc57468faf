import { describe, expect, it } from 'vitest';
import { buildShop, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

// Issue 25: on PostgreSQL the store-wide operations met each other's row locks in opposite orders
// (a full-store refresh died of a deadlock in upsertImageSlots, the task pump in countRequest).
// Full-store refreshes, forced refreshes, roll calls, LED flashes and price changes on overlapping
// tags, all at once and again: every call answers code 0 (no 500, no internal error, no deadlock
// left to the caller).

const TAGS = 120;
const ROUNDS = 3;

describe.each(await testDatabases())('overlapping tag operations on $name', (db) => {
  const t = useApp(db);

  it('full-store refreshes, roll calls, LED flashes and price changes at once: no 500', async () => {
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const services = t().app.services;
    const bound = await insertBoundTags(services.db, at, TAGS, {
      hwPrefix: 'OV',
      priceCents: (i) => 100 + i,
      now: t().clock.now(),
    });
    const tagIds = (
      await services.db.selectFrom('tags').select('id').where('store_id', '=', at.storeId).orderBy('id').execute()
    ).map((r) => Number(r.id));
    expect(tagIds).toHaveLength(TAGS);
    const token = shop.tokens.admin;
    const half = tagIds.slice(0, TAGS / 2);
    const rest = tagIds.slice(TAGS / 4);
    const led = { colour: 'green', onMs: 100, offMs: 100, count: 2, repeat: 1 };

    for (let round = 0; round < ROUNDS; round++) {
      const calls: Array<[string, unknown]> = [
        ['/mgr/tag/flashallesl', {}],
        ['/mgr/tag/flashallesl', { force: true }],
        ['/mgr/tag/echoallesl', {}],
        ['/mgr/tag/flashesl', { ids: half, force: true }],
        ['/mgr/tag/flashesl', { ids: [...rest].reverse() }],
        ['/mgr/tag/echoesl', { ids: rest, led }],
        ['/mgr/tag/ledesl', { ids: [...half].reverse(), led }],
        // Price changes of products whose tags the operations above cover, in both orders.
        ...bound
          .filter((_, i) => i % 6 === round)
          .map((b, i): [string, unknown] => [
            '/mgr/product/alert',
            { id: b.productId, price: `${round + 2}.${String(i).padStart(2, '0')}` },
          ]),
      ];
      const answers = await Promise.all(calls.map(([path, body]) => t().call(path, body, { token })));
      for (const [i, a] of answers.entries())
        expect({ path: calls[i]?.[0], status: a.status, code: a.code, msg: a.msg }).toMatchObject({
          status: 200,
          code: 0,
        });
    }
  });
});
