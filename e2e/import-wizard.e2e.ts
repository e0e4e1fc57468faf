import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { seriousViolations, WCAG21_AA } from './support/axe';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  chooseOption,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/** Serious or critical WCAG 2.1 AA violations inside the open dialog only (axe-core). */
async function dialogViolations(page: Page): Promise<string[]> {
  await seriousViolations(page); // loads axe-core into the page
  return page.evaluate(
    async (tags) => {
      type AxeResult = { id: string; impact: string | null; nodes: { html: string }[] };
      const axe = (
        window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeResult[] }> } }
      ).axe;
      const result = await axe.run(
        { include: [['.ant-modal-container']] },
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      );
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
    },
    [...WCAG21_AA],
  );
}

interface FieldMap {
  name: string;
  tField: string;
}

interface ProductRow {
  id: number;
  barcode: string;
  name: string;
  price: string;
  originalPrice: string | null;
  spec: string;
}

const prefix = `W${randomBytes(3).toString('hex').toUpperCase()}`;
const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();

/**
 * A price list as a retailer keeps it: an instructions sheet first, a heading line above the
 * column titles, Chinese titles that are not the mapping's (商品名称 / 售价 / 条形码), a column of
 * notes no field takes, and a spec far too long on one row.
 */
async function retailWorkbook(file: string, barcode: (n: number) => string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const help = workbook.addWorksheet('填写说明');
  help.addRow(['请在“价目表”工作表中填写商品，每行一个商品']);
  help.addRow(['售价以元为单位，条形码不能重复']);
  const sheet = workbook.addWorksheet('价目表');
  sheet.addRow(['2026 年 11 月价目表']);
  sheet.addRow(['商品名称', '售价', '条形码', '规格', '备注']);
  sheet.addRow([`${prefix} 红富士苹果`, 12.5, barcode(1), '500g', '新品']);
  sheet.addRow([`${prefix} 香蕉`, 3.99, barcode(2), 'x'.repeat(80), '']);
  sheet.addRow([`${prefix} 梨`, 6, barcode(3), '1kg', '促销']);
  await workbook.xlsx.writeFile(file);
}

/**
 * The import wizard, as the stock keeper uses it, in both languages: the workbook's second sheet
 * and its title row are found, the columns matched by their Chinese titles, the unmatched one
 * shown; one choice is changed, the preview follows, and the import writes the rows.
 */
