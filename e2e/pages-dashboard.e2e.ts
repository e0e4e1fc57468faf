import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  pageToken,
  screenshot,
  switchStore,
  useBrowser,
  waitForShell,
} from './support/browser';

interface ShopStatic {
  store: { id: number; name: string };
  stations: { total: number; online: number };
  tags: { total: number; bound: number };
  products: number;
}
interface Row {
  count: number;
}
interface TagRow {
  hardwareId: string;
  product: { barcode: string } | null;
}

const CHARTS = ['shopStatic', 'tagModelDistribution', 'tagShopDistribution', 'tagChangeStat'];
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const sum = (rows: Row[]) => rows.reduce((n, r) => n + r.count, 0);

/** What the panels say, as dashboard.json words it. */
const TEXTS = {
  en: {
    models: (n: number) => `Tags in total: ${thousands(n)}`,
    stores: (n: number, stores: number) => `Stores: ${stores}, tags in total: ${thousands(n)}`,
    changes: (n: number, days: number) => `Changes in ${days} days: ${thousands(n)}`,
    noTags: 'No tags in this store yet',
  },
  'zh-CN': {
    models: (n: number) => `共 ${thousands(n)} 个价签`,
    stores: (n: number, stores: number) => `${stores} 家门店共 ${thousands(n)} 个价签`,
    changes: (n: number, days: number) => `${days} 天内共 ${thousands(n)} 次变更`,
    noTags: '该门店暂无价签',
  },
} as const;

const suffix = Date.now().toString(36);
const emptyStoreName = `E2E Empty ${suffix}`;

const text = async (page: Page, testId: string) =>
  ((await page.locator(`[data-testid="${testId}"]`).textContent()) ?? '').trim();

/** The page's own session asks the same questions the dashboard asked. */
async function answers(page: Page) {
  const token = await pageToken(page);
  const utcOffset = await page.evaluate(() => -new Date().getTimezoneOffset());
  const [shop, models, stores, changes] = await Promise.all([
    api<ShopStatic>('/sumary/getshopstatic', {}, token),
    api<Row[]>('/sumary/gettagmodeldistribution', {}, token),
    api<Row[]>('/sumary/gettagshopdistribution', {}, token),
    api<Row[]>('/sumary/gettagchanglogsatat', { days: 7, utcOffset }, token),
  ]);
  for (const a of [shop, models, stores, changes]) expect(a.code, a.msg).toBe(0);
  return { shop: shop.data, models: models.data, stores: stores.data, changes: changes.data };
}

describeBrowser('dashboard (/dashboard)', () => {
  const browser = useBrowser();
  let token = '';

  beforeAll(async () => {
    token = await apiLogin('admin');
    // One change today in the admin's current store (the first demo store) that changes no data:
    // a bound tag bound again to the product it shows.
    const bound = await api<TagRow[]>('/mgr/tag/list', { page: 1, limit: 1, bound: true }, token);
    const tag = bound.data[0];
    expect(tag?.product).toBeTruthy();
    const bind = await api('/mgr/tag/bindesl', { hardwareId: tag.hardwareId, barcode: tag.product?.barcode }, token);
    expect(bind.code, bind.msg).toBe(0);
  });

  afterAll(async () => {
    const list = await api<{ id: number; name: string }[]>('/mgr/station/list', { page: 1, limit: 2000 }, token);
    const left = list.data.find((s) => s.name === emptyStoreName);
    if (left) await api('/mgr/station/delete', { ids: [left.id] }, token);
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`draws the four statistics of the demo data with the server's numbers, in ${lang}`, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1366, height: 1500 } });
      try {
        await login(page, 'admin', { path: '/dashboard' });
        await waitForShell(page);
        for (const call of CHARTS) await page.locator(`[data-testid="chart-${call}"] canvas`).first().waitFor();
        const a = await answers(page);
        const words = TEXTS[lang];
        expect(a.shop.tags.total).toBeGreaterThan(0);
        expect(await text(page, 'figure-tags')).toBe(thousands(a.shop.tags.total));
        expect(await text(page, 'figure-bound')).toBe(thousands(a.shop.tags.bound));
        expect(await text(page, 'figure-products')).toBe(thousands(a.shop.products));
        expect(await text(page, 'figure-stations')).toBe(
          `${thousands(a.shop.stations.online)} / ${thousands(a.shop.stations.total)}`,
        );
        expect(await text(page, 'total-tagModelDistribution')).toBe(words.models(sum(a.models)));
        expect(await text(page, 'total-tagShopDistribution')).toBe(words.stores(sum(a.stores), a.stores.length));
        expect(sum(a.changes)).toBeGreaterThan(0);
        expect(await text(page, 'total-tagChangeStat')).toBe(words.changes(sum(a.changes), 7));
        // Every statistic answered: no error message and no panel saying it failed.
        expect(await page.locator('.ant-message-notice').count()).toBe(0);
        expect(await page.locator('[data-testid$="-failed"]').count()).toBe(0);
        // The other figures of the dashboard are still there.
        const stores = await api('/mgr/station/list', { page: 1, limit: 1 }, token);
        const storeCard = page.locator('.ant-card', { hasText: lang === 'en' ? 'Stores' : '门店数' }).first();
        await expect.poll(() => storeCard.textContent()).toContain(String(stores.count));
        await screenshot(page, `dashboard-stats-${lang}`);

        // A longer range asks again and draws as many days.
        await page
          .locator('[data-testid="change-days"]')
          .getByText(lang === 'en' ? '30 days' : '30 天')
          .click();
        await expect
          .poll(() => text(page, 'total-tagChangeStat'))
          .toMatch(lang === 'en' ? /^Changes in 30 days: / : /^30 天内共 /);
      } finally {
        await context.close();
      }
    });
  }

  it('asks again when the store is switched, and says a store without tags has none', async () => {
    // A retry of this test finds the first attempt's store already there: reuse it.
    const existing = (
      await api<{ id: number; name: string }[]>('/mgr/station/list', { page: 1, limit: 2000 }, token)
    ).data.find((st) => st.name === emptyStoreName);
    if (!existing) {
      const added = await api<{ id: number }>(
        '/mgr/station/add',
        { name: emptyStoreName, code: `E${suffix}`.toUpperCase() },
        token,
      );
      expect(added.code, added.msg).toBe(0);
    }
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: { width: 1366, height: 1500 } });
    try {
      await login(page, 'admin', { path: '/dashboard' });
      await waitForShell(page);
      await page.locator('[data-testid="chart-tagModelDistribution"] canvas').first().waitFor();
      expect(await text(page, 'figure-tags')).not.toBe('0');

      await switchStore(page, (options) => options.filter({ hasText: emptyStoreName }));
      await page.locator('[data-testid="store-name"]', { hasText: emptyStoreName }).waitFor();

      await page.locator('[data-testid="stat-tagModelDistribution-empty"]').waitFor();
      await page.locator('[data-testid="stat-shopStatic-empty"]').waitFor();
      await page.locator('[data-testid="stat-tagChangeStat-empty"]').waitFor();
      expect(await text(page, 'figure-tags')).toBe('0');
      expect(await page.getByText(TEXTS.en.noTags).count()).toBe(2);
      // The other stores still have tags.
      await page.locator('[data-testid="chart-tagShopDistribution"] canvas').first().waitFor();
      const a = await answers(page);
      expect(a.shop.store.name).toBe(emptyStoreName);
      expect(await text(page, 'total-tagShopDistribution')).toBe(TEXTS.en.stores(sum(a.stores), a.stores.length));
      await screenshot(page, 'dashboard-empty-store-en');
    } finally {
      await context.close();
    }
  });
});
