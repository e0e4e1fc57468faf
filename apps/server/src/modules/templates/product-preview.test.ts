import type { PreviewData, Product } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildTenant, buildUser, buildWorld, login } from '../../test/factories';
import { useApp } from '../../test/harness';
import { priceDoc } from '../../test/templates';

/** The price label plus a text bound to a custom field. */
const doc = () => {
  const base = priceDoc();
  return {
    ...base,
    elements: [
      ...(base.elements ?? []).filter((e) => e.id !== 'was'),
      { type: 'text' as const, id: 'promo', x: 180, y: 50, w: 110, h: 40, binding: { key: 'promo' } },
    ],
  };
};

describe.each(await testDatabases())('previews with products on $name', (db) => {
  const t = useApp(db);

  it('draws a product of the current store exactly as the same data given by hand', async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const [storeA, storeB] = a.stores;
    const token = a.tokens.admin;
    const use = async (tok: string, store: number) =>
      expect((await t().call('/user/setcurrshop', { curshop: store }, { token: tok })).code).toBe(0);

    // No current store (a tenant without stores): products are per store.
    const bare = await buildTenant(t().app);
    const lonely = await login(t().app, (await buildUser(t().app, { tenantId: bare.id })).username);
    const unset = await t().call('/mgr/templ/preview', { doc: doc(), productId: 1 }, { token: lonely });
    expect(unset).toMatchObject({ code: 1008, msg: 'Please set store first' });
    const sampled = await t().call('/mgr/templ/preview', { doc: doc() }, { token: lonely });
    expect(sampled.code).toBe(0);

    await use(token, storeA.id);
    const milk = await t().call<Product>(
      '/mgr/product/add',
      {
        barcode: '6901234567892',
        name: '特仑苏纯牛奶',
        price: '59.9',
        originalPrice: '69',
        custom: { promo: '买二送一' },
      },
      { token },
    );
    expect(milk.code, milk.msg).toBe(0);
    const byProduct = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { doc: doc(), productId: milk.data.id },
      { token },
    );
    expect(byProduct.code, byProduct.msg).toBe(0);
    expect(byProduct.data.problems).toEqual([]);
    const byHand = await t().call<PreviewData>(
      '/mgr/templ/preview',
      {
        doc: doc(),
        data: {
          name: '特仑苏纯牛奶',
          price: '59.90',
          originalPrice: '69.00',
          barcode: '6901234567892',
          qrcode: '',
          unit: '',
          spec: '',
          origin: '',
          grade: '',
          promo: '买二送一',
        },
      },
      { token },
    );
    expect(byProduct.data.png).toBe(byHand.data.png);
    const sample = await t().call<PreviewData>('/mgr/templ/preview', { doc: doc() }, { token });
    expect(sample.data.png).not.toBe(byProduct.data.png);
    // `data` overrides single fields of the product.
    const overridden = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { doc: doc(), productId: milk.data.id, data: { promo: '' } },
      { token },
    );
    expect(overridden.data.png).not.toBe(byProduct.data.png);

    // A manager of store A previews it too (template.read and a current store).
    await use(a.tokens.manager, storeA.id);
    const manager = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { doc: doc(), productId: milk.data.id },
      { token: a.tokens.manager },
    );
    expect(manager.data.png).toBe(byProduct.data.png);

    // A product of another store of the tenant, or of another tenant, is not found from here.
    await use(token, storeB.id);
    const other = await t().call<Product>('/mgr/product/add', { barcode: '123', name: 'B', price: '1' }, { token });
    expect(other.code, other.msg).toBe(0);
    await use(token, storeA.id);
    expect((await t().call('/mgr/templ/preview', { doc: doc(), productId: other.data.id }, { token })).code).toBe(1002);
    await use(b.tokens.admin, b.stores[0].id);
    const theirs = await t().call<Product>(
      '/mgr/product/add',
      { barcode: '456', name: 'Theirs', price: '2' },
      { token: b.tokens.admin },
    );
    expect((await t().call('/mgr/templ/preview', { doc: doc(), productId: theirs.data.id }, { token })).code).toBe(
      1002,
    );
  });
});
