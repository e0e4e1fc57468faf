import { describeTarget, ErrorCode, type ImportError, type Product } from '@esl/contract';
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildTag, multipartFile, snapshot } from '../../../test/business';
import { testDatabases } from '../../../test/databases';
import { useApp } from '../../../test/harness';
import { readXlsx } from './xlsx';

const BOM = '\uFEFF';

/** The workbook with text replaced in every XML part (to write what ExcelJS would not). */
function withXmlReplaced(bytes: Buffer, pairs: [string, string][]): Buffer {
  const parts = unzipSync(bytes);
  for (const [name, data] of Object.entries(parts)) {
    if (!name.endsWith('.xml')) continue;
    let text = strFromU8(data);
    for (const [from, to] of pairs) text = text.replaceAll(from, to);
    parts[name] = strToU8(text);
  }
  return Buffer.from(zipSync(parts));
}

async function xlsxOf(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('商品');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(await testDatabases())('product import and export on $name', (db) => {
  const t = useApp(db);

  async function upload(token: string, bytes: Buffer | string, filename = 'products.csv', lang: 'en' | 'zh-CN' = 'en') {
    const { payload, headers } = multipartFile(filename, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/import',
      headers: { ...headers, token, 'accept-language': lang },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { code: number; msg: string; data: unknown };
  }

  async function exportXlsx(token: string, body: object = {}) {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/export',
      headers: { token, 'accept-language': 'en' },
      payload: body,
    });
    return res;
  }

  it('imports a UTF-8 CSV with a BOM through the default Chinese titles, then updates by barcode', async () => {
    const { tokens, store } = await buildShop(t().app);
    const token = tokens.stock;
    const csv = `${BOM}条码,名称,价格,原价,单位,产地,备注\r\n6901,"红富士苹果, 特级",12.5,15,斤,山东,ignored\r\n6902,香蕉,3.99,,把,海南,\r\n`;
    const first = await upload(token, csv);
    expect(first, first.msg).toMatchObject({ code: 0, data: { total: 2, inserted: 2, updated: 0 } });
    const rows = await snapshot(t().app, 'products', store.id);
    expect(rows.map((r) => [r.barcode, r.name, r.price_cents, r.original_price_cents, r.unit, r.origin])).toEqual([
      ['6901', '红富士苹果, 特级', 1250, 1500, '斤', '山东'],
      ['6902', '香蕉', 399, null, '把', '海南'],
    ]);

    // The second file has no unit column: units stay; a changed price counts once, an equal one not
    // at all; a product given as it is (6902: same name and price) is unchanged.
    const second = await upload(
      token,
      'barcode,name,price\n6901,红富士苹果,13\n6902,香蕉,3.99\n6903,"梨 ""A"" \\ {b,c} NULL",8\n',
    );
    expect(second).toMatchObject({ code: 0, data: { total: 3, inserted: 1, updated: 1, unchanged: 1 } });
    const list = await t().call<Product[]>('/mgr/product/list', { sort: 'barcode', order: 'asc' }, { token });
    expect(list.data.map((p) => [p.barcode, p.name, p.price, p.priceChanges, p.unit])).toEqual([
      ['6901', '红富士苹果', '13.00', 1, '斤'],
      ['6902', '香蕉', '3.99', 0, '把'],
      ['6903', '梨 "A" \\ {b,c} NULL', '8.00', 0, ''],
    ]);
    const op = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['code', 'target'])
      .where('call', '=', '/mgr/product/import')
      .where('store_id', '=', store.id)
      .orderBy('id')
      .execute();
    expect(op.map((o) => ({ ...o, target: describeTarget(o.target, 'en') }))).toEqual([
      { code: 0, target: 'file products.csv: 2 rows' },
      { code: 0, target: 'file products.csv: 3 rows' },
    ]);
  });

  it('reports every bad row with its line and reason, in the caller’s language, and writes nothing', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    await buildProduct(t().app, { tenantId: tenant.id, storeId: store.id }, { barcode: '6901', priceCents: 100 });
    const before = await snapshot(t().app, 'products', store.id);
    const csv = [
      'barcode,name,price,unit',
      '6901,Apple,2,kg', // line 2: fine (an update)
      '6905,"Two',
      'lines",1,kg', // line 3–4: a name with a line break
      ',Nameless,1,kg', // line 5
      '6906,,abc,kg', // line 6: two problems
      '6907,Pear,1.234,kg', // line 7
      '6901,Again,1,kg', // line 8: repeats line 2
      '6908,Plum,1,kilogram-kilogram-kilogram', // line 9: unit too long
      '6909,Fig,1,kg,extra', // line 10: more cells than titles
      '', // blank lines are skipped
      'bad code,Kiwi,1,kg', // line 12
    ].join('\n');
    const res = await upload(tokens.admin, csv);
    expect(res.code).toBe(ErrorCode.IMPORT_FAILED);
    expect(res.msg).toBe('Import failed, nothing was written');
    expect(res.data as ImportError[]).toEqual([
      { line: 3, field: 'name', reason: 'name: no line breaks allowed' },
      { line: 5, field: 'barcode', reason: 'barcode cannot be empty' },
      { line: 6, field: 'name', reason: 'name cannot be empty' },
      { line: 6, field: 'price', reason: 'price has the wrong format' },
      { line: 7, field: 'price', reason: 'price has the wrong format' },
      { line: 8, field: 'barcode', reason: 'the barcode repeats the one on line 2' },
      { line: 9, field: 'unit', reason: 'unit is too long' },
      { line: 10, field: '', reason: 'the number of columns differs from the title row' },
      { line: 12, field: 'barcode', reason: 'barcode has the wrong format' },
    ]);
    expect(await snapshot(t().app, 'products', store.id)).toEqual(before);

    const zh = await upload(tokens.admin, 'barcode,name,price\n6910,,1\n', 'x.csv', 'zh-CN');
    expect(zh).toMatchObject({
      code: 1013,
      msg: '导入失败，没有写入任何数据',
      data: [{ line: 2, field: 'name', reason: '名称不能为空' }],
    });
  });

  it('names missing columns, empty files and unreadable ones', async () => {
    const { tokens, store } = await buildShop(t().app);
    const token = tokens.admin;
    const missing = await upload(token, 'barcode,unit\n1,kg\n');
    expect(missing).toMatchObject({
      code: 1013,
      data: [
        { line: 1, field: 'name', reason: 'missing column: 名称' },
        { line: 1, field: 'price', reason: 'missing column: 价格' },
      ],
    });
    expect(await upload(token, 'barcode,name,price\n')).toMatchObject({
      code: 1013,
      data: [{ line: 1, field: '', reason: 'the file has no product rows' }],
    });
    // "条码,名称" in GBK is not UTF-8.
    const gbk = Buffer.from([0xcc, 0xf5, 0xc2, 0xeb, 0x2c, 0xc3, 0xfb, 0xb3, 0xc6, 0x0a]);
    expect(await upload(token, gbk)).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: a CSV file must be UTF-8 text',
    });
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect(await upload(token, xls, 'old.xls')).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: only CSV or XLSX files can be imported',
    });
    const brokenZip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40, 1)]);
    expect((await upload(token, brokenZip, 'x.xlsx')).code).toBe(ErrorCode.BAD_FILE);
    const noFile = await t().call('/mgr/product/import', {}, { token });
    expect(noFile.code).toBe(ErrorCode.BAD_FILE);
    expect(await snapshot(t().app, 'products', store.id)).toEqual([]);
  });

  it('imports XLSX through a custom mapping, custom fields included', async () => {
    const { tokens, store } = await buildShop(t().app);
    const token = tokens.manager;
    const fields = [
      { name: 'barcode', tField: 'SKU' },
      { name: 'price', tField: '售价' },
      { name: 'memberPrice', tField: '会员价' },
    ];
    expect((await t().call('/mgr/product/mapfield', { fields }, { token })).code).toBe(0);
    const bytes = await xlsxOf([
      ['SKU', '名称', '售价', '会员价'],
      ['6901', '牛奶', 12.5, '11.00'],
      [6902, '面包', 8, null],
    ]);
    const res = await upload(token, bytes, 'products.xlsx');
    expect(res, res.msg).toMatchObject({ code: 0, data: { total: 2, inserted: 2, updated: 0 } });
    const list = await t().call<Product[]>('/mgr/product/list', { sort: 'barcode', order: 'asc' }, { token });
    expect(list.data.map((p) => [p.barcode, p.name, p.price, p.custom])).toEqual([
      ['6901', '牛奶', '12.50', { memberPrice: '11.00' }],
      ['6902', '面包', '8.00', {}],
    ]);
    const bad = await xlsxOf([['SKU', '名称', '售价'], ['6903', '', 1], [], ['6904', 'ok', 'x']]);
    expect(await upload(token, bad, 'bad.xlsx')).toMatchObject({
      code: 1013,
      data: [
        { line: 2, field: 'name', reason: 'name cannot be empty' },
        { line: 4, field: 'price', reason: 'price has the wrong format' },
      ],
    });
    expect(await snapshot(t().app, 'products', store.id)).toHaveLength(2);
  });

  it('exports the filtered products to XLSX under the mapping titles, and the file imports back unchanged', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    await buildProduct(t().app, at, { barcode: '6901', name: '苹果', priceCents: 1250, custom: { memberPrice: '11' } });
    await buildProduct(t().app, at, { barcode: '6902', name: '香蕉', priceCents: 399 });
    await buildProduct(t().app, at, { barcode: '6903', name: '=HYPERLINK("http://x","y")', priceCents: 100 });
    await buildProduct(t().app, at, {
      barcode: '6904',
      name: "'@SUM(1)",
      priceCents: 100,
      custom: { memberPrice: '-1+2' },
    });
    await buildProduct(t().app, at, { barcode: '7001', name: 'Milk', priceCents: 100 });
    const token = tokens.stock;
    await t().call('/mgr/product/mapfield', { fields: [{ name: 'memberPrice', tField: '会员价' }] }, { token });

    const res = await exportXlsx(token, { text: '690', sort: 'barcode', order: 'asc' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="products-\d+-\d{8}\.xlsx"$/);
    const sheet = await readXlsx(res.rawPayload);
    expect(sheet[0].cells).toEqual([
      '条码',
      '名称',
      '价格',
      '原价',
      '单位',
      '规格',
      '产地',
      '等级',
      '二维码',
      '会员价',
    ]);
    // Prices are numbers in the workbook (Excel sums them; a 0.00 format shows 12.50): the cell's
    // value reads back as the number's shortest text.
    expect(sheet.slice(1).map((r) => [r.cells[0], r.cells[1], r.cells[2], r.cells[9] ?? ''])).toEqual([
      ['6901', '苹果', '12.5', '11'],
      ['6902', '香蕉', '3.99', ''],
      // No spreadsheet evaluates these: each starts with its text marker (lib/formula.ts).
      ['6903', `'=HYPERLINK("http://x","y")`, '1', ''],
      ['6904', "''@SUM(1)", '1', "'-1+2"],
    ]);

    const before = await snapshot(t().app, 'products', store.id);
    const back = await upload(token, res.rawPayload, 'export.xlsx');
    expect(back).toMatchObject({ code: 0, data: { total: 4, inserted: 0, updated: 0, unchanged: 4 } });
    // Nothing was written, not even the update time.
    expect(await snapshot(t().app, 'products', store.id)).toEqual(before);
  });

  it("counts rows of a file imported again unchanged, writes nothing for them and relabels only the changed product's tags", async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const token = tokens.stock;
    const fields = [{ name: 'bestBefore', tField: '保质期至' }];
    expect((await t().call('/mgr/product/mapfield', { fields }, { token: tokens.admin })).code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('商品');
    sheet.addRow(['条码', '名称', '价格', '保质期至']);
    for (let i = 1; i <= 5; i++) {
      const row = sheet.addRow([`690${i}`, `商品 ${i}`, i + 0.5, new Date(Date.UTC(2026, 10, 19 + i))]);
      row.getCell(4).numFmt = 'yyyy/m/d';
    }
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());

    const first = await upload(token, bytes, 'same.xlsx');
    expect(first, first.msg).toMatchObject({ code: 0, data: { total: 5, inserted: 5, updated: 0, unchanged: 0 } });
    // The date column holds the dates the spreadsheet shows, not its day numbers.
    const list = await t().call<Product[]>('/mgr/product/list', { sort: 'barcode', order: 'asc' }, { token });
    expect(list.data.map((p) => p.custom)).toEqual([
      { bestBefore: '2026-11-20' },
      { bestBefore: '2026-11-21' },
      { bestBefore: '2026-11-22' },
      { bestBefore: '2026-11-23' },
      { bestBefore: '2026-11-24' },
    ]);
    // Two tags show products of the file.
    const at = { tenantId: tenant.id, storeId: store.id };
    await buildTag(t().app, at, { productId: list.data[0]?.id });
    await buildTag(t().app, at, { productId: list.data[1]?.id });
    const before = await snapshot(t().app, 'products', store.id);
    const pushes = () =>
      t()
        .app.services.db.selectFrom('push_log')
        .select(['products', 'tags_affected'])
        .where('store_id', '=', store.id)
        .where('tenant_id', '=', tenant.id)
        .orderBy('id')
        .execute();
    const pushedBefore = await pushes();

    const again = await upload(token, bytes, 'same.xlsx');
    expect(again, again.msg).toMatchObject({ code: 0, data: { total: 5, inserted: 0, updated: 0, unchanged: 5 } });
    expect(await snapshot(t().app, 'products', store.id)).toEqual(before);
    expect((await pushes()).slice(pushedBefore.length)).toEqual([{ products: 0, tags_affected: 0 }]);

    // One price changed: one updated, four unchanged.
    sheet.getCell('C3').value = 9.9;
    const changed = await upload(token, Buffer.from(await workbook.xlsx.writeBuffer()), 'same.xlsx');
    expect(changed).toMatchObject({ code: 0, data: { total: 5, inserted: 0, updated: 1, unchanged: 4 } });
    // Only the changed product's tag gets a new label.
    expect((await pushes()).slice(pushedBefore.length + 1)).toEqual([{ products: 1, tags_affected: 1 }]);
  });

  it('refuses a NUL in an imported cell, naming its line, and writes nothing', async () => {
    const { tokens, store } = await buildShop(t().app);
    // A text file holding NUL is not taken for CSV at all (1009); in a workbook the row is named.
    const csv = await upload(tokens.stock, 'barcode,name,price\n6901,ok,1\n6902,bad\u0000name,2\n');
    expect(csv.code).toBe(ErrorCode.BAD_FILE);
    // Character references in the sheet's XML: &#0; is NUL, &#99999999; is no character at all.
    const file = await withXmlReplaced(
      await xlsxOf([
        ['barcode', 'name', 'price'],
        ['6901', 'okNAME', 1],
        ['6902', 'badNAME', 2],
      ]),
      [
        ['okNAME', 'ok&#99999999;'],
        ['badNAME', 'bad&#0;name'],
      ],
    );
    const answer = await upload(tokens.stock, file, 'nul.xlsx');
    expect(answer.code).toBe(ErrorCode.IMPORT_FAILED);
    expect(answer.data).toEqual([{ line: 3, field: 'name', reason: expect.stringContaining('wrong format') }]);
    expect(await snapshot(t().app, 'products', store.id)).toEqual([]);
  });

  it('refuses the export and import without a session, permission or store', async () => {
    const { tokens } = await buildShop(t().app);
    const none = await exportXlsx('');
    expect(none.json()).toMatchObject({ code: ErrorCode.SESSION_EXPIRED });
    const badFilter = await exportXlsx(tokens.admin, { sort: 'colour' });
    expect(badFilter.json()).toMatchObject({
      code: ErrorCode.VALIDATION,
      msg: 'Sort by: has the wrong format',
    });
    const clerk = await upload(tokens.clerk, 'barcode,name,price\n1,x,1\n');
    expect(clerk.code).toBe(ErrorCode.FORBIDDEN);
  });
});
