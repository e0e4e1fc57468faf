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

// Prices on a schedule (issue 29 item 1, docs/SCHEDULE.md): the schedule dialog on the product
// list and the pending-changes list (edit, cancel), as the administrator, in both languages,
// with screenshots of the dialog and the list; and the list on a 390 px phone, one card a row.

interface Change {
  id: number;
  productId: number;
  status: string;
  localAt: string;
  changes: Record<string, unknown>;
}

const prefix = `SCH${randomBytes(3).toString('hex').toUpperCase()}`;
const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const productRows = (page: Page) => page.getByTestId('product-table').locator('.ant-table-tbody .ant-table-row');
const scheduleRows = (page: Page) => page.getByTestId('schedule-table').locator('.ant-table-tbody .ant-table-row');

/** The date `days` from now on this machine's clock, `YYYY-MM-DD`. */
const dayAhead = (days: number) => {
  const at = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
};

const WORDS = {
  en: {
    search: 'Search',
    save: /^Save$/,
    pending: 'Pending',
    cancelled: 'Cancelled',
    edit: 'Edit',
    cancel: 'Cancel change',
    added: 'Change scheduled',
    saved: 'Scheduled change saved',
    heading: 'Scheduled changes',
    price: 'price 2.75',
  },
  'zh-CN': {
    search: '查询',
    save: /^保\s*存$/,
    pending: '待生效',
    cancelled: '已取消',
    edit: '修改',
    cancel: '取消变更',
    added: '已添加定时变更',
    saved: '定时变更已保存',
    heading: '定时变更',
    price: '价格 2.75',
  },
} as const;

describeBrowser('scheduled changes (product list, /basemgr/schedule)', () => {
  const browser = useBrowser();
  let token = '';
  const products: Record<Lang, number> = { en: 0, 'zh-CN': 0 };
  const phoneProducts: Record<Lang, number> = { en: 0, 'zh-CN': 0 };

  beforeAll(async () => {
    token = await apiLogin('admin');
    for (const lang of ['en', 'zh-CN'] as const) {
      const added = await api<{ id: number }>(
        '/mgr/product/add',
        { barcode: `${prefix}-${lang}`, name: `${prefix} Apple ${lang}`, price: '1.00' },
        token,
      );
      expect(added.code).toBe(0);
      products[lang] = added.data.id;
      const phone = await api<{ id: number }>(
        '/mgr/product/add',
        { barcode: `${prefix}-P-${lang}`, name: `${prefix} Pear ${lang}`, price: '3.00' },
        token,
      );
      expect(phone.code).toBe(0);
      phoneProducts[lang] = phone.data.id;
    }
  });

  afterAll(async () => {
    const ids = [...Object.values(products), ...Object.values(phoneProducts)].filter(Boolean);
    await api('/mgr/product/delete', { ids }, token);
  });

  const changesOf = async (lang: Lang, productId = products[lang]) => {
    const list = await api<Change[]>('/mgr/schedule/list', { productId }, token);
    expect(list.code).toBe(0);
    return list.data;
  };

  describe.each(['en', 'zh-CN'] as const)('in %s', (lang) => {
    const w = WORDS[lang];
    it('schedules a change from the product list, lists it, edits and cancels it', async () => {
      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/basemgr/product' });
        await waitForShell(page);
        await page.locator('.ant-table').waitFor();
        await settled(page);
        await page.fill('#productFilter_text', `${prefix}-${lang}`);
        await page.locator('form#productFilter').getByRole('button', { name: w.search }).click();
        await eventually(() => productRows(page).count()).toBe(1);
        await productRows(page).first().getByTestId('schedule-product').click();
        await dialog(page).locator('#schedule_at').waitFor();
        // Nothing filled in: the form says what is missing, in the page's language.
        await dialog(page).getByRole('button', { name: w.save }).click();
        await dialog(page).locator('.ant-form-item-explain-error').first().waitFor();
        const typed = `${dayAhead(2)} 09:30`;
        await page.locator('#schedule_at').fill(typed);
        await page.locator('#schedule_at').press('Enter');
        await page.fill('#schedule_price', '2.50');
        await page.fill('#schedule_note', 'weekly offer');
        await settled(page);
        await screenshot(page, `schedule-dialog-${lang}`);
        await dialog(page).getByRole('button', { name: w.save }).click();
        await toast(page, w.added).waitFor();
        const [added] = await changesOf(lang);
        expect(added).toMatchObject({
          status: 'pending',
          localAt: typed.replace(' ', 'T'),
          changes: { price: '2.50' },
        });

        await page.goto('/basemgr/schedule');
        await page.locator('.ant-card-head-title', { hasText: w.heading }).waitFor();
        const row = scheduleRows(page).filter({ hasText: `${prefix}-${lang}` });
        await row.getByText(w.pending).waitFor();
        await row.getByText(typed).waitFor();
        await settled(page);
        await screenshot(page, `schedule-list-${lang}`);

        await row.getByRole('button', { name: w.edit }).click();
        await eventually(() => page.locator('#schedule_price').inputValue()).toBe('2.50');
        await page.fill('#schedule_price', '2.80');
        await dialog(page).getByRole('button', { name: w.save }).click();
        await toast(page, w.saved).waitFor();
        await eventually(async () => (await changesOf(lang))[0]?.changes.price).toBe('2.80');

        await row.getByRole('button', { name: w.cancel }).click();
        await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
        await eventually(async () => (await changesOf(lang))[0]?.status).toBe('cancelled');
        await row.getByText(w.cancelled).waitFor();
        await settled(page);
        await screenshot(page, `schedule-cancelled-${lang}`);
      } catch (err) {
        await screenshot(page, `schedule-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    }, 120_000);

    it('shows each change as a card on a 390 px phone, and cancels it from there', async () => {
      const local = `${dayAhead(3)}T08:15`;
      const added = await api(
        '/mgr/schedule/add',
        { productId: phoneProducts[lang], at: local, changes: { price: '2.75' }, note: 'pear week' },
        token,
      );
      expect(added.code).toBe(0);
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 390, height: 844 } });
      try {
        await login(page, 'admin', { path: '/basemgr/schedule' });
        await waitForShell(page);
        await page.locator('.ant-card-head-title', { hasText: w.heading }).waitFor();
        const row = scheduleRows(page).filter({ hasText: `${prefix}-P-${lang}` });
        await row.waitFor();
        // What the change is, its time and status, and its buttons, all in view without scrolling.
        for (const text of [local.replace('T', ' '), w.pending, w.price, `${prefix} Pear ${lang}`]) {
          const box = await row.getByText(text).first().boundingBox();
          expect(box, text).not.toBeNull();
          expect((box?.x ?? 0) + (box?.width ?? 0), text).toBeLessThanOrEqual(390);
        }
        for (const name of [w.edit, w.cancel]) {
          const box = await row.getByRole('button', { name }).boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(390);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await settled(page);
        await screenshot(page, `schedule-list-${lang}-390`);

        await row.getByRole('button', { name: w.cancel }).click();
        await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
        await eventually(async () => (await changesOf(lang, phoneProducts[lang]))[0]?.status).toBe('cancelled');
        await row.getByText(w.cancelled).waitFor();
      } catch (err) {
        await screenshot(page, `schedule-failed-390-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
