import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  api,
  apiLogin,
  chooseOption,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshotListPage,
  selectOf,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

interface ProductRow {
  id: number;
  barcode: string;
  name: string;
  price: string;
  unit: string;
  custom: Record<string, string>;
  priceChanges: number;
}

interface FieldMap {
  name: string;
  tField: string;
}

// Barcodes and names of this run share a prefix, so a filter on it finds exactly them.
const prefix = `E2E${randomBytes(3).toString('hex').toUpperCase()}`;
const customTitle = `Brand ${prefix}`;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });
// The page's own table: closed dialogs keep theirs in the document.
const rows = (page: Page) => page.getByTestId('product-table').locator('.ant-table-tbody .ant-table-row');
const popconfirm = (page: Page) => page.locator('.ant-popconfirm:visible');

describeBrowser('products page (/basemgr/product)', () => {
  const browser = useBrowser();
  const folder = mkdtempSync(join(tmpdir(), 'esl-e2e-products-'));
  let token = '';
  let original: FieldMap[] = [];

  async function ourProducts(): Promise<ProductRow[]> {
    const list = await api<ProductRow[]>('/mgr/product/list', { page: 1, limit: 100, text: prefix }, token);
    expect(list.code).toBe(0);
    return list.data;
  }

  /** A CSV file titled by the tenant's mapping (and the custom column), written for the file input. */
  function csvFile(name: string, lines: string[][]): string {
    const title = (field: string) => original.find((f) => f.name === field)?.tField ?? field;
    const header = [title('barcode'), title('name'), title('price'), title('unit'), customTitle];
    const file = join(folder, name);
    writeFileSync(file, `${[header, ...lines].map((l) => l.join(',')).join('\n')}\n`);
    return file;
  }

  beforeAll(async () => {
    token = await apiLogin('admin');
    const mapping = await api<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, token);
    expect(mapping.code).toBe(0);
    original = mapping.data.fields;
  });

  afterAll(async () => {
    const left = await ourProducts();
    if (left.length > 0) await api('/mgr/product/delete', { ids: left.map((p) => p.id) }, token);
    await api('/mgr/product/mapfield', { fields: original }, token);
    rmSync(folder, { recursive: true, force: true });
  });

  // One signed-in page walks through the flow; each step is its own test so a failure names its step.
  describe('the flow, in English', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      ({ context, page } = await newPage(browser(), { lang: 'en' }));
      await login(page, 'admin', { path: '/basemgr/product' });
      await waitForShell(page);
      await page.locator('.ant-table').waitFor();
    });

    afterAll(async () => {
      await context?.close();
    });

    const search = () => page.locator('form#productFilter').getByRole('button', { name: 'Search' }).click();

    it('maps a file column to a custom field', async () => {
      await page.getByTestId('field-map').click();
      await dialog(page).getByRole('columnheader', { name: 'Product field (name)' }).waitFor();
      await eventually(() => dialog(page).locator('.ant-table-row').count()).toBe(original.length);
      await dialog(page).getByRole('button', { name: 'Add custom field' }).click();
      const added = dialog(page).locator('.ant-table-row').last();
      await added.getByPlaceholder('Custom field key').fill('brand');
      // A title another field uses is refused before anything is sent.
      await added.locator('input').nth(1).fill(original[0].tField.toLowerCase());
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await dialog(page).getByText('Another field uses this column title').waitFor();
      await added.locator('input').nth(1).fill(customTitle);
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Field mapping saved').waitFor();
      const saved = await api<{ fields: FieldMap[] }>('/mgr/product/mapfield', {}, token);
      expect(saved.data.fields).toContainEqual({ name: 'brand', tField: customTitle });
    });

    it('imports a CSV file: bad rows are reported by line and reason and nothing is written', async () => {
      const bad = csvFile('bad.csv', [
        [`${prefix}-1`, `${prefix} Apple`, '1.50', 'kg', 'Orchard'],
        ['', `${prefix} No barcode`, '2', 'kg', ''],
        [`${prefix}-3`, `${prefix} Pear`, 'abc', 'kg', ''],
      ]);
      await page.getByTestId('import-products').click();
      await dialog(page).locator('input[type="file"]').setInputFiles(bad);
      await dialog(page).getByText('bad.csv').waitFor();
      await page.getByTestId('import-next').click();
      await page.getByTestId('import-start').click();
      const report = page.getByTestId('import-errors');
      await report.waitFor();
      await eventually(() => report.locator('.ant-table-row').count()).toBe(2);
      const lines = await report.locator('.ant-table-row').allTextContents();
      expect(lines[0]).toMatch(/^3\s*barcode\s*barcode cannot be empty$/);
      expect(lines[1]).toMatch(/^4\s*price\s*price has the wrong format$/);
      await dialog(page).getByText('nothing was written').first().waitFor();
      expect(await ourProducts()).toEqual([]);

      const good = csvFile('good.csv', [
        [`${prefix}-1`, `${prefix} Apple`, '1.50', 'kg', 'Orchard'],
        [`${prefix}-2`, `${prefix} Banana`, '2', 'kg', ''],
        [`${prefix}-3`, `${prefix} Pear`, '3.20', 'kg', 'Orchard'],
      ]);
      // Back through the wizard to its first step, to choose the corrected file.
      await dialog(page).getByRole('button', { name: 'Back' }).click();
      await dialog(page).getByRole('button', { name: 'Back' }).click();
      await dialog(page).locator('input[type="file"]').setInputFiles(good);
      await dialog(page).getByText('good.csv').waitFor();
      await page.getByTestId('import-next').click();
      await page.getByTestId('import-start').click();
      await page.getByTestId('import-result').getByText('Imported 3 rows: 3 new, 0 updated').waitFor();
      await dialog(page).locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
      const imported = await ourProducts();
      expect(imported.map((p) => p.barcode).sort()).toEqual([`${prefix}-1`, `${prefix}-2`, `${prefix}-3`]);
      expect(imported.find((p) => p.barcode === `${prefix}-1`)?.custom).toEqual({ brand: 'Orchard' });
    });

    it('filters by barcode or name, and by being on a tag', async () => {
      await page.fill('#productFilter_text', prefix);
      await search();
      await eventually(() => rows(page).count()).toBe(3);
      await page.fill('#productFilter_text', `${prefix} Banana`);
      await search();
      await eventually(() => rows(page).count()).toBe(1);
      await page.fill('#productFilter_text', prefix);
      await chooseOption(page, selectOf(page, '#productFilter_bound'), 'On a tag');
      await search();
      await eventually(() => rows(page).count()).toBe(0);
      await page.locator('form#productFilter').getByRole('button', { name: 'Reset' }).click();
      await page.fill('#productFilter_text', prefix);
      await search();
      await eventually(() => rows(page).count()).toBe(3);
    });

    it('adds a product, with the validation messages', async () => {
      await page.getByTestId('add-product').click();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'Barcode cannot be empty').waitFor();
      await error(page, 'Name cannot be empty').waitFor();
      await error(page, 'Price cannot be empty').waitFor();
      await page.fill('#product_barcode', `${prefix}-4`);
      await page.fill('#product_name', `${prefix} Plum`);
      await page.fill('#product_price', '1.234');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'at most two decimals').waitFor();
      await page.fill('#product_price', '4.5');
      await page.fill('#product_originalPrice', '5');
      await page.fill('#product_unit', 'box');
      await dialog(page).getByRole('button', { name: 'Add custom field' }).click();
      await page.fill('#product_custom_0_key', 'brand');
      await page.fill('#product_custom_0_value', 'Stone fruit');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Product added').waitFor();
      await eventually(() => rows(page).count()).toBe(4);
      const plum = (await ourProducts()).find((p) => p.barcode === `${prefix}-4`);
      expect(plum).toMatchObject({
        name: `${prefix} Plum`,
        price: '4.50',
        unit: 'box',
        custom: { brand: 'Stone fruit' },
      });
    });

    it('counts a price change', async () => {
      const row = rows(page).filter({ hasText: `${prefix}-2` });
      await eventually(() => row.getByTestId('price-changes').textContent()).toBe('0');
      await row.getByRole('button', { name: 'Edit' }).click();
      await eventually(() => page.inputValue('#product_price')).toBe('2.00');
      await page.fill('#product_price', '2.40');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'its price has changed once').waitFor();
      await eventually(() => row.getByTestId('price-changes').textContent()).toBe('1');
      const banana = (await ourProducts()).find((p) => p.barcode === `${prefix}-2`);
      expect(banana).toMatchObject({ price: '2.40', priceChanges: 1 });
    });

    it('exports the current filter to XLSX', async () => {
      await page.fill('#productFilter_text', `${prefix} P`);
      await search();
      await eventually(() => rows(page).count()).toBe(2);
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-products').click()]);
      expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(await file.path());
      const sheet = book.worksheets[0];
      const barcodes: string[] = [];
      sheet.eachRow((r, n) => {
        if (n > 1) barcodes.push(String(r.getCell(1).value));
      });
      // Pear and Plum: the filter, not the whole store.
      expect(barcodes.sort()).toEqual([`${prefix}-3`, `${prefix}-4`]);
    });

    it('deletes with confirmation, one row and then a selection', async () => {
      await page.fill('#productFilter_text', prefix);
      await search();
      await eventually(() => rows(page).count()).toBe(4);
      const plum = rows(page).filter({ hasText: `${prefix}-4` });
      await plum.getByRole('button', { name: 'Delete' }).click();
      await popconfirm(page).getByRole('button', { name: 'Cancel' }).click();
      expect(await ourProducts()).toHaveLength(4);
      await plum.getByRole('button', { name: 'Delete' }).click();
      await popconfirm(page).getByRole('button', { name: 'Delete' }).click();
      await toast(page, '1 product deleted').waitFor();
      await eventually(() => rows(page).count()).toBe(3);

      await page.locator('.ant-table-thead .ant-checkbox-input').check();
      await page.getByTestId('selection-bar').getByText('3 selected').waitFor();
      await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click();
      await popconfirm(page).getByRole('button', { name: 'Delete' }).click();
      await toast(page, '3 products deleted').waitFor();
      await eventually(() => rows(page).count()).toBe(0);
      expect(await ourProducts()).toEqual([]);
    });
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows the page in ${lang}`, () =>
      screenshotListPage(browser(), lang, {
        path: '/basemgr/product',
        heading: lang === 'en' ? 'Products' : '商品列表',
        rows,
        artifact: `business-product-${lang}`,
      }));
  }
});
