import { type AddTagsData, ErrorCode, hasPermission, type Tag, TENANT_ROLES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildStorelessAdmin, buildTag, snapshot } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { COUNT_TTL_MS } from './repository';

describe.each(await testDatabases())('tags on $name', (db) => {
  const t = useApp(db);

  it('adds many tags at once, upper case, with the model’s usual colour type', async () => {
    const { tokens, store } = await buildShop(t().app);
    const res = await t().call<AddTagsData>(
      '/mgr/tag/add',
      { model: '0a', hardwareIds: 'a1b2c3d4, 00112233aabbccdd\n a1b2c3d4;DEADBEEF' },
      { token: tokens.manager },
    );
    expect(res.code, res.msg).toBe(0);
    expect(res.data.added).toBe(3);
    expect(res.data.tags.map((tag) => tag.hardwareId).sort()).toEqual(['00112233AABBCCDD', 'A1B2C3D4', 'DEADBEEF']);
    expect(res.data.tags[0]).toMatchObject({
      model: '0A',
      modelName: '2.66L',
      colour: 'bwr',
      status: 'unknown',
      product: null,
    });
    const yellow = await t().call<AddTagsData>(
      '/mgr/tag/add',
      { model: '11', colour: 'bwy', hardwareIds: ['CAFEF00D'] },
      { token: tokens.manager },
    );
    expect(yellow.data.tags[0]).toMatchObject({ model: '11', colour: 'bwy' });
    expect(await snapshot(t().app, 'tags', store.id)).toHaveLength(4);
  });

  it('validates IDs, model and colour type, naming the field', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.admin;
    const cases: [body: object, msg: string][] = [
      [{ hardwareIds: ['A1B2C3D4'] }, 'Tag model: please select a model or an ID'],
      [{ model: '05' }, 'Tag IDs: please select a model or an ID'],
      [{ model: '05', hardwareIds: [] }, 'Tag IDs: please select a model or an ID'],
      [{ model: '05', hardwareIds: ' ' }, 'Tag IDs: please select a model or an ID'],
      [{ model: '05', hardwareIds: ['A1B2C3D4', 'XYZ12345'] }, 'Tag IDs (item 2): has the wrong format'],
      [{ model: '05', hardwareIds: ['A1B2C3'] }, 'Tag IDs (item 1): has the wrong format'],
      [{ model: '05', hardwareIds: ['A1B2C3D4A1B2C3D4A'] }, 'Tag IDs (item 1): has the wrong format'],
      [{ model: '45', hardwareIds: ['A1B2C3D4'] }, 'Tag model: has the wrong format'],
      [{ model: '06', colour: 'bwr', hardwareIds: ['A1B2C3D4'] }, 'Colour: has the wrong format'],
    ];
    for (const [body, msg] of cases) {
      const res = await t().call('/mgr/tag/add', body, { token });
      expect(res, JSON.stringify(body)).toMatchObject({ code: ErrorCode.VALIDATION, msg });
    }
    const zh = await t().call('/mgr/tag/add', { hardwareIds: ['A1B2C3D4'] }, { token, lang: 'zh-CN' });
    expect(zh.msg).toBe('价签型号：请选择型号或填写 ID');
  });

  it('keeps hardware IDs unique on the whole platform: one taken ID refuses the whole add', async () => {
    const a = await buildShop(t().app);
    const b = await buildShop(t().app);
    await buildTag(t().app, { tenantId: a.tenant.id, storeId: a.otherStore.id }, { hardwareId: 'ABCDEF01' });
    const res = await t().call(
      '/mgr/tag/add',
      { model: '05', hardwareIds: ['11111111', 'abcdef01'] },
      { token: a.tokens.admin },
    );
    expect(res).toMatchObject({ code: ErrorCode.CONFLICT, msg: 'Already exists: ABCDEF01' });
    expect(await snapshot(t().app, 'tags', a.store.id)).toEqual([]);
    // Another tenant gets the same answer: the ID is taken, never by whom.
    const other = await t().call('/mgr/tag/add', { model: '05', hardwareIds: ['ABCDEF01'] }, { token: b.tokens.admin });
    expect(other).toMatchObject({ code: ErrorCode.CONFLICT, msg: 'Already exists: ABCDEF01' });
    expect(other.msg).not.toContain(a.tenant.name);
    expect(await snapshot(t().app, 'tags', b.store.id)).toEqual([]);
    // The database holds the rule too, for a writer that skipped the check.
    await expect(
      buildTag(t().app, { tenantId: b.tenant.id, storeId: b.store.id }, { hardwareId: 'ABCDEF01' }),
    ).rejects.toThrow();
  });

  it('filters by status, model, bound and text, pages and sorts', async () => {
    const { tokens, store, otherStore, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const apple = await buildProduct(t().app, at, { barcode: '6901111', name: '红富士苹果' });
    const milk = await buildProduct(t().app, at, { barcode: '6902222', name: 'Milk' });
    await buildTag(t().app, at, { hardwareId: 'AA000001', status: 'online', productId: apple.id, battery: 80 });
    await buildTag(t().app, at, {
      hardwareId: 'AA000002',
      status: 'lost',
      model: '1C',
      productId: milk.id,
      battery: 10,
    });
    await buildTag(t().app, at, { hardwareId: 'AA000003', status: 'online', model: '1C', battery: 50 });
    await buildTag(t().app, at, { hardwareId: 'BB000004', status: 'interrupted', productId: apple.id, battery: 30 });
    await buildTag(t().app, { tenantId: tenant.id, storeId: otherStore.id }, { hardwareId: 'AA000009' });
    const token = tokens.clerk;
    const ids = async (body: object) => {
      const res = await t().call<Tag[]>('/mgr/tag/list', body, { token });
      expect(res.code, res.msg).toBe(0);
      return { ids: res.data.map((tag) => tag.hardwareId), count: res.count };
    };
    expect(await ids({})).toEqual({ ids: ['BB000004', 'AA000003', 'AA000002', 'AA000001'], count: 4 });
    expect(await ids({ status: 'online' })).toEqual({ ids: ['AA000003', 'AA000001'], count: 2 });
    expect(await ids({ model: '1c' })).toEqual({ ids: ['AA000003', 'AA000002'], count: 2 });
    expect(await ids({ bound: false })).toEqual({ ids: ['AA000003'], count: 1 });
    expect(await ids({ bound: true, status: 'online' })).toEqual({ ids: ['AA000001'], count: 1 });
    expect(await ids({ text: '苹果' })).toEqual({ ids: ['BB000004', 'AA000001'], count: 2 });
    expect(await ids({ text: '6902' })).toEqual({ ids: ['AA000002'], count: 1 });
    expect(await ids({ text: 'bb0' })).toEqual({ ids: ['BB000004'], count: 1 });
    expect(await ids({ text: '%' })).toEqual({ ids: [], count: 0 });
    expect(await ids({ sort: 'battery', order: 'asc' })).toEqual({
      ids: ['AA000002', 'BB000004', 'AA000003', 'AA000001'],
      count: 4,
    });
    expect(await ids({ sort: 'hardwareId', order: 'asc', page: 2, limit: 3 })).toEqual({ ids: ['BB000004'], count: 4 });

    const full = await t().call<Tag[]>('/mgr/tag/list', { text: 'AA000002' }, { token });
    expect(full.data[0]).toMatchObject({
      hardwareId: 'AA000002',
      model: '1C',
      modelName: '4.20T',
      status: 'lost',
      signal: -60,
      battery: 10,
      temperature: 22,
      product: { id: milk.id, barcode: '6902222', name: 'Milk', price: '19.99' },
    });
    const bad = await t().call('/mgr/tag/list', { status: 'sleeping' }, { token });
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'Status: has the wrong format' });
  });

  it('finds one tag by its exact hardware ID, however many barcodes contain it (the handheld look-up)', async () => {
    const { tokens, store, otherStore, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    // An all-digit ID, then 21 newer tags whose products' barcodes contain it: a text search's
    // first page of 20 (newest first) holds none but those.
    const wanted = await buildTag(t().app, at, { hardwareId: '12345678' });
    for (let i = 0; i < 21; i++) {
      const product = await buildProduct(t().app, at, { barcode: `69${String(i).padStart(2, '0')}123456789` });
      await buildTag(t().app, at, { hardwareId: `AB0000${String(i).padStart(2, '0')}`, productId: product.id });
    }
    await buildTag(t().app, { tenantId: tenant.id, storeId: otherStore.id }, { hardwareId: '1234567890' });
    const token = tokens.clerk;
    const list = async (body: object) => {
      const res = await t().call<Tag[]>('/mgr/tag/list', { page: 1, limit: 20, ...body }, { token });
      expect(res.code, res.msg).toBe(0);
      return { ids: res.data.map((tag) => tag.hardwareId), count: res.count };
    };
    const byText = await list({ text: '12345678' });
    expect(byText.count).toBe(22);
    expect(byText.ids).not.toContain('12345678');
    expect(await list({ hardwareId: '12345678' })).toEqual({ ids: ['12345678'], count: 1 });
    // Again through the cached SQL text, in any case, and with other filters.
    expect(await list({ hardwareId: '12345678', limit: 1 })).toEqual({ ids: ['12345678'], count: 1 });
    expect(await list({ hardwareId: 'ab000003', bound: true })).toEqual({ ids: ['AB000003'], count: 1 });
    expect(await list({ hardwareId: '12345678', bound: true })).toEqual({ ids: [], count: 0 });
    // Only the current store's: another store's tag (whose ID starts the same) is not found.
    expect(await list({ hardwareId: '1234567890' })).toEqual({ ids: [], count: 0 });
    expect(wanted.hardware_id).toBe('12345678');
    const bad = await t().call('/mgr/tag/list', { hardwareId: '12-34' }, { token });
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'Tag ID: has the wrong format' });
  });

  it('binds by hardware ID and barcode: a product on many tags, one product per tag', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const apple = await buildProduct(t().app, at, { barcode: '6901111', name: 'Apple' });
    const pear = await buildProduct(t().app, at, { barcode: '6903333', name: 'Pear' });
    const t1 = await buildTag(t().app, at, { hardwareId: 'CC000001' });
    const t2 = await buildTag(t().app, at, { hardwareId: 'CC000002' });
    const token = tokens.stock;
    const first = await t().call<Tag>('/mgr/tag/bindesl', { hardwareId: 'cc000001', barcode: '6901111' }, { token });
    expect(first.code, first.msg).toBe(0);
    expect(first.data.product).toMatchObject({ id: apple.id, name: 'Apple' });
    expect((await t().call('/mgr/tag/bindesl', { hardwareId: 'CC000002', barcode: '6901111' }, { token })).code).toBe(
      0,
    );
    const products = await t().call<{ tags: number }[]>('/mgr/product/list', {}, { token });
    expect(products.data.map((p) => p.tags)).toEqual([0, 2]);

    const rebound = await t().call<Tag>('/mgr/tag/bindesl', { hardwareId: 'CC000001', barcode: '6903333' }, { token });
    expect(rebound.data.product?.id).toBe(pear.id);

    const unbound = await t().call('/mgr/tag/unbindesl', { ids: [t1.id, t2.id] }, { token });
    expect(unbound).toMatchObject({ code: 0, data: { unbound: 2 } });
    const again = await t().call('/mgr/tag/unbindesl', { ids: [t1.id] }, { token });
    expect(again.data).toEqual({ unbound: 0 });
    const rows = await snapshot(t().app, 'tags', store.id);
    expect(rows.map((r) => r.product_id)).toEqual([null, null]);

    const missing = await t().call('/mgr/tag/bindesl', { hardwareId: 'CC000001', barcode: 'nope' }, { token });
    expect(missing).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: 'No product has the barcode nope' });
    const inChinese = await t().call(
      '/mgr/tag/bindesl',
      { hardwareId: 'CC000001', barcode: 'nope' },
      { token, lang: 'zh-CN' },
    );
    expect(inChinese).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: '没有条码为 nope 的商品' });
    const noTag = await t().call('/mgr/tag/bindesl', { hardwareId: 'CC0000FF', barcode: '6901111' }, { token });
    expect(noTag).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: 'No tag with the ID CC0000FF in the current store' });
    const empty = await t().call('/mgr/tag/bindesl', { hardwareId: 'CC000001' }, { token });
    expect(empty).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'Barcode: cannot be empty' });
  });

  it('refuses tags and products of another store or tenant and changes nothing', async () => {
    const a = await buildShop(t().app);
    const b = await buildWorld(t().app);
    const here = { tenantId: a.tenant.id, storeId: a.store.id };
    const there = { tenantId: a.tenant.id, storeId: a.otherStore.id };
    const foreign = { tenantId: b.tenant.id, storeId: b.stores[0].id };
    const myProduct = await buildProduct(t().app, here, { barcode: 'MINE1' });
    await buildProduct(t().app, there, { barcode: 'THERE1' });
    const foreignProduct = await buildProduct(t().app, foreign, { barcode: 'FOREIGN1' });
    const mine = await buildTag(t().app, here, { hardwareId: 'DD000001' });
    const thereTag = await buildTag(t().app, there, { hardwareId: 'DD000002', productId: null });
    const foreignTag = await buildTag(t().app, foreign, { hardwareId: 'DD000003', productId: foreignProduct.id });
    const stores = [a.store.id, a.otherStore.id, b.stores[0].id];
    const before = await Promise.all(stores.map((id) => snapshot(t().app, 'tags', id)));

    const token = a.tokens.admin;
    const attempts: [string, object][] = [
      ['/mgr/tag/bindesl', { hardwareId: 'DD000002', barcode: 'MINE1' }],
      ['/mgr/tag/bindesl', { hardwareId: 'DD000003', barcode: 'MINE1' }],
      ['/mgr/tag/bindesl', { hardwareId: 'DD000001', barcode: 'THERE1' }],
      ['/mgr/tag/bindesl', { hardwareId: 'DD000001', barcode: 'FOREIGN1' }],
      ['/mgr/tag/unbindesl', { ids: [foreignTag.id] }],
      ['/mgr/tag/unbindesl', { ids: [mine.id, thereTag.id] }],
      ['/mgr/tag/delete', { ids: [mine.id, foreignTag.id] }],
      ['/mgr/tag/delete', { ids: [thereTag.id] }],
      ['/mgr/tag/flashesl', { ids: [foreignTag.id] }],
      ['/mgr/tag/echoesl', { ids: [mine.id, thereTag.id] }],
    ];
    for (const [path, body] of attempts) {
      const res = await t().call(path, body, { token });
      expect(res.code, `${path} ${JSON.stringify(body)}`).toBe(ErrorCode.NOT_FOUND);
    }
    const list = await t().call<Tag[]>('/mgr/tag/list', { limit: 2000 }, { token });
    expect(list.data.map((tag) => tag.id)).toEqual([mine.id]);
    expect(await Promise.all(stores.map((id) => snapshot(t().app, 'tags', id)))).toEqual(before);
    expect(await t().app.services.db.selectFrom('device_requests').selectAll().execute()).toEqual([]);
    expect(myProduct.store_id).toBe(a.store.id);
  });

  it('deletes tags all or nothing', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const t1 = await buildTag(t().app, at);
    const t2 = await buildTag(t().app, at);
    expect((await t().call('/mgr/tag/delete', { ids: [t1.id, 987654] }, { token: tokens.admin })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(await snapshot(t().app, 'tags', store.id)).toHaveLength(2);
    const res = await t().call('/mgr/tag/delete', { ids: [t1.id, t2.id] }, { token: tokens.admin });
    expect(res).toMatchObject({ code: 0, data: { deleted: 2 } });
    expect(await snapshot(t().app, 'tags', store.id)).toEqual([]);
  });

  it('answers a request id for refreshes, roll calls and LED flashes, with progress by id', async () => {
    const { tokens, store, tenant, users, otherStoreAdmin } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const t1 = await buildTag(t().app, at);
    const t2 = await buildTag(t().app, at);
    const token = tokens.clerk;
    const led = { colour: 'red', onMs: 100, offMs: 100, count: 2, repeat: 1 };
    const cases: [string, object, string, number, number | null][] = [
      ['/mgr/tag/flashesl', { ids: [t1.id, t2.id] }, 'tag.refresh', 2, null],
      ['/mgr/tag/flashesl', { ids: [t1.id], force: true }, 'tag.refresh', 1, t1.id],
      ['/mgr/tag/flashallesl', {}, 'tag.refreshAll', 2, null],
      ['/mgr/tag/echoesl', { ids: [t2.id] }, 'tag.rollcall', 1, t2.id],
      ['/mgr/tag/echoallesl', {}, 'tag.rollcallAll', 2, null],
      ['/mgr/tag/ledesl', { ids: [t1.id], led }, 'tag.led', 1, t1.id],
    ];
    for (const [path, body, kind, tasks, tagId] of cases) {
      const res = await t().call<{ requestId: number; tasks: number }>(path, body, { token });
      expect(res.code, `${path} ${res.msg}`).toBe(0);
      expect(res.data.tasks, path).toBe(tasks);
      const row = await t()
        .app.services.db.selectFrom('device_requests')
        .selectAll()
        .where('id', '=', res.data.requestId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        kind,
        tag_id: tagId,
        user_id: users.clerk.id,
        store_id: store.id,
        status: 'running',
      });
      const progress = await t().call('/mgr/request/get', { id: res.data.requestId }, { token });
      expect(progress.data).toMatchObject({
        id: res.data.requestId,
        kind,
        status: 'running',
        total: tasks,
        done: 0,
        failed: 0,
      });
      const op = await t()
        .app.services.db.selectFrom('op_logs')
        .select(['code', 'store_id'])
        .where('call', '=', path)
        .where('tenant_id', '=', tenant.id)
        .execute();
      expect(op.at(-1)).toEqual({ code: 0, store_id: store.id });
    }
    // The second refresh of t1 took its slot over from the first: the first counts it done.
    const first = await t()
      .app.services.db.selectFrom('device_requests')
      .select(['done', 'total'])
      .where('kind', '=', 'tag.refresh')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(first).toMatchObject({ done: 2, total: 2 });
    // Another store's tags are not found; nor is a request id of nobody.
    expect((await t().call('/mgr/tag/flashesl', { ids: [t1.id] }, { token: otherStoreAdmin })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await t().call('/mgr/request/get', { id: 999_999 }, { token })).code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t().call('/mgr/tag/ledesl', { ids: [t1.id], led: { ...led, colour: 'purple' } }, { token });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
  });

  it('keeps the list total in step with changes made through the API', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const product = await buildProduct(t().app, at, { barcode: 'P0001', name: 'Step' });
    const old = await buildTag(t().app, at, { hardwareId: 'FF000001', status: 'online' });
    const token = tokens.admin;
    const count = async (body: object) => (await t().call('/mgr/tag/list', body, { token })).count;
    expect(await count({})).toBe(1);
    expect(await count({ bound: true })).toBe(0);
    await t().call('/mgr/tag/add', { model: '05', hardwareIds: ['FF000002', 'FF000003'] }, { token });
    expect(await count({})).toBe(3);
    await t().call('/mgr/tag/bindesl', { hardwareId: 'FF000002', barcode: 'P0001' }, { token });
    expect(await count({ bound: true })).toBe(1);
    expect(await count({ text: 'step' })).toBe(1);
    await t().call('/mgr/product/alert', { id: product.id, name: 'Renamed' }, { token });
    expect(await count({ text: 'step' })).toBe(0);
    await t().call('/mgr/product/delete', { ids: [product.id] }, { token });
    expect(await count({ bound: true })).toBe(0);
    await t().call('/mgr/tag/delete', { ids: [old.id] }, { token });
    expect(await count({})).toBe(2);
  });

  it('reuses a list total for COUNT_TTL_MS; the rows are always read fresh', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    // On PostgreSQL the cache serves once its invalidation channel listens.
    while (!t().app.services.cache.enabled) await new Promise((r) => setTimeout(r, 20));
    await buildTag(t().app, at, { status: 'offline' });
    const list = () => t().call<unknown[]>('/mgr/tag/list', { status: 'offline' }, { token: tokens.admin });
    const first = await list();
    expect([first.count, first.data.length]).toEqual([1, 1]);
    // Written behind the API's back: no change call ends the total, only its time limit.
    await buildTag(t().app, at, { status: 'offline' });
    const reused = await list();
    expect([reused.count, reused.data.length]).toEqual([1, 2]);
    // The time limit runs on the server's clock: however slow this run, only moving it ends the total.
    t().clock.advance(COUNT_TTL_MS - 1);
    expect((await list()).count).toBe(1);
    t().clock.advance(2);
    expect((await list()).count).toBe(2);
  });

  it('answers STORE_NOT_SET without a current store', async () => {
    const { token } = await buildStorelessAdmin(t().app);
    for (const path of ['/mgr/tag/list', '/mgr/tag/flashallesl', '/mgr/tag/echoallesl']) {
      expect((await t().call(path, {}, { token })).code, path).toBe(ErrorCode.STORE_NOT_SET);
    }
    const add = await t().call('/mgr/tag/add', { model: '05', hardwareIds: ['12345678'] }, { token });
    expect(add.code).toBe(ErrorCode.STORE_NOT_SET);
    const bind = await t().call('/mgr/tag/bindesl', { hardwareId: '12345678', barcode: '1' }, { token });
    expect(bind.code).toBe(ErrorCode.STORE_NOT_SET);
  });

  it('gives each role exactly its tag permissions', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    await buildProduct(t().app, at, { barcode: 'PERM1' });
    for (const [i, role] of TENANT_ROLES.entries()) {
      const token = tokens[role];
      const tag = await buildTag(t().app, at);
      const id = `EE00000${i}`;
      const cases = [
        ['/mgr/tag/list', {}, 'tag.read', 0],
        ['/mgr/tag/add', { model: '05', hardwareIds: [id] }, 'tag.write', 0],
        ['/mgr/tag/bindesl', { hardwareId: tag.hardware_id, barcode: 'PERM1' }, 'tag.bind', 0],
        ['/mgr/tag/unbindesl', { ids: [tag.id] }, 'tag.bind', 0],
        ['/mgr/tag/flashesl', { ids: [tag.id] }, 'tag.operate', 0],
        ['/mgr/tag/delete', { ids: [tag.id] }, 'tag.write', 0],
      ] as const;
      for (const [path, body, permission, ok] of cases) {
        const res = await t().call(path, body, { token });
        const expected = hasPermission([role], permission) ? ok : ErrorCode.FORBIDDEN;
        expect(res.code, `${role} ${path} ${res.msg}`).toBe(expected);
      }
    }
  });
});