describeBrowser('the product import wizard', () => {
  const browser = useBrowser();
  const folder = mkdtempSync(join(tmpdir(), 'esl-e2e-wizard-'));
  let admin = '';
  let stock = '';
  let original: FieldMap[] = [];

  const ours = async () => {
    const list = await api<ProductRow[]>('/mgr/product/list', { page: 1, limit: 100, text: prefix }, stock);
    expect(list.code).toBe(0);
    return list.data;
  };

  beforeAll(async () => {
    admin = await apiLogin('admin');
    stock = await apiLogin('stock');
    const mapping = await api<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, admin);
    expect(mapping.code).toBe(0);
    original = mapping.data.fields;
  });

  afterAll(async () => {
    if (stock) {
      const left = await ours();
      if (left.length > 0) await api('/mgr/product/delete', { ids: left.map((p) => p.id) }, stock);
    }
    if (admin) await api('/mgr/product/mapfield', { fields: original }, admin);
    rmSync(folder, { recursive: true, force: true });
  });

  const words = {
    'zh-CN': {
      none: '不导入',
      specProblem: '规格过长',
      ok: '无问题',
      sheet: '价目表（识别出 4 个字段）',
      done: '已导入 3 行：新增 3 个，更新 0 个，无变化 0 个',
      header: '列标题取自第 2 行',
    },
    en: {
      none: 'Not imported',
      specProblem: 'Spec is too long',
      ok: 'OK',
      sheet: '价目表 (4 fields recognised)',
      done: 'Imported 3 rows: 3 new, 0 updated, 0 unchanged',
      header: 'Column titles are read from line 2',
    },
  } as const;

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`imports a retailer's workbook through the wizard as the stock keeper (${lang})`, async () => {
      const w = words[lang];
      await api('/mgr/product/mapfield', { fields: original }, admin);
      const code = (n: number) => `${prefix}${lang === 'en' ? 'E' : 'Z'}${n}`;
      const file = join(folder, `价目表-${lang}.xlsx`);
      await retailWorkbook(file, code);

      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 900 } });
      try {
        await login(page, 'stock', { path: '/basemgr/product' });
        await waitForShell(page);
        await page.getByTestId('import-products').click();
        await dialog(page).locator('input[type="file"]').setInputFiles(file);
        await dialog(page).getByText(`价目表-${lang}.xlsx`).waitFor();
        await settled(page);
        await screenshot(page, `import-wizard-file-${lang}`);
        await page.getByTestId('import-next').click();

        // The second sheet and its second line were chosen; every column is listed, the notes too.
        const columns = page.getByTestId('import-column-table');
        await columns.waitFor();
        await dialog(page).getByTestId('import-sheet').getByText(w.sheet).waitFor();
        await page.getByTestId('import-header-line').getByText(w.header).waitFor();
        const columnRows = columns.locator('.ant-table-row');
        await eventually(() => columnRows.count()).toBe(5);
        expect(await columnRows.nth(4).getByTestId('import-field-4').innerText()).toContain(w.none);

        // The preview shows the second row's problem.
        const preview = page.getByTestId('import-preview').locator('.ant-table-row');
        await eventually(() => preview.count()).toBe(3);
        await preview.nth(1).getByText(w.specProblem).waitFor();
        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `import-wizard-columns-${lang}`);
        expect(await dialogViolations(page)).toEqual([]);

        // The spec column is not wanted: the problem goes with it.
        await chooseOption(page, page.getByTestId('import-field-3'), w.none);
        await preview.nth(1).getByText(w.ok).waitFor();
        await eventually(() => page.getByTestId('import-preview').getByText(w.specProblem).count()).toBe(0);
        await settled(page);
        await screenshot(page, `import-wizard-changed-${lang}`);

        await page.getByTestId('import-save').click();
        await page.getByTestId('import-start').click();
        await page.getByTestId('import-result').getByText(w.done).waitFor();
        await screenshot(page, `import-wizard-done-${lang}`);

        const rows = (await ours()).filter((p) => p.barcode.startsWith(code(0).slice(0, -1)));
        expect(rows.map((p) => [p.barcode, p.price, p.spec]).sort()).toEqual([
          [code(1), '12.50', ''],
          [code(2), '3.99', ''],
          [code(3), '6.00', ''],
        ]);
        // The columns used are the mapping now: the next import of this file needs no choices.
        const mapping = await api<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, admin);
        expect(mapping.data.fields).toEqual(
          expect.arrayContaining([
            { name: 'name', tField: '商品名称' },
            { name: 'price', tField: '售价' },
            { name: 'barcode', tField: '条形码' },
          ]),
        );
      } finally {
        await context.close();
      }
    });
  }

  const again = {
    'zh-CN': {
      first: '已导入 5 行：新增 5 个，更新 0 个，无变化 0 个',
      second: '已导入 5 行：新增 0 个，更新 0 个，无变化 5 个',
    },
    en: {
      first: 'Imported 5 rows: 5 new, 0 updated, 0 unchanged',
      second: 'Imported 5 rows: 0 new, 0 updated, 5 unchanged',
    },
  } as const;

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows a workbook's dates as dates and counts a file imported again as unchanged (${lang})`, async () => {
      const w = again[lang];
      await api('/mgr/product/mapfield', { fields: original }, admin);
      const code = (n: number) => `${prefix}${lang === 'en' ? 'S' : 'T'}${n}`;
      const file = join(folder, `dates-${lang}.xlsx`);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('商品');
      sheet.addRow(['条码', '名称', '价格', '上架日期']);
      for (let n = 1; n <= 5; n++) {
        const row = sheet.addRow([code(n), `${prefix} 牛奶 ${n}`, 5 + n, new Date(Date.UTC(2026, 10, 19 + n))]);
        row.getCell(4).numFmt = 'yyyy/m/d';
      }
      await workbook.xlsx.writeFile(file);

      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 900 } });
      try {
        await login(page, 'stock', { path: '/basemgr/product' });
        await waitForShell(page);
        const importOnce = async (result: string, shot: string) => {
          await page.getByTestId('import-products').click();
          await dialog(page).locator('input[type="file"]').setInputFiles(file);
          await dialog(page).getByText(`dates-${lang}.xlsx`).waitFor();
          await page.getByTestId('import-next').click();
          const preview = page.getByTestId('import-preview').locator('.ant-table-row');
          await eventually(() => preview.count()).toBe(5);
          // The spreadsheet's day numbers (46346…) read as the dates it shows.
          await preview.first().getByText('2026-11-20', { exact: true }).waitFor();
          await preview.nth(4).getByText('2026-11-24', { exact: true }).waitFor();
          expect(await page.getByTestId('import-preview').innerText()).not.toMatch(/\b463\d\d\b/);
          await settled(page);
          if (shot === 'preview') await screenshot(page, `import-wizard-dates-${lang}`);
          await page.getByTestId('import-start').click();
          await page.getByTestId('import-result').getByText(result, { exact: true }).waitFor();
          await settled(page);
          await screenshot(page, `import-wizard-${shot}-${lang}`);
          await dialog(page).locator('.ant-modal-close').click();
          await dialog(page).waitFor({ state: 'hidden' });
        };
        await importOnce(w.first, 'preview');
        await importOnce(w.second, 'unchanged');
        const rows = (await ours()).filter((p) => p.barcode.startsWith(code(0).slice(0, -1)));
        expect(rows).toHaveLength(5);
      } finally {
        await context.close();
      }
    });
  }

  it('imports a GB18030 CSV separated by semicolons after accepting the suggested columns', async () => {
    await api('/mgr/product/mapfield', { fields: original }, admin);
    const code = (n: number) => `${prefix}G${n}`;
    const file = join(folder, 'gb18030.csv');
    const text = `品名;零售价;条码;产地\r\n${prefix} 葡萄;9.9;${code(1)};新疆\r\n${prefix} 橙子;4.5;${code(2)};赣南\r\n`;
    writeFileSync(file, gb18030(text));

    const { context, page } = await newPage(browser(), { lang: 'en', viewport: { width: 1280, height: 900 } });
    try {
      await login(page, 'stock', { path: '/basemgr/product' });
      await waitForShell(page);
      await page.getByTestId('import-products').click();
      await dialog(page).locator('input[type="file"]').setInputFiles(file);
      await dialog(page).getByText('gb18030.csv').waitFor();
      await page.getByTestId('import-next').click();
      await page.getByTestId('import-column-table').waitFor();
      await dialog(page).getByText('GB18030 (GBK)').waitFor();
      await dialog(page).getByText('Semicolon').waitFor();
      const preview = page.getByTestId('import-preview').locator('.ant-table-row');
      await eventually(() => preview.count()).toBe(2);
      await preview.first().getByText(`${prefix} 葡萄`).waitFor();
      await settled(page);
      await screenshot(page, 'import-wizard-csv-en');
      await page.getByTestId('import-start').click();
      await page.getByTestId('import-result').getByText('Imported 2 rows: 2 new, 0 updated, 0 unchanged').waitFor();
      const rows = (await ours()).filter((p) => p.barcode.startsWith(`${prefix}G`));
      expect(rows.map((p) => [p.barcode, p.name, p.price]).sort()).toEqual([
        [code(1), `${prefix} 葡萄`, '9.90'],
        [code(2), `${prefix} 橙子`, '4.50'],
      ]);
      // Without "save", the tenant's mapping is left as it was.
      const mapping = await api<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, admin);
      expect(mapping.data.fields).toEqual(original);
    } finally {
      await context.close();
    }
  });
});

/**
 * GB18030 bytes of text, as a spreadsheet program on a Chinese system saves CSV: Node decodes
 * GB18030 but cannot encode it, so each character's two bytes are found by decoding the table.
 */
function gb18030(text: string): Buffer {
  const decoder = new TextDecoder('gb18030');
  const wanted = new Set([...text].filter((c) => c.charCodeAt(0) > 0x7f));
  const bytes = new Map<string, number[]>();
  for (let hi = 0x81; hi <= 0xfe && bytes.size < wanted.size; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      if (lo === 0x7f) continue;
      const c = decoder.decode(new Uint8Array([hi, lo]));
      if (wanted.has(c) && !bytes.has(c)) bytes.set(c, [hi, lo]);
    }
  }
  return Buffer.from([...text].flatMap((c) => bytes.get(c) ?? [c.charCodeAt(0)]));
}
