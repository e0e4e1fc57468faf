import type { Tag, TagWall } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildOperator } from '../../test/factories';
import { useApp } from '../../test/harness';

// Where a tag is (docs/SHELF.md): positions by scan and by import, the store wall, LED find.
describe.each(await testDatabases())('shelf positions and the store wall, on $name', (db) => {
  const t = useApp(db);

  it('a stock clerk places tags by scan and by import, in the current store only; the wall lays them out', async () => {
    const { tenant, tokens, store, otherStore, otherStoreAdmin } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const a = await buildTag(t().app, at, { hardwareId: 'AB000001' });
    const b = await buildTag(t().app, at, { hardwareId: 'AB000002' });
    const c = await buildTag(t().app, at, { hardwareId: 'AB000003' });
    const loose = await buildTag(t().app, at, { hardwareId: 'AB000004' });
    const far = await buildTag(t().app, { tenantId: tenant.id, storeId: otherStore.id }, { hardwareId: 'AB000009' });
    const stock = { token: tokens.stock };

    // By scan (hardware ID), as the handheld does.
    const set = await t().call<Tag>(
      '/mgr/tag/setposition',
      { hardwareId: 'ab000002', aisle: 'A1', bay: '2', shelf: '3', position: 2 },
      stock,
    );
    expect(set.code, set.msg).toBe(0);
    expect(set.data).toMatchObject({ hardwareId: 'AB000002', aisle: 'A1', bay: '2', shelf: '3', position: 2 });
    // By id; a string position as a form sends it.
    const byId = await t().call<Tag>(
      '/mgr/tag/setposition',
      { id: a.id, aisle: 'A1', bay: '2', shelf: '3', position: '1' },
      stock,
    );
    expect(byId.code, byId.msg).toBe(0);
    // Another store's tag, by hardware ID or by id: not in this store.
    expect((await t().call('/mgr/tag/setposition', { hardwareId: 'AB000009', aisle: 'X' }, stock)).code).toBe(1002);
    expect((await t().call('/mgr/tag/setposition', { id: far.id, aisle: 'X' }, stock)).code).toBe(1002);
    // An id and a hardware ID that are not the same tag.
    expect((await t().call('/mgr/tag/setposition', { id: a.id, hardwareId: 'AB000002' }, stock)).code).toBe(1002);
    // Neither: refused as invalid; a position of 0 too.
    expect((await t().call('/mgr/tag/setposition', { aisle: 'A1' }, stock)).code).toBe(1001);
    expect((await t().call('/mgr/tag/setposition', { id: a.id, position: 0 }, stock)).code).toBe(1001);
    // The platform operator has no tenant; nothing changed in the other store.
    const operator = await buildOperator(t().app);
    expect((await t().call('/mgr/tag/setposition', { id: a.id, aisle: 'Z' }, { token: operator.token })).code).not.toBe(
      0,
    );
    const farRow = await t()
      .app.services.db.selectFrom('tags')
      .select('aisle')
      .where('id', '=', far.id)
      .executeTakeFirst();
    expect(farRow?.aisle).toBeNull();

    // Import: all or nothing — an ID of another store refuses every row and names it.
    const refused = await t().call(
      '/mgr/tag/importpositions',
      {
        rows: [
          { hardwareId: 'AB000003', aisle: 'B', bay: '1', shelf: '1', position: 1 },
          { hardwareId: 'AB000009', aisle: 'B', bay: '1', shelf: '1', position: 2 },
        ],
      },
      stock,
    );
    expect(refused.code).toBe(1002);
    expect(refused.msg).toContain('AB000009');
    const imported = await t().call<{ updated: number }>(
      '/mgr/tag/importpositions',
      {
        rows: [
          { hardwareId: 'AB000003', aisle: 'B', bay: '1', shelf: '1', position: 5 },
          { hardwareId: 'AB000003', aisle: 'B', bay: '1', shelf: '1', position: 1 },
        ],
      },
      stock,
    );
    expect(imported.code, imported.msg).toBe(0);
    expect(imported.data.updated).toBe(1);

    // The list shows the place.
    const list = await t().call<Tag[]>('/mgr/tag/list', { hardwareId: 'AB000003' }, stock);
    expect(list.data[0]).toMatchObject({ aisle: 'B', bay: '1', shelf: '1', position: 1 });

    // The wall: a pending label, a low battery, wall order, the aisles and the unplaced count.
    await t()
      .app.services.db.updateTable('tags')
      .set({ desired_hash: 'ab'.repeat(32), shown_ver: null })
      .where('id', '=', b.id)
      .execute();
    await t()
      .app.services.db.updateTable('tags')
      .set({ battery: 5, status: 'normal', last_seen: t().app.services.config.now() })
      .where('id', '=', c.id)
      .execute();
    const wall = await t().call<TagWall>('/mgr/tag/wall', {}, stock);
    expect(wall.code, wall.msg).toBe(0);
    expect(wall.data.aisles).toEqual(['A1', 'B']);
    expect(wall.data.unplaced).toBe(1);
    expect(wall.data.truncated).toBe(false);
    expect(wall.data.tags.map((x) => x.hardwareId)).toEqual(['AB000001', 'AB000002', 'AB000003']);
    expect(wall.data.tags[1]).toMatchObject({ pending: true, desiredVer: 'ab'.repeat(8) });
    expect(wall.data.tags[0]?.pending).toBe(false);
    expect(wall.data.tags[2]?.problems).toContain('lowBattery');
    expect(wall.data.tags[0]?.problems).toEqual([]);
    expect(wall.data.tags.map((x) => x.id)).not.toContain(loose.id);
    const aisleB = await t().call<TagWall>('/mgr/tag/wall', { aisle: 'B' }, stock);
    expect(aisleB.data.tags.map((x) => x.hardwareId)).toEqual(['AB000003']);
    // The other store's wall has none of them.
    const other = await t().call<TagWall>('/mgr/tag/wall', {}, { token: otherStoreAdmin });
    expect(other.data).toMatchObject({ aisles: [], unplaced: 1, tags: [] });

    // Clearing every field takes the tag off the wall.
    expect((await t().call('/mgr/tag/setposition', { id: b.id, aisle: '', bay: '', shelf: '' }, stock)).code).toBe(0);
    const after = await t().call<TagWall>('/mgr/tag/wall', {}, stock);
    expect(after.data.tags.map((x) => x.hardwareId)).toEqual(['AB000001', 'AB000003']);

    // Find: the wall's tag LED, for a clerk; a stock clerk has no tag.operate.
    const led = { colour: 'green', onMs: 500, offMs: 500, count: 3, repeat: 1 };
    expect((await t().call('/mgr/tag/ledesl', { ids: [a.id], led }, { token: tokens.clerk })).code).toBe(0);
    expect((await t().call('/mgr/tag/ledesl', { ids: [a.id], led }, stock)).code).toBe(1003);
  });

  it('orders tags without a position after those with one, on both databases', async () => {
    const { tenant, tokens, store } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    await buildTag(t().app, at, { hardwareId: 'CD000001' });
    await buildTag(t().app, at, { hardwareId: 'CD000002' });
    await buildTag(t().app, at, { hardwareId: 'CD000003' });
    const rows = [
      { hardwareId: 'CD000001', aisle: 'C', bay: '1', shelf: '1', position: null },
      { hardwareId: 'CD000002', aisle: 'C', bay: '1', shelf: '1', position: 2 },
      { hardwareId: 'CD000003', aisle: 'C', bay: '1', shelf: '1', position: 1 },
    ];
    expect((await t().call('/mgr/tag/importpositions', { rows }, { token: tokens.manager })).code).toBe(0);
    const wall = await t().call<TagWall>('/mgr/tag/wall', { aisle: 'C' }, { token: tokens.manager });
    expect(wall.data.tags.map((x) => x.hardwareId)).toEqual(['CD000003', 'CD000002', 'CD000001']);
  });
});
