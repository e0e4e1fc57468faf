import { ErrorCode, type ImportData, type ImportInspection, rolesWith, TENANT_ROLES } from '@esl/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildShop, snapshot } from '../../../test/business';
import { testDatabases } from '../../../test/databases';
import { useApp } from '../../../test/harness';
import { effectiveFieldMap } from '../mapping';
import { manyEntriesXlsx, manyRowsXlsx, sharedStringsBombXlsx, wideCsv, wideXlsx } from './bombs';
import { importGate } from './service';
import { matchColumns, titleIndex, titleKey } from './synonyms';
import { savedMapping, sniffSeparator } from './wizard';

type Answer<T = unknown> = { code: number; msg: string; data: T };

/** A workbook of named sheets, each a list of rows. */
async function workbookOf(sheets: [string, (string | number | null)[][]][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of sheets) {
    const sheet = workbook.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A price list as retailers make them: instructions first, a heading above the titles, a note column. */
const retailWorkbook = () =>
  workbookOf([
    ['填写说明', [['请在“商品”工作表中填写商品'], ['售价单位为元'], ['条形码必须唯一']]],
    [
      '商品',
      [
        ['2026 年 11 月价目表'],
        ['商品名称', '售价（元）', '条形码', '规格', '备注'],
        ['红富士苹果', 12.5, '6901001', '500g', '新品'],
        ['香蕉', 'abc', '6901002', '1kg', ''],
        ['梨', 3.2, '6901003', '', '促销'],
      ],
    ],
  ]);

/** A multipart body with the options field (JSON) before the file, as the console sends it. */
function wizardBody(filename: string, bytes: Buffer, options?: object) {
  const boundary = '----esl-wizard-test';
  const head = options
    ? `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify(options)}\r\n`
    : '';
  const payload = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('column titles a retailer writes', () => {
  const index = titleIndex(effectiveFieldMap(undefined));
  const fields = (titles: string[]) => matchColumns(titles, index).map((c) => c.field);

  it('are matched to product fields by synonyms in both languages', () => {
    expect(fields(['商品名称', '售价', '条形码', '货号', '备注'])).toEqual(['name', 'price', 'barcode', null, null]);
    expect(fields(['品名', '零售价', '条码', '原价', '单位'])).toEqual([
      'name',
      'price',
      'barcode',
      'originalPrice',
      'unit',
    ]);
    expect(fields(['Product Name', 'Retail Price', 'EAN', 'Origin', 'QR code'])).toEqual([
      'name',
      'price',
      'barcode',
      'origin',
      'qrcode',
    ]);
    // A product code is the key only when no column names the barcode itself.
    expect(fields(['SKU', '名称', '价格'])).toEqual(['barcode', 'name', 'price']);
    expect(fields(['编码', '商品条码', '名称', '价格'])).toEqual([null, 'barcode', 'name', 'price']);
    // Each field goes to one column: the second price column is not imported.
    expect(fields(['价格', '售价'])).toEqual(['price', null]);
  });

  it('read a promotional price beside the regular one as price and original price (docs/PROMOTIONS.md)', () => {
    expect(fields(['条码', '名称', '售价', '促销价'])).toEqual(['barcode', 'name', 'originalPrice', 'price']);
    expect(fields(['Barcode', 'Promo Price', 'Retail price'])).toEqual(['barcode', 'price', 'originalPrice']);
    // Alone it is the price; beside a named original price the regular price column is not imported.
    expect(fields(['条码', '促销价'])).toEqual(['barcode', 'price']);
    expect(fields(['条码', '售价', '促销价', '原价'])).toEqual(['barcode', 'price', null, 'originalPrice']);
  });

  it('ignore case, full-width letters, spaces, units in brackets and required marks', () => {
    expect(titleKey('  售价（元） ')).toBe('售价');
    expect(titleKey('Ｂａｒｃｏｄｅ*')).toBe('barcode');
    expect(fields(['条形码*', 'PRODUCT  NAME', '价格(元)'])).toEqual(['barcode', 'name', 'price']);
  });

  it('prefer the title saved in the mapping over a synonym', () => {
    const map = effectiveFieldMap(JSON.stringify([{ name: 'originalPrice', tField: '售价' }]));
    const saved = matchColumns(['售价', '现价'], titleIndex(map));
    expect(saved.map((c) => [c.field, c.kind])).toEqual([
      ['originalPrice', 'saved'],
      ['price', 'synonym'],
    ]);
  });
});

describe('the CSV separator', () => {
  it('is the one that splits the lines alike, whatever the first line says', () => {
    expect(sniffSeparator('条码;名称;价格\n1;a;1,5\n2;b;2,5\n')).toBe(';');
    expect(sniffSeparator('说明, 请勿修改标题\nbarcode\tname\tprice\n1\ta\t1\n2\tb\t2\n')).toBe('\t');
    expect(sniffSeparator('barcode,name,price\n1,"a;b",1\n')).toBe(',');
  });
});

describe('saving the columns used as the mapping', () => {
  it('gives each chosen field its column title, and moves a field whose title a column took', () => {
    const current = effectiveFieldMap(JSON.stringify([{ name: 'brand', tField: '品牌' }]));
    const next = savedMapping(current, [
      { index: 0, title: '商品名称', field: 'name', match: 'synonym' },
      { index: 1, title: '原价', field: 'price', match: 'chosen' },
      { index: 2, title: '品牌', field: null, match: null },
    ]);
    expect(next.find((f) => f.name === 'name')?.tField).toBe('商品名称');
    expect(next.find((f) => f.name === 'price')?.tField).toBe('原价');
    // originalPrice was titled 原价: it goes back to a title no column uses.
    expect(next.find((f) => f.name === 'originalPrice')?.tField).toBe('originalPrice');
    expect(next.find((f) => f.name === 'brand')?.tField).toBe('品牌');
    expect(new Set(next.map((f) => f.tField.toLowerCase())).size).toBe(next.length);
  });
});

describe.each(await testDatabases())('the import wizard on $name', (db) => {
  const t = useApp(db);

  async function post<T>(path: string, token: string, file: [string, Buffer], options?: object, lang = 'en') {
    const { payload, headers } = wizardBody(file[0], file[1], options);
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/mgr/product/${path}`,
      headers: { ...headers, token, 'accept-language': lang },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Answer<T>;
  }
  const inspect = (token: string, file: [string, Buffer], options?: object, lang = 'en') =>
    post<ImportInspection>('importcheck', token, file, options, lang);
  const importWith = (token: string, file: [string, Buffer], options?: object, lang = 'en') =>
    post<ImportData>('importmapped', token, file, options, lang);

  it('chooses the sheet and title row that map best, shows unmatched columns, previews problems, imports and saves', async () => {
    const { tokens, store } = await buildShop(t().app);
    const file: [string, Buffer] = ['价目表.xlsx', await retailWorkbook()];

    const seen = await inspect(tokens.stock, file);
    expect(seen.code, seen.msg).toBe(0);
    expect(seen.data.kind).toBe('xlsx');
    expect(seen.data.sheets.map((s) => [s.name, s.matched])).toEqual([
      ['填写说明', 0],
      ['商品', 4],
    ]);
    expect(seen.data.sheet).toBe(1);
    expect(seen.data.headerLine).toBe(2);
    expect(seen.data.lines.slice(0, 2)).toEqual([
      { line: 1, text: '2026 年 11 月价目表' },
      { line: 2, text: '商品名称 | 售价（元） | 条形码 | 规格 | 备注' },
    ]);
    // Another title row may be chosen: the columns follow it.
    const other = await inspect(tokens.stock, file, { sheet: 1, headerLine: 1 });
    expect(other.data.columns.map((c) => [c.title, c.field])).toEqual([['2026 年 11 月价目表', null]]);
    expect(other.data.missing).toEqual(['barcode', 'name', 'price']);
    expect(seen.data.columns.map((c) => [c.title, c.field])).toEqual([
      ['商品名称', 'name'],
      ['售价（元）', 'price'],
      ['条形码', 'barcode'],
      ['规格', 'spec'],
      ['备注', null],
    ]);
    expect(seen.data.missing).toEqual([]);
    expect(seen.data.preview.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(seen.data.preview[1]?.problems).toEqual([{ field: 'price', reason: 'price has the wrong format' }]);
    expect(seen.data.preview[0]?.problems).toEqual([]);

    // The spec's import is unchanged: it reads the first sheet only, and refuses this file.
    const spec = await post('../product/import', tokens.stock, file);
    expect(spec.code).toBe(ErrorCode.IMPORT_FAILED);
    expect(await snapshot(t().app, 'products', store.id)).toEqual([]);

    // Fix the file's bad price, choose the note column as a custom field, drop spec, import and save.
    const fixed: [string, Buffer] = [
      '价目表.xlsx',
      await workbookOf([
        ['填写说明', [['请在“商品”工作表中填写商品']]],
        [
          '商品',
          [
            ['2026 年 11 月价目表'],
            ['商品名称', '售价（元）', '条形码', '规格', '备注'],
            ['红富士苹果', 12.5, '6901001', '500g', '新品'],
            ['香蕉', 3.99, '6901002', '1kg', ''],
          ],
        ],
      ]),
    ];
    const columns = ['name', 'price', 'barcode', '', 'note'];
    const preview = await inspect(tokens.stock, fixed, { sheet: 1, columns });
    expect(preview.data.sheets.map((s) => s.matched)).toEqual([0, 4]);
    expect(preview.data.columns.map((c) => [c.field, c.match])).toEqual([
      ['name', 'synonym'],
      ['price', 'synonym'],
      ['barcode', 'synonym'],
      [null, null],
      ['note', 'chosen'],
    ]);
    const done = await importWith(tokens.stock, fixed, { sheet: 1, headerLine: 2, columns, save: true });
    expect(done).toMatchObject({ code: 0, data: { total: 2, inserted: 2, updated: 0 } });
    const rows = await snapshot(t().app, 'products', store.id);
    expect(rows.map((r) => [r.barcode, r.name, r.price_cents, r.spec, JSON.parse(r.custom)])).toEqual([
      ['6901001', '红富士苹果', 1250, '', { note: '新品' }],
      ['6901002', '香蕉', 399, '', {}],
    ]);

    // The mapping used is saved: next time the same titles match as saved ones.
    const map = await t().call<{ fields: { name: string; tField: string }[] }>(
      '/mgr/product/mapfield',
      {},
      { token: tokens.stock },
    );
    expect(map.data.fields).toEqual(
      expect.arrayContaining([
        { name: 'name', tField: '商品名称' },
        { name: 'price', tField: '售价（元）' },
        { name: 'barcode', tField: '条形码' },
        { name: 'note', tField: '备注' },
      ]),
    );
    const again = await inspect(tokens.stock, fixed);
    expect(again.data.columns.map((c) => [c.field, c.match])).toEqual([
      ['name', 'saved'],
      ['price', 'saved'],
      ['barcode', 'saved'],
      ['spec', 'saved'],
      ['note', 'saved'],
    ]);
  });

  it('imports a promotional price beside the regular one as price and original price (docs/PROMOTIONS.md)', async () => {
    const { tokens, store } = await buildShop(t().app);
    const file: [string, Buffer] = [
      '促销.xlsx',
      await workbookOf([
        [
          '商品',
          [
            ['条码', '名称', '售价', '促销价'],
            ['6902001', '牛奶', 6.5, 4.99],
            ['6902002', '面包', 8, 6],
          ],
        ],
      ]),
    ];
    const seen = await inspect(tokens.stock, file);
    expect(seen.data.columns.map((c) => [c.title, c.field])).toEqual([
      ['条码', 'barcode'],
      ['名称', 'name'],
      ['售价', 'originalPrice'],
      ['促销价', 'price'],
    ]);
    const done = await importWith(tokens.stock, file, { sheet: 0, headerLine: 1 });
    expect(done).toMatchObject({ code: 0, data: { total: 2, inserted: 2 } });
    const rows = await snapshot(t().app, 'products', store.id);
    expect(rows.map((r) => [r.barcode, r.price_cents, r.original_price_cents])).toEqual([
      ['6902001', 499, 650],
      ['6902002', 600, 800],
    ]);
  });

  it('takes the sheet that maps best, and lists every sheet the same when another is chosen', async () => {
    const { tokens } = await buildShop(t().app);
    const file: [string, Buffer] = [
      'two.xlsx',
      await workbookOf([
        [
          '旧价目',
          [
            ['名称', '价格', '条码'],
            ['苹果', 1, '1'],
          ],
        ],
        [
          '新价目',
          [
            ['品名', '零售价', '条形码', '产地'],
            ['苹果', 2, '1', '山东'],
          ],
        ],
      ]),
    ];
    const best = await inspect(tokens.stock, file);
    expect([best.data.sheet, best.data.sheets.map((s) => s.matched)]).toEqual([1, [3, 4]]);
    const chosen = await inspect(tokens.stock, file, { sheet: 0 });
    expect([chosen.data.sheet, chosen.data.sheets.map((s) => s.matched)]).toEqual([0, [3, 4]]);
    expect(chosen.data.preview[0]?.cells).toEqual(['苹果', '1', '1']);
  });

  it('refuses a column chosen twice and a required field with no column, in the caller’s language', async () => {
    const { tokens, store } = await buildShop(t().app);
    const file: [string, Buffer] = ['list.xlsx', await retailWorkbook()];
    const twice = await importWith(tokens.stock, file, { columns: ['name', 'price', 'price'] }, 'zh-CN');
    expect(twice).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 2, field: 'price', reason: '“价格”对应了多个列' }],
    });
    const none = await importWith(tokens.stock, file, { columns: ['name', 'price', ''] });
    expect(none).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 2, field: 'barcode', reason: 'no column is chosen for “barcode”' }],
    });
    const badOptions = await inspect(tokens.stock, file, { sheet: -1 });
    expect(badOptions).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: the import options are not valid',
    });
    const noTitle = await inspect(tokens.stock, file, { sheet: 1, headerLine: 40 });
    expect(noTitle).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [
        {
          line: 40,
          field: '',
          reason: 'line 40 cannot be the title row: choose one of the first 10 rows that hold text',
        },
      ],
    });
    const noSheet = await inspect(tokens.stock, file, { sheet: 5 }, 'zh-CN');
    expect(noSheet).toMatchObject({ code: ErrorCode.BAD_FILE, msg: '文件无效：工作簿中没有这个工作表' });
    expect(await snapshot(t().app, 'products', store.id)).toEqual([]);
  });

  it('reads CSV in GB18030 with semicolons, UTF-8 with a BOM and tabs, and UTF-8 with commas', async () => {
    const { tokens, store } = await buildShop(t().app);
    const gb = Buffer.from(gbk('商品名称;售价;条形码\r\n苹果;12.5;6902001\r\n香蕉;3;6902002\r\n'));
    // Not UTF-8: the spec's import refuses it.
    expect((await post('../product/import', tokens.stock, ['gb.csv', gb])).code).toBe(ErrorCode.BAD_FILE);
    const gbSeen = await inspect(tokens.stock, ['gb.csv', gb]);
    expect(gbSeen.code, gbSeen.msg).toBe(0);
    expect([gbSeen.data.encoding, gbSeen.data.delimiter]).toEqual(['gb18030', ';']);
    expect(gbSeen.data.columns.map((c) => c.field)).toEqual(['name', 'price', 'barcode']);
    expect(gbSeen.data.preview[0]?.cells).toEqual(['苹果', '12.5', '6902001']);
    expect(await importWith(tokens.stock, ['gb.csv', gb])).toMatchObject({ code: 0, data: { inserted: 2 } });

    const tab = Buffer.from('\uFEFFbarcode\tproduct name\tprice\n6902003\tPear\t2\n');
    const tabSeen = await inspect(tokens.stock, ['tab.csv', tab]);
    expect([tabSeen.data.encoding, tabSeen.data.delimiter]).toEqual(['utf-8-bom', '\t']);
    expect(tabSeen.data.columns.map((c) => c.field)).toEqual(['barcode', 'name', 'price']);

    const comma = Buffer.from('条码,品名,零售价,产地\n6902004,葡萄,9.9,新疆\n');
    const commaSeen = await inspect(tokens.stock, ['comma.csv', comma]);
    expect([commaSeen.data.encoding, commaSeen.data.delimiter]).toEqual(['utf-8', ',']);
    expect(await importWith(tokens.stock, ['comma.csv', comma])).toMatchObject({ code: 0, data: { inserted: 1 } });

    const rows = await snapshot(t().app, 'products', store.id);
    expect(rows.map((r) => [r.barcode, r.name, r.price_cents])).toEqual([
      ['6902001', '苹果', 1250],
      ['6902002', '香蕉', 300],
      ['6902004', '葡萄', 990],
    ]);
  });

  it('is open only to roles with import rights', async () => {
    const { tokens } = await buildShop(t().app);
    const file: [string, Buffer] = ['list.xlsx', await retailWorkbook()];
    const allowed = rolesWith('product.import');
    for (const role of TENANT_ROLES) {
      const token = (tokens as Record<string, string | undefined>)[role];
      if (!token) continue;
      const seen = await inspect(token, file);
      const done = await importWith(token, file, { columns: ['', '', ''] });
      if (allowed.includes(role)) {
        expect(seen.code, role).toBe(0);
        expect(done.code, role).toBe(ErrorCode.IMPORT_FAILED);
      } else {
        expect([seen.code, done.code], role).toEqual([ErrorCode.FORBIDDEN, ErrorCode.FORBIDDEN]);
      }
    }
  });
});

/** GB18030 bytes of text (Node decodes GB18030 but does not encode it): a table for the characters used. */
function gbk(text: string): number[] {
  const table: Record<string, number[]> = {};
  const decoder = new TextDecoder('gb18030');
  // Search the two-byte range for the characters needed.
  const wanted = new Set([...text].filter((c) => c.charCodeAt(0) > 0x7f));
  for (let hi = 0x81; hi <= 0xfe && wanted.size; hi++) {
    for (let lo = 0x40; lo <= 0xfe && wanted.size; lo++) {
      if (lo === 0x7f) continue;
      const c = decoder.decode(new Uint8Array([hi, lo]));
      if (wanted.has(c)) {
        table[c] = [hi, lo];
        wanted.delete(c);
      }
    }
  }
  return [...text].flatMap((c) => table[c] ?? [c.charCodeAt(0)]);
}

const [sqlite] = await testDatabases();

describe('the import limits while a file is looked at', () => {
  const t = useApp(sqlite);

  async function inspect(token: string, name: string, bytes: Buffer, lang = 'en') {
    const { payload, headers } = wizardBody(name, bytes);
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/product/importcheck',
      headers: { ...headers, token, 'accept-language': lang },
      payload,
    });
    return res.json() as Answer<ImportInspection>;
  }

  it('refuses the bombs a look at the first rows meets, and reads only the top of a huge sheet', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.stock;
    expect(await inspect(token, 'sst.xlsx', sharedStringsBombXlsx())).toMatchObject({
      code: ErrorCode.BAD_FILE,
      msg: 'Invalid file: xl/sharedStrings.xml unpacks to more than 64 MB',
    });
    expect((await inspect(token, 'entries.xlsx', manyEntriesXlsx())).msg).toBe(
      'Invalid file: the archive holds more than 10000 files',
    );
    expect(await inspect(token, 'wide.xlsx', wideXlsx(), 'zh-CN')).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 1, reason: '列数超过上限 256' }],
    });
    expect(await inspect(token, 'wide.csv', wideCsv())).toMatchObject({
      code: ErrorCode.IMPORT_FAILED,
      data: [{ line: 1, field: '', reason: 'more columns than the limit of 256' }],
    });
    const cell = await inspect(token, 'cell.csv', Buffer.from(`barcode,name,price\n1,${'x'.repeat(40_000)},1\n`));
    expect(cell.data).toEqual([{ line: 2, field: '', reason: 'a cell holds more than 32767 characters' }]);

    // Two million rows in a few megabytes: the look stops after the first rows.
    const many = await inspect(token, 'rows.xlsx', manyRowsXlsx());
    expect(many.code, many.msg).toBe(0);
    expect(many.data.preview.length).toBeGreaterThan(0);
    expect(many.data.preview.length).toBeLessThanOrEqual(10);
  });

  it('is in the OpenAPI document as multipart calls beyond the spec', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json() as {
      paths: Record<string, { post: { summary?: string; description?: string; requestBody: unknown } }>;
    };
    for (const path of ['/api/mgr/product/importcheck', '/api/mgr/product/importmapped']) {
      const post = doc.paths[path]?.post;
      expect(`${post?.summary ?? ''} ${post?.description ?? ''}`).toContain('beyond SPEC');
      expect(post?.requestBody).toMatchObject({
        content: {
          'multipart/form-data': {
            schema: { properties: { options: { type: 'object' }, file: { format: 'binary' } }, required: ['file'] },
          },
        },
      });
    }
    // The spec's import keeps its own body: one file.
    expect(doc.paths['/api/mgr/product/import']?.post.requestBody).toMatchObject({
      content: { 'multipart/form-data': { schema: { properties: { file: { format: 'binary' } } } } },
    });
  });

  it('waits its turn with the imports of the tenant', async () => {
    const { tokens, tenant } = await buildShop(t().app);
    const held = [importGate.enter(tenant.id), importGate.enter(tenant.id)];
    try {
      const busy = await inspect(tokens.stock, 'list.xlsx', await retailWorkbook());
      expect(busy.code).toBe(ErrorCode.BUSY);
    } finally {
      for (const leave of held) leave?.();
    }
    expect((await inspect(tokens.stock, 'list.xlsx', await retailWorkbook())).code).toBe(0);
  });
});
