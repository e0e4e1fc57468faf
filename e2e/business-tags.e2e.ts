import { randomBytes } from 'node:crypto';
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
  settled,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

interface TagRow {
  id: number;
  hardwareId: string;
  model: string;
  colour: string;
  product: { barcode: string; name: string } | null;
}

interface ProductRow {
  id: number;
  barcode: string;
}

// IDs of this run share a prefix, so a filter on it finds exactly them.
const prefix = randomBytes(3).toString('hex').toUpperCase();
const first = `${prefix}01`;
const second = `${prefix}02`;
const barcode = `E2E${prefix}`;
const productName = `E2E Oat milk ${prefix}`;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });
const options = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option');
// The page's own table: closed dialogs keep theirs in the document.
const rows = (page: Page) => page.getByTestId('tag-table').locator('.ant-table-tbody .ant-table-row');

/** Picks the option whose text starts with `option` ('Bound' is not 'Not bound'). */
async function choose(page: Page, select: string, option: string): Promise<void> {
  await chooseOption(page, selectOf(page, select), new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

async function activeId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

describeBrowser('tags page (/basemgr/esl)', () => {
  const browser = useBrowser();
  let token = '';
  let productId = 0;

  async function ourTags(): Promise<TagRow[]> {
    const list = await api<TagRow[]>('/mgr/tag/list', { page: 1, limit: 100, text: prefix }, token);
    expect(list.code).toBe(0);
    return list.data;
  }

  beforeAll(async () => {
    token = await apiLogin('admin');
    const added = await api<ProductRow>('/mgr/product/add', { barcode, name: productName, price: '6.80' }, token);
    expect(added.code).toBe(0);
    productId = added.data.id;
  });

  afterAll(async () => {
    const left = await ourTags();
    if (left.length > 0) await api('/mgr/tag/delete', { ids: left.map((t) => t.id) }, token);
    if (productId) await api('/mgr/product/delete', { ids: [productId] }, token);
  });

  // One signed-in page walks through the flow; each step is its own test so a failure names its step.
  describe('the flow, in English', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      ({ context, page } = await newPage(browser(), { lang: 'en' }));
      await login(page, 'admin', { path: '/basemgr/esl' });
      await waitForShell(page);
      await page.locator('.ant-table').waitFor();
    });

    afterAll(async () => {
      await context?.close();
    });

    const search = () => page.locator('form#tagFilter').getByRole('button', { name: 'Search' }).click();
    const firstRow = () => rows(page).filter({ hasText: first });

    it('adds tags: a model from the catalogue, only its colour types, one or many IDs', async () => {
      // Nothing chosen → 'Please select a model or an ID' for both.
      await page.getByTestId('add-tags').click();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await eventually(() => error(page, 'Please select a model or an ID').count()).toBe(2);

      // The colour type offers only the model's colours, its usual one first.
      await choose(page, '#addTags_model', '05 · 2.13L');
      const colour = page.locator('.ant-select', { has: page.locator('#addTags_colour') });
      await eventually(() => colour.locator('.ant-select-content').textContent()).toBe('Black/white/red');
      await page.locator('#addTags_colour').click();
      await eventually(() => options(page).allTextContents()).toEqual(['Black/white/red', 'Black/white/yellow']);
      // A click while the list is still opening can be lost (seen in CI): let it finish first.
      await settled(page);
      await options(page).filter({ hasText: 'Black/white/yellow' }).click();
      await eventually(() => colour.locator('.ant-select-content').textContent()).toBe('Black/white/yellow');

      await page.fill('#addTags_ids', `${first}\nnot-an-id`);
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'not-an-id').waitFor();
      await page.fill('#addTags_ids', `${first.toLowerCase()}\n${second}`);
      await dialog(page).getByText('2 IDs').waitFor();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, '2 tags added').waitFor();
      const added = await ourTags();
      expect(added.map((t) => t.hardwareId).sort()).toEqual([first, second]);
      expect(added.every((t) => t.model === '05' && t.colour === 'bwy')).toBe(true);

      // Filter by the ID text: just these two.
      await page.fill('#tagFilter_text', prefix);
      await search();
      await eventually(() => rows(page).count()).toBe(2);
    });

    it('binds with the scanner flow: Enter moves to the barcode, Enter binds, focus returns', async () => {
      await page.getByTestId('bind-tags').click();
      await eventually(() => activeId(page)).toBe('bindTag_hardwareId');
      await page.keyboard.type(first);
      await page.keyboard.press('Enter');
      await eventually(() => activeId(page)).toBe('bindTag_barcode');
      await page.keyboard.type(barcode);
      await page.keyboard.press('Enter');
      await page.getByTestId('bound-item').filter({ hasText: productName }).waitFor();
      await eventually(() => activeId(page)).toBe('bindTag_hardwareId');
      expect(await page.inputValue('#bindTag_barcode')).toBe('');
      // An unknown barcode is refused and nothing is bound.
      await page.keyboard.type(second);
      await page.keyboard.press('Enter');
      await page.keyboard.type('NO-SUCH-BARCODE');
      await page.keyboard.press('Enter');
      await page.locator('.ant-message-error').waitFor();
      await dialog(page).locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

      await eventually(() => firstRow().textContent()).toContain(productName);
      const bound = await ourTags();
      expect(bound.find((t) => t.hardwareId === first)?.product?.barcode).toBe(barcode);
      expect(bound.find((t) => t.hardwareId === second)?.product).toBeNull();
    });

    it('filters by binding and by the bound product', async () => {
      await choose(page, '#tagFilter_bound', 'Not bound');
      await search();
      await eventually(() => rows(page).count()).toBe(1);
      await rows(page).filter({ hasText: second }).waitFor();
      await choose(page, '#tagFilter_bound', 'Bound');
      await search();
      await eventually(() => rows(page).count()).toBe(1);
      await firstRow().waitFor();
      // The text filter matches the bound product's name too.
      await page.locator('form#tagFilter').getByRole('button', { name: 'Reset' }).click();
      await page.fill('#tagFilter_text', productName);
      await search();
      await eventually(() => rows(page).count()).toBe(1);
      await page.fill('#tagFilter_text', prefix);
      await search();
      await eventually(() => rows(page).count()).toBe(2);
    });

    it('shows a refresh as a request with its progress', async () => {
      await firstRow().getByRole('button', { name: 'Refresh' }).click();
      await toast(page, 'Refresh sent').waitFor();
      const panel = page.getByTestId('request-progress');
      await panel.waitFor();
      // One tag asked for, none of its station's answers yet (no station hears these tags).
      expect(await panel.getAttribute('data-total')).toBe('1');
      expect(await panel.textContent()).toContain('Refreshing tags');
      expect(await page.getByTestId('request-counts').textContent()).toMatch(/\d+ done, \d+ failed, of 1$/);
      const first = await panel.getAttribute('data-request-id');

      await page.getByRole('button', { name: 'Full store refresh' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'OK' }).click();
      await toast(page, 'Full store refresh sent').waitFor();
      // The panel follows the newest request: the store's, counting every tag of the store.
      await eventually(() => panel.getAttribute('data-request-id')).not.toBe(first);
      const id = Number(await panel.getAttribute('data-request-id'));
      const progress = await api<{ total: number }>('/mgr/request/get', { id }, token);
      expect(progress.code, progress.msg).toBe(0);
      expect(await panel.getAttribute('data-total')).toBe(String(progress.data.total));
      expect(await panel.textContent()).toContain('Full store refresh');
    });

    it('unbinds after confirmation', async () => {
      await firstRow().getByRole('button', { name: 'Unbind' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Unbind' }).click();
      await toast(page, '1 tag unbound').waitFor();
      await eventually(() => firstRow().textContent()).toContain('Not bound');
      expect((await ourTags()).every((t) => t.product === null)).toBe(true);
    });

    it('deletes the selected tags after confirmation', async () => {
      await rows(page).locator('.ant-checkbox-input').nth(0).check();
      await rows(page).locator('.ant-checkbox-input').nth(1).check();
      await page.getByTestId('selection-bar').getByText('2 selected').waitFor();
      await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Cancel' }).click();
      expect(await ourTags()).toHaveLength(2);
      await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
      await toast(page, '2 tags deleted').waitFor();
      await eventually(() => rows(page).count()).toBe(0);
      expect(await ourTags()).toEqual([]);
    });
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows the page in ${lang}`, () =>
      screenshotListPage(browser(), lang, {
        path: '/basemgr/esl',
        heading: lang === 'en' ? 'Tags' : '价签列表',
        rows,
        artifact: `business-esl-${lang}`,
      }));
  }
});
