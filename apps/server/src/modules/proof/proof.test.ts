import type { PriceProof, ProofSummary } from '@esl/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

// The price-accuracy report (docs/PROOF.md) over tags whose screens are set up directly: which
// state each gets, the order and the "disagreeing only" filter, the store's isolation, and the
// XLSX export in both languages. The delivery path that fills these columns is tested with the
// simulator (delivery/simulated-proof.test.ts).

const hash = (c: string) => c.repeat(64);

describe.each(await testDatabases())('the price-accuracy report ($name)', (db) => {
  const t = useApp(db);

  async function seed() {
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const now = t().clock.now();
    const apple = await buildProduct(t().app, at, { name: 'Apple', priceCents: 250 });
    const pear = await buildProduct(t().app, at, { name: 'Pear', priceCents: 300 });
    const plum = await buildProduct(t().app, at, { name: 'Plum', priceCents: 120 });
    // A: shows Apple at 2.50, confirmed. B: shows Pear at its old 2.80, the new label not confirmed.
    // C: nothing known of its screen. D: shows Apple's label but is bound to Plum now. E: unbound
    // (not listed).
    const a = await buildTag(t().app, at, { model: '05', productId: apple.id });
    const b = await buildTag(t().app, at, { model: '05', productId: pear.id });
    const c = await buildTag(t().app, at, { model: '05', productId: plum.id });
    const d = await buildTag(t().app, at, { model: '05', productId: plum.id });
    // F: bound to Pear since its last label, the unbound one (drawn from no product), was confirmed.
    const f = await buildTag(t().app, at, { model: '05', productId: pear.id });
    await buildTag(t().app, at, { model: '05', productId: null });
    const other = { tenantId: shop.tenant.id, storeId: shop.otherStore.id };
    await buildTag(t().app, other, {
      model: '05',
      productId: (await buildProduct(t().app, other, { name: 'Elsewhere' })).id,
    });
    const set = (id: number, values: Record<string, unknown>) =>
      t().app.services.db.updateTable('tags').set(values).where('id', '=', id).execute();
    await set(a.id, {
      desired_hash: hash('a'),
      desired_price_cents: 250,
      desired_product_id: apple.id,
      desired_at: now - 60_000,
      shown_ver: hash('a').slice(0, 16),
      shown_hash: hash('a'),
      shown_price_cents: 250,
      shown_product_id: apple.id,
      shown_priced_at: now - 60_000,
      shown_at: now - 30_000,
    });
    await set(b.id, {
      desired_hash: hash('c'),
      desired_price_cents: 300,
      desired_product_id: pear.id,
      desired_at: now - 5000,
      shown_ver: hash('b').slice(0, 16),
      shown_hash: hash('b'),
      shown_price_cents: 280,
      shown_product_id: pear.id,
      shown_priced_at: now - 86_400_000,
      shown_at: now - 86_000_000,
      price_wrong_since: now - 5000,
    });
    // D reports the desired picture, which was drawn from Apple before it was bound to Plum.
    await set(d.id, {
      desired_hash: hash('d'),
      desired_price_cents: 250,
      desired_product_id: apple.id,
      desired_at: now - 7000,
      shown_ver: hash('d').slice(0, 16),
      price_wrong_since: now - 7000,
    });
    await set(f.id, {
      desired_hash: hash('f'),
      desired_price_cents: null,
      desired_product_id: 0,
      desired_at: now - 9000,
      shown_ver: hash('f').slice(0, 16),
      shown_hash: hash('f'),
      shown_price_cents: null,
      shown_product_id: 0,
      shown_priced_at: now - 9000,
      shown_at: now - 8000,
    });
    return { shop, a, b, c, d, f, now };
  }

  it('lists disagreeing tags first, then unknown, then agreeing; filters and counts them', async () => {
    const { shop, a, b, c, d, f, now } = await seed();
    const token = shop.tokens.manager;
    const list = await t().call<PriceProof[]>('/mgr/proof/list', { limit: 50 }, { token });
    expect(list.code).toBe(0);
    expect(list.count).toBe(5);
    // Disagreeing ones by how long they have been wrong (F's not counted yet comes first).
    expect(list.data.map((r) => [r.hardwareId, r.state])).toEqual([
      [f.hardware_id, 'disagree'],
      [d.hardware_id, 'disagree'],
      [b.hardware_id, 'disagree'],
      [c.hardware_id, 'unknown'],
      [a.hardware_id, 'agree'],
    ]);
    const [rf, rd, rb, rc, ra] = list.data;
    expect(rf).toMatchObject({ screenPrice: null, otherProduct: true, confirmedAt: now - 8000 });
    expect(rb).toMatchObject({
      productName: 'Pear',
      price: '3.00',
      screenPrice: '2.80',
      otherProduct: false,
      renderedAt: now - 86_400_000,
      confirmedAt: now - 86_000_000,
      wrongSince: now - 5000,
      pending: true,
    });
    expect(rd).toMatchObject({ price: '1.20', screenPrice: '2.50', otherProduct: true, renderedAt: now - 7000 });
    expect(rc).toMatchObject({ screenPrice: null, renderedAt: null, confirmedAt: null, pending: false });
    expect(ra).toMatchObject({ price: '2.50', screenPrice: '2.50', wrongSince: null, pending: false });

    const wrong = await t().call<PriceProof[]>('/mgr/proof/list', { wrongOnly: true }, { token });
    expect(wrong.data.map((r) => r.id)).toEqual([f.id, d.id, b.id, c.id]);
    expect(wrong.count).toBe(4);
    const summary = await t().call<ProofSummary>('/mgr/proof/summary', {}, { token });
    expect(summary.data).toEqual({ total: 5, agree: 1, disagree: 3, unknown: 1, alertMinutes: 15 });
    // The other store's admin sees their own store only.
    const elsewhere = await t().call<PriceProof[]>('/mgr/proof/list', {}, { token: shop.otherStoreAdmin });
    expect(elsewhere.data.map((r) => r.productName)).toEqual(['Elsewhere']);
  });

  it('exports the report as XLSX in the reader’s language, in tag order, with the filter', async () => {
    const { shop, a, b, c, d, f } = await seed();
    const load = async (lang: 'en' | 'zh-CN', body: object) => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/mgr/proof/export',
        headers: { token: shop.tokens.clerk, 'accept-language': lang },
        payload: body,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/price-accuracy-\d+-\d{8}\.xlsx/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      if (!sheet) throw new Error('no sheet');
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { name: sheet.name, rows };
    };
    const en = await load('en', {});
    expect(en.name).toBe('Price accuracy');
    expect(en.rows[0]).toEqual([
      'Tag ID',
      'Barcode',
      'Product',
      'Price now',
      'Price on screen',
      'Result',
      'Screen rendered',
      'Last confirmed',
      'Wrong since',
    ]);
    const byTag = [a, b, c, d, f].sort((x, y) => x.hardware_id.localeCompare(y.hardware_id));
    expect(en.rows.slice(1).map((r) => r[0])).toEqual(byTag.map((x) => x.hardware_id));
    const rowOf = (rows: unknown[][], id: string) => rows.find((r) => r[0] === id) ?? [];
    const rb = rowOf(en.rows, b.hardware_id);
    expect(rb.slice(2, 6)).toEqual(['Pear', 3, 2.8, 'Disagrees']);
    // Times on the store's clock (Asia/Shanghai): the test clock is 2026-01-15 09:00 UTC.
    expect(rb[8]).toBe('2026-01-15 16:59:55');
    expect(rowOf(en.rows, d.hardware_id)[5]).toBe('Disagrees (not this product)');
    expect(rowOf(en.rows, c.hardware_id).slice(4, 6)).toEqual([undefined, 'Unknown']);

    const zh = await load('zh-CN', { wrongOnly: true });
    expect(zh.name).toBe('价格核对');
    expect(zh.rows[0]?.slice(0, 3)).toEqual(['价签ID', '条码', '商品名称']);
    expect(zh.rows.slice(1).map((r) => r[0])).toEqual(
      [b, c, d, f].map((x) => x.hardware_id).sort((x, y) => x.localeCompare(y)),
    );
    expect(rowOf(zh.rows, b.hardware_id)[5]).toBe('不一致');
  });
});
