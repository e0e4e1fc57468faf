import { ErrorCode, hasPermission, type Promotion, TENANT_ROLES, toLocalTime } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { winner } from './match';
import { promotionsAt } from './service';

// Promotions' calls (docs/PROMOTIONS.md): add, list, edit, cancel; the overlap rule; each role's
// permissions; another store's and another tenant's promotions out of reach; refusals in the
// caller's language. What the tags show is tested with the simulator (delivery/simulated-promotion.test.ts).

const TZ = 'Asia/Shanghai';

describe('the overlap rule', () => {
  const p = (id: number, cents: number) => ({ id, price_cents: cents });
  it('picks the lowest price, at equal prices the one added last', () => {
    expect(winner([p(1, 90), p(2, 80), p(3, 85)] as never)).toMatchObject({ id: 2 });
    expect(winner([p(4, 80), p(7, 80), p(5, 80)] as never)).toMatchObject({ id: 7 });
    expect(winner([])).toBeUndefined();
  });
});

describe.each(await testDatabases())('promotions ($name)', (db) => {
  const t = useApp(db);
  const local = (ms: number) => toLocalTime(ms, TZ);

  it('adds, lists, edits and cancels, and resolves overlaps by the lowest price', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const token = tokens.manager;
    const apple = await buildProduct(t().app, at, { name: 'Apple', priceCents: 250, custom: { kind: 'Fruit' } });
    const bread = await buildProduct(t().app, at, { name: 'Bread', priceCents: 300 });
    const now = t().clock.now();
    const T = Math.ceil((now + 3_600_000) / 60_000) * 60_000;
    const byBarcode = await t().call<{ ids: number[]; stores: number }>(
      '/mgr/promo/add',
      {
        name: 'Apple week',
        text: 'Sale',
        price: '1.99',
        barcodes: [apple.barcode],
        startAt: local(T),
        endAt: local(T + 7_200_000),
      },
      { token },
    );
    expect(byBarcode.code, byBarcode.msg).toBe(0);
    expect(byBarcode.data.stores).toBe(1);
    // A category: every product whose custom field `kind` is "fruit" (any case), cheaper, later.
    const byKind = await t().call<{ ids: number[] }>(
      '/mgr/promo/add',
      {
        text: 'Fruit days',
        price: '1.50',
        matchKey: 'kind',
        matchValue: 'fruit',
        startAt: local(T + 3_600_000),
        endAt: local(T + 10_800_000),
      },
      { token },
    );
    expect(byKind.code, byKind.msg).toBe(0);
    const [a] = byBarcode.data.ids as [number];
    const [b] = byKind.data.ids as [number];

    const listed = await t().call<Promotion[]>('/mgr/promo/list', {}, { token });
    expect(listed.data.map((r) => [r.id, r.state, r.startAt, r.price, r.timeZone])).toEqual([
      [a, 'pending', local(T), '1.99', TZ],
      [b, 'pending', local(T + 3_600_000), '1.50', TZ],
    ]);

    // Before, during A, during both (B cheaper wins), during B only, after both.
    const shows = async (time: number) => {
      const m = await promotionsAt(t().app.services.db, at, [apple.id, bread.id], time);
      return [m.get(apple.id)?.id ?? null, m.get(bread.id)?.id ?? null];
    };
    expect(await shows(T - 1)).toEqual([null, null]);
    expect(await shows(T)).toEqual([a, null]);
    expect(await shows(T + 3_600_000)).toEqual([b, null]);
    expect(await shows(T + 7_200_000)).toEqual([b, null]);
    expect(await shows(T + 10_800_000)).toEqual([null, null]);
    // An edit to a lower price than B: A wins the overlap again.
    const edited = await t().call<Promotion>('/mgr/promo/edit', { id: a, price: '1.49' }, { token });
    expect(edited.code, edited.msg).toBe(0);
    expect(edited.data.price).toBe('1.49');
    expect(await shows(T + 3_600_000)).toEqual([a, null]);
    // Equal prices: the one added last wins.
    await t().call('/mgr/promo/edit', { id: a, price: '1.50' }, { token });
    expect(await shows(T + 3_600_000)).toEqual([b, null]);

    // Cancelled: it never shows, cannot be edited or cancelled again (all or nothing).
    const cancelled = await t().call<{ cancelled: number }>('/mgr/promo/cancel', { ids: [b] }, { token });
    expect(cancelled.data.cancelled).toBe(1);
    expect(await shows(T + 3_600_000)).toEqual([a, null]);
    const again = await t().call('/mgr/promo/cancel', { ids: [a, b] }, { token, lang: 'zh-CN' });
    expect(again).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(again.msg).toContain('促销已结束或已取消');
    const stillOpen = await t().call<Promotion[]>('/mgr/promo/list', { state: 'pending' }, { token });
    expect(stillOpen.data.map((r) => r.id)).toEqual([a]);
  });

  it('refuses an end before the start and a promotion without products, in the caller language', async () => {
    const { tokens } = await buildShop(t().app);
    const T = Math.ceil((t().clock.now() + 3_600_000) / 60_000) * 60_000;
    const base = { price: '1.00', barcodes: ['690'], startAt: local(T), endAt: local(T + 60_000) };
    const late = await t().call('/mgr/promo/add', { ...base, endAt: local(T) }, { token: tokens.admin });
    expect(late).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'End: must be later than the start' });
    const zh = await t().call('/mgr/promo/add', { ...base, endAt: local(T) }, { token: tokens.admin, lang: 'zh-CN' });
    expect(zh.msg).toContain('结束时间应晚于开始时间');
    const none = await t().call('/mgr/promo/add', { ...base, barcodes: [] }, { token: tokens.admin });
    expect(none.code).toBe(ErrorCode.VALIDATION);
  });

  it('keeps each store and tenant to its own promotions, and gives each role its permissions', async () => {
    const { tokens, store, otherStore, otherStoreAdmin } = await buildShop(t().app);
    const T = Math.ceil((t().clock.now() + 3_600_000) / 60_000) * 60_000;
    const body = { price: '1.00', barcodes: ['690'], startAt: local(T), endAt: local(T + 60_000) };
    const mine = await t().call<{ ids: number[] }>('/mgr/promo/add', body, { token: tokens.admin });
    const [id] = mine.data.ids as [number];
    // The other store (same tenant) neither lists, edits nor cancels it.
    const otherList = await t().call<Promotion[]>('/mgr/promo/list', {}, { token: otherStoreAdmin });
    expect(otherList.data).toEqual([]);
    expect((await t().call('/mgr/promo/edit', { id, price: '0.50' }, { token: otherStoreAdmin })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await t().call('/mgr/promo/cancel', { ids: [id] }, { token: otherStoreAdmin })).code).toBe(
      ErrorCode.VALIDATION,
    );
    // Another tenant's administrator neither.
    const other = await buildWorld(t().app);
    const stranger = other.tokens.admin;
    await t().call('/user/setcurrshop', { curshop: other.stores[0].id }, { token: stranger });
    expect((await t().call<Promotion[]>('/mgr/promo/list', {}, { token: stranger })).data).toEqual([]);
    expect((await t().call('/mgr/promo/edit', { id, price: '0.50' }, { token: stranger })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    // Chain-wide: the administrator's every store; a clerk's only the stores assigned to them.
    const chain = await t().call<{ ids: number[]; stores: number }>(
      '/mgr/promo/add',
      { ...body, scope: 'chain' },
      { token: tokens.admin },
    );
    expect(chain.data.stores).toBe(2);
    const rows = await t()
      .app.services.db.selectFrom('promotions')
      .select('store_id')
      .where('id', 'in', chain.data.ids)
      .orderBy('store_id')
      .execute();
    expect(rows.map((r) => r.store_id)).toEqual([store.id, otherStore.id].sort((x, y) => x - y));
    const clerkChain = await t().call<{ stores: number }>(
      '/mgr/promo/add',
      { ...body, scope: 'chain' },
      { token: tokens.clerk },
    );
    expect(clerkChain.data.stores).toBe(1);
    // Each role: list needs product.read, add product.write.
    for (const role of TENANT_ROLES) {
      const list = await t().call('/mgr/promo/list', {}, { token: tokens[role] });
      expect(list.code, role).toBe(hasPermission([role], 'product.read') ? 0 : ErrorCode.FORBIDDEN);
      const add = await t().call('/mgr/promo/add', body, { token: tokens[role] });
      expect(add.code, role).toBe(hasPermission([role], 'product.write') ? 0 : ErrorCode.FORBIDDEN);
    }
    expect((await t().call('/mgr/promo/list', {})).code).not.toBe(0);
  });
});
