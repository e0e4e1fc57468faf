import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, multipartFile, snapshot } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { readXlsx } from './import/xlsx';

const [sqlite] = await testDatabases();

/** RFC 4180 CSV of rows as they are (the cells are marked already, as in the export). */
const csvOf = (rows: string[][]) =>
  rows.map((r) => r.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')).join('\r\n');

// Issue 11 item 5: user text that a spreadsheet would evaluate leaves as text, titles included
// (a tenant names its columns), and comes back unchanged through XLSX and CSV.
describe('formula neutralisation of the product export', () => {
  const t = useApp(sqlite);

  it('marks formula-like titles and cells as text; the file imports back unchanged as XLSX and as CSV', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const token = tokens.admin;
    const at = { tenantId: tenant.id, storeId: store.id };
    const mapped = await t().call(
      '/mgr/product/mapfield',
      {
        fields: [
          { name: 'barcode', tField: 'barcode' },
          { name: 'name', tField: '@name' },
          { name: 'price', tField: 'price' },
          { name: 'memberPrice', tField: '=HYPERLINK("http://x","member")' },
        ],
      },
      { token },
    );
    expect(mapped.code, mapped.msg).toBe(0);
    await buildProduct(t().app, at, {
      barcode: '6901',
      name: '+cmd|calc',
      priceCents: 100,
      custom: { memberPrice: '-2+3' },
    });
    await buildProduct(t().app, at, { barcode: '6902', name: 'Milk', priceCents: 250, custom: { memberPrice: '2' } });

    const res = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/export',
      headers: { token, 'accept-language': 'en' },
      payload: { sort: 'barcode', order: 'asc' },
    });
    expect(res.statusCode).toBe(200);
    const sheet = (await readXlsx(res.rawPayload)).map((r) => r.cells);
    const title = sheet[0];
    expect(title[0]).toBe('barcode');
    expect(title).toContain("'@name");
    expect(title).toContain(`'=HYPERLINK("http://x","member")`);
    expect(title.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    const cells = sheet.slice(1).flat();
    expect(cells).toContain("'+cmd|calc");
    expect(cells).toContain("'-2+3");
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);

    const before = await snapshot(t().app, 'products', store.id);
    const unchanged = async () => expect(await snapshot(t().app, 'products', store.id)).toEqual(before);
    for (const [filename, bytes] of [
      ['export.xlsx', res.rawPayload],
      ['export.csv', Buffer.from(csvOf(sheet))],
    ] as const) {
      const { payload, headers } = multipartFile(filename, bytes);
      const back = await t().app.inject({
        method: 'POST',
        url: '/api/mgr/product/import',
        headers: { ...headers, token, 'accept-language': 'en' },
        payload,
      });
      expect(back.json(), filename).toMatchObject({
        code: 0,
        data: { total: 2, inserted: 0, updated: 0, unchanged: 2 },
      });
      await unchanged();
    }
    // Without the mark the title is still found (a file typed by hand), and the value is taken as written.
    const { payload, headers } = multipartFile('typed.csv', Buffer.from('barcode,@name,price\n6902,=1+1,2.5\n'));
    const typed = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/import',
      headers: { ...headers, token, 'accept-language': 'en' },
      payload,
    });
    expect(typed.json()).toMatchObject({ code: 0, data: { updated: 1 } });
    const milk = (await snapshot(t().app, 'products', store.id)).find((r) => r.barcode === '6902');
    expect(milk?.name).toBe('=1+1');
  });
});
