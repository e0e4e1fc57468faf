import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

// Promotions (issue 29 item 2, docs/PROMOTIONS.md) in the console: the administrator adds one for a
// product by barcode (name, promotional price, text, start and end on the store's clock), finds it
// upcoming in Business → Promotions, edits its price and cancels it; the form names what is
// missing; in both languages, with screenshots of the dialog and the list.

interface Row {
  id: number;
  name: string;
  price: string;
  text: string;
  barcodes: string[];
  startAt: string;
  endAt: string;
  state: string;
}

const prefix = `PRM${randomBytes(3).toString('hex').toUpperCase()}`;
const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const rows = (page: Page) => page.getByTestId('promotion-table').locator('.ant-table-tbody .ant-table-row');

const WORDS = {
  en: {
    add: 'Add promotion',
    save: /^Save$/,
    upcoming: 'Upcoming',
    cancelled: 'Cancelled',
    edit: 'Edit',
    cancel: 'Cancel promotion',
    added: 'Promotion added',
    saved: 'Promotion saved',
  },
  'zh-CN': {
    add: '添加促销',
    save: /^保\s*存$/,
    upcoming: '未开始',
    cancelled: '已取消',
    edit: '修改',
    cancel: '取消促销',
    added: '已添加促销',
    saved: '促销已保存',
  },
} as const;

describeBrowser('promotions (/basemgr/promo)', () => {
  const browser = useBrowser();
  let token = '';
  const products: number[] = [];
  const barcode = (lang: Lang) => `69${prefix.slice(3)}${lang === 'en' ? '1' : '2'}`.replace(/[^0-9]/g, '7');

  beforeAll(async () => {
    token = await apiLogin('admin');
    for (const lang of ['en', 'zh-CN'] as const) {
      const added = await api<{ id: number }>(
        '/mgr/product/add',
        { barcode: barcode(lang), name: `${prefix} Pear ${lang}`, price: '5.00' },
        token,
      );
      expect(added.code, added.msg).toBe(0);
      products.push(added.data.id);
    }
  });

  afterAll(async () => {
    if (token && products.length) await api('/mgr/product/delete', { ids: products }, token);
  });

  const mine = async (lang: Lang) => {
    const list = await api<Row[]>('/mgr/promo/list', { page: 1, limit: 100 }, token);
    expect(list.code, list.msg).toBe(0);
    return list.data.filter((r) => r.name === `${prefix} ${lang}`);
  };

  describe.each(['en', 'zh-CN'] as const)('in %s', (lang) => {
    const w = WORDS[lang];
    it('adds a promotion for a barcode, lists it upcoming, edits and cancels it', async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      try {
        await login(page, 'admin', { path: '/basemgr/promo' });
        await waitForShell(page);
        await page.getByTestId('promotion-table').waitFor();
        await settled(page);
        await page.getByRole('button', { name: w.add }).click();
        await dialog(page).locator('#promotion_price').waitFor();
        // Nothing filled in: the form says what is missing, in the page's language.
        await dialog(page).getByRole('button', { name: w.save }).click();
        await dialog(page).locator('.ant-form-item-explain-error').first().waitFor();

        const pad = (n: number) => String(n).padStart(2, '0');
        const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
        const start = `${day(new Date(Date.now() + 2 * 86_400_000))} 09:30`;
        const end = `${day(new Date(Date.now() + 3 * 86_400_000))} 21:00`;
        await page.fill('#promotion_name', `${prefix} ${lang}`);
        await page.fill('#promotion_price', '3.99');
        await page.fill('#promotion_text', lang === 'en' ? 'Weekend offer' : '周末特价');
        await page.locator('#promotion_start').fill(start);
        await page.locator('#promotion_start').press('Enter');
        await page.locator('#promotion_end').fill(end);
        await page.locator('#promotion_end').press('Enter');
        await page.locator('#promotion_barcodes').fill(barcode(lang));
        await page.locator('#promotion_barcodes').press('Enter');
        await settled(page);
        await screenshot(page, `promotions-dialog-${lang}`);
        await dialog(page).getByRole('button', { name: w.save }).click();
        await toast(page, w.added).waitFor();
        const [added] = await mine(lang);
        expect(added).toMatchObject({
          price: '3.99',
          barcodes: [barcode(lang)],
          startAt: start.replace(' ', 'T'),
          endAt: end.replace(' ', 'T'),
          state: 'pending',
        });

        const row = rows(page).filter({ hasText: `${prefix} ${lang}` });
        await row.getByText(w.upcoming).waitFor();
        await row.getByText(start).waitFor();
        await settled(page);
        await screenshot(page, `promotions-list-${lang}-1280`);

        await row.getByRole('button', { name: w.edit }).click();
        await eventually(() => page.locator('#promotion_price').inputValue()).toBe('3.99');
        await page.fill('#promotion_price', '3.49');
        await dialog(page).getByRole('button', { name: w.save }).click();
        await toast(page, w.saved).waitFor();
        await eventually(async () => (await mine(lang))[0]?.price).toBe('3.49');

        await row.getByRole('button', { name: w.cancel }).click();
        await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
        await eventually(async () => (await mine(lang))[0]?.state).toBe('cancelled');
        await row.getByText(w.cancelled).waitFor();
      } catch (err) {
        await screenshot(page, `promotions-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
