import {
  ErrorCode,
  hasPermission,
  type Product,
  type ShopStatic,
  TAG_STATUSES,
  type TagChangeDay,
  type TagModelCount,
  type TagStoreCount,
  TENANT_ROLES,
} from '@esl/contract';
import { describe, expect, it } from 'vitest';
import {
  buildProduct,
  buildShop,
  buildStation,
  buildStorelessAdmin,
  buildTag,
  multipartFile,
  useStore,
} from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildOperator, buildStore, buildUser, login } from '../../test/factories';
import type { TestApp } from '../../test/harness';
import { useApp } from '../../test/harness';
import { DAY_MS } from './repository';
import { dayWindow } from './service';

const STATIC = '/sumary/getshopstatic';
const MODELS = '/sumary/gettagmodeldistribution';
const STORES = '/sumary/gettagshopdistribution';
const CHANGES = '/sumary/gettagchanglogsatat';

async function ok<T>(t: TestApp, path: string, token: string, body: object = {}): Promise<T> {
  const res = await t.call<T>(path, body, { token });
  expect(res.code, `${path} ${res.msg}`).toBe(0);
  return res.data;
}

describe('day window of the change statistic', () => {
  const at = Date.UTC(2026, 0, 15, 9, 0, 0);

  it('ends today and starts at midnight where the caller is', () => {
    const utc = dayWindow(at, 7, 0);
    expect(utc.dates).toEqual([
      '2026-01-09',
      '2026-01-10',
      '2026-01-11',
      '2026-01-12',
      '2026-01-13',
      '2026-01-14',
      '2026-01-15',
    ]);
    expect(utc.from).toBe(Date.UTC(2026, 0, 9));
    // 09:00 UTC is 17:00 in China (UTC+8): still the 15th, whose day began at 16:00 UTC on the 14th.
    const china = dayWindow(at, 7, 480);
    expect(china.dates.at(-1)).toBe('2026-01-15');
    expect(china.from).toBe(Date.UTC(2026, 0, 8, 16));
    // 09:00 UTC is 23:00 the day before in Hawaii (UTC−10).
    const hawaii = dayWindow(at, 30, -600);
    expect(hawaii.dates).toHaveLength(30);
    expect(hawaii.dates.at(-1)).toBe('2026-01-14');
    expect(hawaii.from + 30 * DAY_MS).toBe(Date.UTC(2026, 0, 15, 10));
  });
});

