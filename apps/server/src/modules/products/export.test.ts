import { ErrorCode, type Product } from '@esl/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { EXPORT_PAGE_ROWS, exportGate, PRICE_FORMAT } from './export';
import { readXlsx } from './import/xlsx';

/** More than a few pages of the export's keyset walk. */
const COUNT = EXPORT_PAGE_ROWS * 2 + 321;

describe.each(await testDatabases())('a large product export on $name', (db) => {
  const t = useApp(db);

  async function seed() {
    const shop = await buildShop(t().app);
    const now = t().clock.time;
    for (let at = 0; at < COUNT; at += 500) {
      await t()
        .app.services.db.insertInto('products')
        .values(
          Array.from({ length: Math.min(500, COUNT - at) }, (_, k) => {
            const i = at + k;
            return {
              tenant_id: shop.tenant.id,
              store_id: shop.store.id,
              barcode: String(6_900_000_000_000 + i),
              qrcode: '',
              // Many equal names and prices: the walk must order ties by id and lose none.
              name: `Item ${i % 97}`,
              price_cents: 100 + (i % 13),
              original_price_cents: i % 2 ? null : 999,
              unit: 'pc',
              spec: '',
              origin: '',
              grade: '',
              custom: '{}',
              price_changes: 0,
              created_at: now,
              updated_at: now,
            };
          }),
        )
        .execute();
    }
    return shop;
  }

  const exportOf = (token: string, body: object) =>
    t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/export',
      headers: { token, 'accept-language': 'en' },
      payload: body,
    });

  it('writes every product in the list order, page after page, ties by id', { timeout: 120_000 }, async () => {
    const { tokens } = await seed();
    const token = tokens.clerk;
    for (const filter of [
      { sort: 'name', order: 'desc' },
      { sort: 'price', order: 'asc', text: 'Item 1' },
      { sort: 'id', order: 'asc' },
    ] as const) {
      const listed: Product[] = [];
      for (let page = 1; ; page++) {
        const res = await t().call<Product[]>('/mgr/product/list', { ...filter, page, limit: 2000 }, { token });
        listed.push(...res.data);
        if (res.data.length < 2000) break;
      }
      const res = await exportOf(token, filter);
      expect(res.statusCode).toBe(200);
      const rows = (await readXlsx(res.rawPayload)).slice(1).map((r) => r.cells);
      expect(rows.length, JSON.stringify(filter)).toBe(listed.length);
      expect(rows.map((r) => r[0])).toEqual(listed.map((p) => p.barcode));
      // Prices are numbers in the file: the text reads back as the number, e.g. "1" for 1.00.
      expect(rows.map((r) => [r[1], r[2], r[3] ?? ''])).toEqual(
        listed.map((p) => [p.name, String(Number(p.price)), p.originalPrice ? String(Number(p.originalPrice)) : '']),
      );
    }
    expect(exportGate.size).toBe(0);
  });

  it("writes prices as numbers with two decimals on a sheet named in the reader's language", {
    timeout: 120_000,
  }, async () => {
    const { tokens } = await seed();
    for (const [lang, sheetName] of [
      ['en', 'Products'],
      ['zh-CN', '商品'],
    ] as const) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/mgr/product/export',
        headers: { token: tokens.clerk, 'accept-language': lang },
        payload: { sort: 'id', order: 'asc', text: 'Item 12' },
      });
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      expect(sheet?.name).toBe(sheetName);
      const price = sheet?.getRow(2).getCell(3);
      expect(typeof price?.value).toBe('number');
      expect(price?.numFmt).toBe(PRICE_FORMAT);
      // A text column stays text.
      expect(typeof sheet?.getRow(2).getCell(1).value).toBe('string');
    }
  });

  it('answers other requests while it writes, and runs one export of a tenant at a time', {
    timeout: 120_000,
  }, async () => {
    const { tokens } = await seed();
    const order: string[] = [];
    const exporting = exportOf(tokens.clerk, {}).then((res) => {
      order.push('export');
      return res;
    });
    // The export holds its place until the whole file is written. It takes it once its session
    // and store are read (a few round trips on PostgreSQL), so wait for that, not one turn.
    while (exportGate.size === 0) await new Promise((resolve) => setImmediate(resolve));
    const busy = await exportOf(tokens.manager, {});
    expect(busy.json()).toEqual({
      code: ErrorCode.BUSY,
      msg: 'Busy: other exports of this tenant are running, please try again shortly',
      data: null,
    });
    const info = await t().call('/user/info', {}, { token: tokens.admin });
    expect(info.code).toBe(0);
    order.push('info');
    const done = await exporting;
    expect(done.statusCode).toBe(200);
    expect((await readXlsx(done.rawPayload)).length).toBe(COUNT + 1);
    expect(order).toEqual(['info', 'export']);
    expect(exportGate.size).toBe(0);
    const again = await exportOf(tokens.manager, { text: 'Item 5' });
    expect(again.statusCode).toBe(200);
  });
});
