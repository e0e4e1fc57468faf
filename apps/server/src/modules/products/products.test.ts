import { describeTarget, ErrorCode, type FieldMap, hasPermission, type Product, TENANT_ROLES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildStorelessAdmin, buildTag, snapshot } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe.each(await testDatabases())('products on $name', (db) => {
  const t = useApp(db);

  it('adds a product with exact prices and custom fields, finds it by barcode', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.clerk;
    const added = await t().call<Product>(
      '/mgr/product/add',
      {
        barcode: '6901234567892',
        name: ' 东北五常大米 5kg ',
        price: '59.9',
        originalPrice: 69.9,
        unit: '袋',
        spec: '5kg',
        origin: '黑龙江',
        grade: '一级',
        qrcode: 'https://shop.example.com/p/1',
        custom: { memberPrice: '55.00' },
      },
      { token },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({
      barcode: '6901234567892',
      name: '东北五常大米 5kg',
      price: '59.90',
      originalPrice: '69.90',
      custom: { memberPrice: '55.00' },
      priceChanges: 0,
      tags: 0,
    });
    const row = await t()
      .app.services.db.selectFrom('products')
      .select(['price_cents', 'original_price_cents'])
      .where('id', '=', added.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price_cents: 5990, original_price_cents: 6990 });

    const found = await t().call<Product>('/mgr/product/find', { barcode: '6901234567892' }, { token });
    expect(found.data).toEqual(added.data);
    expect((await t().call('/mgr/product/find', { barcode: '000' }, { token })).code).toBe(ErrorCode.NOT_FOUND);

    const big = await t().call<Product>(
      '/mgr/product/add',
      { barcode: 'BIG', name: 'x', price: '9999999999.99' },
      { token },
    );
    expect(big.data.price).toBe('9999999999.99');
  });

  it('validates fields, naming each', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.admin;
    const base = { barcode: '690', name: 'x', price: '1' };
    const cases: [object, string][] = [
      [{ name: 'x', price: '1' }, 'Barcode: cannot be empty'],
      [{ ...base, barcode: 'a b' }, 'Barcode: has the wrong format'],
      [{ ...base, name: '' }, 'Name: cannot be empty'],
      [{ ...base, name: 'a\nb' }, 'Name: no line breaks allowed'],
      [{ barcode: '690', name: 'x' }, 'Price: cannot be empty'],
      [{ ...base, price: '1.005' }, 'Price: has the wrong format'],
      [{ ...base, price: -1 }, 'Price: has the wrong format'],
      [{ ...base, price: true }, 'Price: has the wrong format'],
      [{ ...base, originalPrice: 'abc' }, 'Original price: has the wrong format'],
      [{ ...base, unit: 'x'.repeat(21) }, 'Unit: is too long'],
      [{ ...base, custom: { '1bad': 'v' } }, '1bad: has the wrong format'],
      [{ ...base, custom: { price: 'v' } }, 'Price: has the wrong format'],
    ];
    for (const [body, msg] of cases) {
      const res = await t().call('/mgr/product/add', body, { token });
      expect(res, JSON.stringify(body)).toMatchObject({ code: ErrorCode.VALIDATION, msg });
    }
  });

  it('keeps barcodes unique per store', async () => {
    const { tokens, otherStoreAdmin } = await buildShop(t().app);
    const body = { barcode: 'SAME', name: 'x', price: '1' };
    expect((await t().call('/mgr/product/add', body, { token: tokens.admin })).code).toBe(0);
    expect(await t().call('/mgr/product/add', body, { token: tokens.admin })).toMatchObject({
      code: ErrorCode.CONFLICT,
      msg: 'Already exists: SAME',
    });
    expect((await t().call('/mgr/product/add', body, { token: otherStoreAdmin })).code).toBe(0);
    const second = await t().call<Product>('/mgr/product/add', { ...body, barcode: 'OTHER' }, { token: tokens.admin });
    const clash = await t().call(
      '/mgr/product/alert',
      { id: second.data.id, barcode: 'SAME' },
      { token: tokens.admin },
    );
    expect(clash.code).toBe(ErrorCode.CONFLICT);
  });

  it('counts a price change only when the price really changes', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.clerk;
    const p = await t().call<Product>('/mgr/product/add', { barcode: 'PC1', name: 'Tea', price: '10' }, { token });
    const alter = (patch: object) => t().call<Product>('/mgr/product/alert', { id: p.data.id, ...patch }, { token });
    expect((await alter({ price: '10.5' })).data).toMatchObject({ price: '10.50', priceChanges: 1 });
    expect((await alter({ name: 'Green tea', unit: '盒' })).data).toMatchObject({ name: 'Green tea', priceChanges: 1 });
    expect((await alter({ price: '10.50' })).data.priceChanges).toBe(1);
    expect((await alter({ originalPrice: '12' })).data).toMatchObject({ originalPrice: '12.00', priceChanges: 1 });
    expect((await alter({ price: 9.99 })).data).toMatchObject({ price: '9.99', priceChanges: 2 });
    expect((await alter({ originalPrice: null })).data.originalPrice).toBeNull();
    expect((await alter({ custom: { a: '1' } })).data.custom).toEqual({ a: '1' });
    const after = await alter({});
    expect(after.data).toMatchObject({
      name: 'Green tea',
      unit: '盒',
      price: '9.99',
      priceChanges: 2,
      custom: { a: '1' },
    });
  });

  it('lists with text and bound filters, sorting and paging', async () => {
    const { tokens, store, otherStore, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const apple = await buildProduct(t().app, at, { barcode: '6901', name: '苹果', priceCents: 500 });
    await buildProduct(t().app, at, { barcode: '6902', name: 'Pear', priceCents: 300 });
    const milk = await buildProduct(t().app, at, { barcode: '7001', name: 'Milk', priceCents: 1200 });
    await buildProduct(
      t().app,
      { tenantId: tenant.id, storeId: otherStore.id },
      { barcode: '6903', name: 'Elsewhere' },
    );
    await buildTag(t().app, at, { productId: apple.id });
    await buildTag(t().app, at, { productId: apple.id });
    await buildTag(t().app, at, { productId: milk.id });
    const token = tokens.stock;
    const list = async (body: object) => {
      const res = await t().call<Product[]>('/mgr/product/list', body, { token });
      expect(res.code, res.msg).toBe(0);
      return { names: res.data.map((p) => p.name), count: res.count };
    };
    expect(await list({})).toEqual({ names: ['Milk', 'Pear', '苹果'], count: 3 });
    expect(await list({ text: '690' })).toEqual({ names: ['Pear', '苹果'], count: 2 });
    expect(await list({ text: 'MILK' })).toEqual({ names: ['Milk'], count: 1 });
    expect(await list({ bound: true })).toEqual({ names: ['Milk', '苹果'], count: 2 });
    expect(await list({ bound: false })).toEqual({ names: ['Pear'], count: 1 });
    expect(await list({ sort: 'price', order: 'asc' })).toEqual({ names: ['Pear', '苹果', 'Milk'], count: 3 });
    expect(await list({ sort: 'price', order: 'desc', page: 2, limit: 2 })).toEqual({ names: ['Pear'], count: 3 });
    const rows = await t().call<Product[]>('/mgr/product/list', { sort: 'barcode', order: 'asc' }, { token });
    expect(rows.data.map((p) => p.tags)).toEqual([2, 0, 1]);
  });

  it('deletes all or nothing and unbinds the tags', async () => {
    const { tokens, store, otherStore, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const p1 = await buildProduct(t().app, at);
    const p2 = await buildProduct(t().app, at);
    const elsewhere = await buildProduct(t().app, { tenantId: tenant.id, storeId: otherStore.id });
    const tag = await buildTag(t().app, at, { productId: p1.id });
    const refused = await t().call('/mgr/product/delete', { ids: [p1.id, elsewhere.id] }, { token: tokens.admin });
    expect(refused.code).toBe(ErrorCode.NOT_FOUND);
    expect(await snapshot(t().app, 'products', store.id)).toHaveLength(2);
    const res = await t().call('/mgr/product/delete', { ids: [p1.id, p2.id] }, { token: tokens.admin });
    expect(res).toMatchObject({ code: 0, data: { deleted: 2 } });
    const tags = await snapshot(t().app, 'tags', store.id);
    // The tag keeps when its product went: the problems page lists it as a tag to rebind.
    expect(tags).toEqual([{ ...tag, product_id: null, product_gone_at: expect.any(Number) }]);
  });

  it("refuses another store's or tenant's products and changes nothing", async () => {
    const a = await buildShop(t().app);
    const b = await buildWorld(t().app);
    const there = await buildProduct(
      t().app,
      { tenantId: a.tenant.id, storeId: a.otherStore.id },
      { barcode: 'THERE' },
    );
    const foreign = await buildProduct(
      t().app,
      { tenantId: b.tenant.id, storeId: b.stores[0].id },
      { barcode: 'FOREIGN' },
    );
    const before = [
      await snapshot(t().app, 'products', a.otherStore.id),
      await snapshot(t().app, 'products', b.stores[0].id),
    ];
    const token = a.tokens.admin;
    for (const p of [there, foreign]) {
      const attempts: [string, object][] = [
        ['/mgr/product/alert', { id: p.id, price: '0.01', name: 'hijacked' }],
        ['/mgr/product/delete', { ids: [p.id] }],
        ['/mgr/product/find', { barcode: p.barcode }],
      ];
      for (const [path, body] of attempts) {
        expect((await t().call(path, body, { token })).code, `${path} ${p.barcode}`).toBe(ErrorCode.NOT_FOUND);
      }
    }
    const list = await t().call<Product[]>('/mgr/product/list', { limit: 2000 }, { token });
    expect(list.data).toEqual([]);
    const after = [
      await snapshot(t().app, 'products', a.otherStore.id),
      await snapshot(t().app, 'products', b.stores[0].id),
    ];
    expect(after).toEqual(before);
  });

  it('reads and replaces the tenant’s field mapping', async () => {
    const a = await buildShop(t().app);
    const b = await buildShop(t().app);
    const read = await t().call<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, { token: a.tokens.clerk });
    expect(read.data.fields.slice(0, 3)).toEqual([
      { name: 'barcode', tField: '条码' },
      { name: 'name', tField: '名称' },
      { name: 'price', tField: '价格' },
    ]);
    expect(read.data.fields).toHaveLength(9);
    const fields = [
      { name: 'barcode', tField: 'SKU' },
      { name: 'memberPrice', tField: '会员价' },
    ];
    expect((await t().call('/mgr/product/mapfield', { fields }, { token: a.tokens.clerk })).code).toBe(
      ErrorCode.FORBIDDEN,
    );
    const set = await t().call<{ fields: FieldMap[] }>('/mgr/product/mapfield', { fields }, { token: a.tokens.stock });
    expect(set.code, set.msg).toBe(0);
    expect(set.data.fields[0]).toEqual({ name: 'barcode', tField: 'SKU' });
    expect(set.data.fields.at(-1)).toEqual({ name: 'memberPrice', tField: '会员价' });
    const again = await t().call<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, { token: a.tokens.admin });
    expect(again.data).toEqual(set.data);
    const other = await t().call<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, { token: b.tokens.admin });
    expect(other.data).toEqual(read.data);

    const dupName = [
      { name: 'barcode', tField: 'A' },
      { name: 'barcode', tField: 'B' },
    ];
    const dupTitle = [
      { name: 'barcode', tField: 'A' },
      { name: 'name', tField: 'a' },
    ];
    for (const bad of [dupName, dupTitle, [{ name: 'custom.x', tField: 'X' }], [{ name: 'unit', tField: '' }]]) {
      const res = await t().call('/mgr/product/mapfield', { fields: bad }, { token: a.tokens.admin });
      expect(res.code, JSON.stringify(bad)).toBe(ErrorCode.VALIDATION);
    }
    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['code', 'target'])
      .where('call', '=', '/mgr/product/mapfield')
      .where('tenant_id', '=', a.tenant.id)
      .where('code', '=', 0)
      .execute();
    // Only the replace is an operation: reading the mapping writes no log row.
    expect(ops.map((o) => describeTarget(o.target, 'en'))).toEqual(['the import field mapping']);
  });

  it('answers STORE_NOT_SET without a current store (the tenant-wide mapping excepted)', async () => {
    const { token } = await buildStorelessAdmin(t().app);
    const calls: [string, object][] = [
      ['/mgr/product/list', {}],
      ['/mgr/product/find', { barcode: '1' }],
      ['/mgr/product/add', { barcode: '1', name: 'x', price: '1' }],
      ['/mgr/product/alert', { id: 1, name: 'x' }],
      ['/mgr/product/delete', { ids: [1] }],
    ];
    for (const [path, body] of calls)
      expect((await t().call(path, body, { token })).code, path).toBe(ErrorCode.STORE_NOT_SET);
    expect((await t().call('/mgr/product/mapfield', {}, { token })).code).toBe(0);
  });

  it('gives each role exactly its product permissions', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    for (const role of TENANT_ROLES) {
      const token = tokens[role];
      const p = await buildProduct(t().app, at);
      const cases = [
        ['/mgr/product/list', {}, 'product.read'],
        ['/mgr/product/find', { barcode: p.barcode }, 'product.read'],
        ['/mgr/product/add', { barcode: `R-${role}`, name: 'x', price: '1' }, 'product.write'],
        ['/mgr/product/alert', { id: p.id, price: '2' }, 'product.write'],
        ['/mgr/product/delete', { ids: [p.id] }, 'product.write'],
      ] as const;
      for (const [path, body, permission] of cases) {
        const res = await t().call(path, body, { token });
        expect(res.code, `${role} ${path} ${res.msg}`).toBe(
          hasPermission([role], permission) ? 0 : ErrorCode.FORBIDDEN,
        );
      }
    }
  });
});