describe.each(await testDatabases())('dashboard statistics on $name', (db) => {
  const t = useApp(db);

  /** A store A with known contents, beside rows that must never be counted. */
  async function seeded() {
    const shop = await buildShop(t().app);
    const { tenant, store, otherStore } = shop;
    const at = { tenantId: tenant.id, storeId: store.id };
    const other = { tenantId: tenant.id, storeId: otherStore.id };
    const apple = await buildProduct(t().app, at);
    const milk = await buildProduct(t().app, at);
    await buildProduct(t().app, at);
    await buildTag(t().app, at, { model: '05', status: 'online', productId: apple.id });
    await buildTag(t().app, at, { model: '05', status: 'online', productId: milk.id });
    await buildTag(t().app, at, { model: '05', status: 'lost' });
    await buildTag(t().app, at, { model: '1C', status: 'offline', productId: apple.id });
    await buildTag(t().app, at, { model: '28', status: 'interrupted' });
    const s1 = await buildStation(t().app, at);
    await buildStation(t().app, at);
    await buildStation(t().app, at);
    await t().app.services.db.updateTable('stations').set({ online: 1 }).where('id', '=', s1.id).execute();
    // The tenant's other store.
    const otherProduct = await buildProduct(t().app, other);
    await buildTag(t().app, other, { model: '1C', productId: otherProduct.id });
    await buildTag(t().app, other, { model: '1C' });
    await buildStation(t().app, other);
    // Another tenant, with more of everything.
    const stranger = await buildShop(t().app);
    const far = { tenantId: stranger.tenant.id, storeId: stranger.store.id };
    const farProduct = await buildProduct(t().app, far);
    for (let i = 0; i < 4; i++) await buildTag(t().app, far, { model: '05', productId: farProduct.id });
    await buildStation(t().app, far);
    const template = await t().call(
      '/mgr/templ/addtemple',
      { name: 'Price', model: '05' },
      { token: shop.tokens.admin },
    );
    expect(template.code, template.msg).toBe(0);
    const farTemplate = await t().call(
      '/mgr/templ/addtemple',
      { name: 'Far', model: '05' },
      { token: stranger.tokens.admin },
    );
    expect(farTemplate.code, farTemplate.msg).toBe(0);
    return { ...shop, stranger };
  }

  it('counts the current store, its tenant’s templates and the visible stores', async () => {
    const { tokens, store } = await seeded();
    const figures = await ok<ShopStatic>(t(), STATIC, tokens.admin);
    expect(figures).toEqual({
      store: { id: store.id, name: store.name },
      stations: { total: 3, online: 1, offline: 2 },
      tags: {
        total: 5,
        bound: 3,
        unbound: 2,
        byStatus: TAG_STATUSES.map((status) => ({
          status,
          count: { online: 2, lost: 1, offline: 1, interrupted: 1 }[status as string] ?? 0,
        })),
      },
      products: 3,
      templates: 1,
      visible: { stores: 2, stations: 4, tags: 7, products: 4 },
      delivery: { queued: 0, inFlight: 0, done24h: 0, failed24h: 0, p50LatencyS: null },
    });
    // A store manager is assigned store A only: the visible totals are store A's.
    const manager = await ok<ShopStatic>(t(), STATIC, tokens.manager);
    expect(manager.visible).toEqual({ stores: 1, stations: 3, tags: 5, products: 3 });
    expect(manager.tags.total).toBe(5);
  });

  it('keeps the chain-wide counts a while, but a change call of the tenant ends them at once', async () => {
    const { tokens } = await seeded();
    const before = await ok<ShopStatic>(t(), STATIC, tokens.admin);
    const perStore = await ok<TagStoreCount[]>(t(), STORES, tokens.admin);
    // Written behind the server's back: the kept counts do not see it (they are not read again) ...
    const { db } = t().app.services;
    const store = await db
      .selectFrom('stores')
      .select(['id', 'tenant_id'])
      .where('id', '=', before.store.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('products')
      .values({
        tenant_id: store.tenant_id,
        store_id: store.id,
        barcode: '6900000000991',
        qrcode: '',
        name: 'Hidden',
        price_cents: 100,
        original_price_cents: null,
        unit: '',
        spec: '',
        origin: '',
        grade: '',
        custom: '{}',
        price_changes: 0,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    expect((await ok<ShopStatic>(t(), STATIC, tokens.admin)).visible).toEqual(before.visible);
    // ... a tag added through the console is counted at once, in the totals and per store.
    const added = await t().call(
      '/mgr/tag/add',
      { model: '05', hardwareIds: ['C0FFEE000991'] },
      { token: tokens.admin },
    );
    expect(added.code, added.msg).toBe(0);
    const after = await ok<ShopStatic>(t(), STATIC, tokens.admin);
    expect(after.visible).toEqual({
      ...before.visible,
      tags: before.visible.tags + 1,
      products: before.visible.products + 1,
    });
    const stores = await ok<TagStoreCount[]>(t(), STORES, tokens.admin);
    expect(stores.find((r) => r.storeId === before.store.id)?.count).toBe(
      (perStore.find((r) => r.storeId === before.store.id)?.count ?? 0) + 1,
    );
  });

  it('counts tags per model of the current store, most first', async () => {
    const { tokens, otherStoreAdmin } = await seeded();
    expect(await ok<TagModelCount[]>(t(), MODELS, tokens.clerk)).toEqual([
      { model: '05', name: '2.13L', count: 3 },
      { model: '1C', name: '4.20T', count: 1 },
      { model: '28', name: '7.50T', count: 1 },
    ]);
    expect(await ok<TagModelCount[]>(t(), MODELS, otherStoreAdmin)).toEqual([{ model: '1C', name: '4.20T', count: 2 }]);
  });

  it('counts tags per store the caller may see, stores without tags included', async () => {
    const { tokens, tenant, store, otherStore } = await seeded();
    const empty = await buildStore(t().app, tenant.id, { name: 'Empty store' });
    // The admin sees every store of the tenant (the store list is read through a cache a call empties).
    await t().call('/mgr/station/alert', { id: store.id, remark: 'touched' }, { token: tokens.admin });
    expect(await ok<TagStoreCount[]>(t(), STORES, tokens.admin)).toEqual([
      { storeId: store.id, name: store.name, count: 5 },
      { storeId: otherStore.id, name: otherStore.name, count: 2 },
      { storeId: empty.id, name: 'Empty store', count: 0 },
    ]);
    expect(await ok<TagStoreCount[]>(t(), STORES, tokens.stock)).toEqual([
      { storeId: store.id, name: store.name, count: 5 },
    ]);
    // A user without stores sees none, and needs no current store for it.
    const lonely = await buildUser(t().app, { tenantId: tenant.id, roles: ['editor'] });
    expect(await ok<TagStoreCount[]>(t(), STORES, await login(t().app, lonely.username))).toEqual([]);
  });

  it('answers an empty store with zeros and empty lists', async () => {
    const { tenant, tokens } = await buildShop(t().app);
    const empty = await buildStore(t().app, tenant.id);
    const admin = tokens.admin;
    await useStore(t().app, admin, empty.id);
    const figures = await ok<ShopStatic>(t(), STATIC, admin);
    expect(figures.tags).toEqual({
      total: 0,
      bound: 0,
      unbound: 0,
      byStatus: TAG_STATUSES.map((status) => ({ status, count: 0 })),
    });
    expect(figures.stations).toEqual({ total: 0, online: 0, offline: 0 });
    expect(figures.products).toBe(0);
    expect(await ok(t(), MODELS, admin)).toEqual([]);
    const changes = await ok<TagChangeDay[]>(t(), CHANGES, admin);
    expect(changes.map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('counts successful tag and product changes of the current store per day, by kind', async () => {
    const { tokens, tenant, store, otherStoreAdmin, stranger } = await seeded();
    const token = tokens.manager;
    const at = { tenantId: tenant.id, storeId: store.id };
    const tag = await buildTag(t().app, at, { hardwareId: 'C0FFEE01' });
    const product = await ok<Product>(t(), '/mgr/product/add', token, { barcode: 'CH001', name: 'Tea', price: '3.50' });
    await ok(t(), '/mgr/product/alert', token, { id: product.id, price: '3.80' });
    await ok(t(), '/mgr/tag/bindesl', token, { hardwareId: 'C0FFEE01', barcode: 'CH001' });
    await ok(t(), '/mgr/tag/unbindesl', token, { ids: [tag.id] });
    await ok(t(), '/mgr/tag/add', token, { model: '05', hardwareIds: ['C0FFEE02', 'C0FFEE03'] });
    const { payload, headers } = multipartFile('p.csv', Buffer.from('barcode,name,price\nCH002,Milk,2.00\n'));
    const imported = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/import',
      headers: { ...headers, token },
      payload,
    });
    expect(imported.json().code).toBe(0);
    // Not counted: a refusal, a call of another kind, another store, another tenant.
    const refused = await t().call('/mgr/tag/bindesl', { hardwareId: 'C0FFEE01', barcode: 'NOPE' }, { token });
    expect(refused.code).toBe(ErrorCode.NOT_FOUND);
    await ok(t(), '/mgr/ap/add', tokens.editor, { sn: 'AP-CH-1' });
    await ok(t(), '/mgr/tag/add', otherStoreAdmin, { model: '05', hardwareIds: ['C0FFEE09'] });
    await ok(t(), '/mgr/tag/add', stranger.tokens.admin, { model: '05', hardwareIds: ['C0FFEE0A'] });
    // Rows from earlier days, written straight to the log: two days ago, and just outside the window.
    const now = t().clock.now();
    const row = (time: number, call: string, storeId = store.id) => ({
      tenant_id: tenant.id,
      store_id: storeId,
      user_id: null,
      username: 'x',
      call,
      target: '',
      code: 0,
      msg: '',
      ip: '',
      time,
    });
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    await t()
      .app.services.db.insertInto('op_logs')
      .values([
        row(today - 2 * DAY_MS + 1, '/mgr/product/delete'),
        row(today - 2 * DAY_MS + 2, '/mgr/tag/bindesl'),
        row(today - 6 * DAY_MS, '/mgr/tag/delete'),
        row(today - 6 * DAY_MS - 1, '/mgr/tag/delete'),
      ])
      .execute();

    const week = await ok<TagChangeDay[]>(t(), CHANGES, tokens.clerk);
    const dates = dayWindow(now, 7, 0).dates;
    expect(week).toEqual([
      { date: dates[0], count: 1, binding: 0, tags: 1, products: 0, delivered: 0, failed: 0 },
      { date: dates[1], count: 0, binding: 0, tags: 0, products: 0, delivered: 0, failed: 0 },
      { date: dates[2], count: 0, binding: 0, tags: 0, products: 0, delivered: 0, failed: 0 },
      { date: dates[3], count: 0, binding: 0, tags: 0, products: 0, delivered: 0, failed: 0 },
      { date: dates[4], count: 2, binding: 1, tags: 0, products: 1, delivered: 0, failed: 0 },
      { date: dates[5], count: 0, binding: 0, tags: 0, products: 0, delivered: 0, failed: 0 },
      { date: dates[6], count: 6, binding: 2, tags: 1, products: 3, delivered: 0, failed: 0 },
    ]);
    const month = await ok<TagChangeDay[]>(t(), CHANGES, tokens.clerk, { days: 30 });
    expect(month).toHaveLength(30);
    expect(month.reduce((n, d) => n + d.count, 0)).toBe(10);
    // The tenant's other store sees only its own change.
    const other = await ok<TagChangeDay[]>(t(), CHANGES, otherStoreAdmin);
    expect(other.map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it('starts each day where the caller is (utcOffset)', async () => {
    const { tokens, tenant, store } = await buildShop(t().app);
    const now = t().clock.now(); // 09:00 UTC
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    // 20:00 UTC yesterday: the 14th in UTC, already the 15th in China.
    await t()
      .app.services.db.insertInto('op_logs')
      .values({
        tenant_id: tenant.id,
        store_id: store.id,
        user_id: null,
        username: 'x',
        call: '/mgr/product/alert',
        target: '',
        code: 0,
        msg: '',
        ip: '',
        time: today - 4 * 3_600_000,
      })
      .execute();
    const utc = await ok<TagChangeDay[]>(t(), CHANGES, tokens.admin);
    const china = await ok<TagChangeDay[]>(t(), CHANGES, tokens.admin, { utcOffset: 480 });
    expect(utc.map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 1, 0]);
    expect(china.map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(china.at(-1)?.date).toBe(dayWindow(now, 7, 480).dates.at(-1));
  });

  it('validates the days, naming the field', async () => {
    const { tokens } = await buildShop(t().app);
    for (const days of [6, 91, 0, 'many']) {
      const res = await t().call(CHANGES, { days }, { token: tokens.admin });
      expect(res.code, String(days)).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toMatch(/^Days: /);
    }
    expect(await ok<TagChangeDay[]>(t(), CHANGES, tokens.admin, { days: 90 })).toHaveLength(90);
    expect(await ok<TagChangeDay[]>(t(), CHANGES, tokens.admin, {})).toHaveLength(7);
    const offset = await t().call(CHANGES, { utcOffset: 900 }, { token: tokens.admin });
    expect(offset.code).toBe(ErrorCode.VALIDATION);
  });

  it('answers STORE_NOT_SET without a current store, but tags per store need none', async () => {
    const { token } = await buildStorelessAdmin(t().app);
    for (const path of [STATIC, MODELS, CHANGES]) {
      expect((await t().call(path, {}, { token })).code, path).toBe(ErrorCode.STORE_NOT_SET);
    }
    expect(await ok(t(), STORES, token)).toEqual([]);
  });

  it('gives each role exactly dashboard.read, and refuses the platform operator', async () => {
    const { tokens } = await buildShop(t().app);
    for (const role of TENANT_ROLES) {
      for (const path of [STATIC, MODELS, STORES, CHANGES]) {
        const res = await t().call(path, {}, { token: tokens[role] });
        const expected = hasPermission([role], 'dashboard.read') ? 0 : ErrorCode.FORBIDDEN;
        expect(res.code, `${role} ${path} ${res.msg}`).toBe(expected);
      }
    }
    const { token } = await buildOperator(t().app);
    for (const path of [STATIC, MODELS, STORES, CHANGES]) {
      expect((await t().call(path, {}, { token })).code, path).toBe(ErrorCode.FORBIDDEN);
    }
  });

  it('writes no operation-log row: the statistics only read', async () => {
    const { tokens, tenant } = await buildShop(t().app);
    const rows = () =>
      t().app.services.db.selectFrom('op_logs').select('id').where('tenant_id', '=', tenant.id).execute();
    const before = await rows();
    for (const path of [STATIC, MODELS, STORES, CHANGES]) await ok(t(), path, tokens.admin);
    expect(await rows()).toEqual(before);
  });
});
