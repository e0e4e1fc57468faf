import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { appendTagLog } from '../apps/server/src/infra/logs';
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
  delivery: { queued: number; inFlight: number; done24h: number; failed24h: number; p50LatencyS: number | null };
}
interface Row {
  count: number;
}
interface ChangeDay extends Row {
  delivered: number;
  failed: number;
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
    changes: (n: number, delivered: number, failed: number, days: number) =>
      `In ${days} days: screens updated ${thousands(delivered)}, failed ${thousands(failed)}, changes ${thousands(n)}`,
    seconds: (s: number) => `${s.toFixed(1)} s`,
    noTags: 'No tags in this store yet',
  },
  'zh-CN': {
    models: (n: number) => `共 ${thousands(n)} 个价签`,
    stores: (n: number, stores: number) => `${stores} 家门店共 ${thousands(n)} 个价签`,
    changes: (n: number, delivered: number, failed: number, days: number) =>
      `${days} 天内：屏幕已更新 ${thousands(delivered)} 个，失败 ${thousands(failed)} 个，变更 ${thousands(n)} 次`,
    seconds: (s: number) => `${s.toFixed(1)} 秒`,
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
    api<ChangeDay[]>('/sumary/gettagchanglogsatat', { days: 7, utcOffset }, token),
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
    // Screen updates the tag log holds for that store: today and yesterday, done and failed.
    const info = await api<{ curshop: { id: number } | null }>('/user/info', {}, token);
    const database = openDatabase(inject('databaseUrl'));
    try {
      const store = await database.db
        .selectFrom('stores')
        .select(['id', 'tenant_id'])
        .where('id', '=', info.data.curshop?.id ?? 0)
        .executeTakeFirstOrThrow();
      const now = Date.now();
      const row = (i: number, result: 'ok' | 'failed', finishedAt: number, tookS: number) => ({
        tenantId: store.tenant_id,
        storeId: store.id,
        tagId: 800_000 + i,
        hardwareId: `DA5H${suffix}${i}`.slice(0, 16).toUpperCase(),
        kind: 'refresh',
        rev: 1,
        result,
        code: result === 'failed' ? 'timeout' : null,
        queuedAt: finishedAt - tookS * 1000,
        finishedAt,
      });
      await appendTagLog(database.db, [
        row(1, 'ok', now - 60_000, 12),
        row(2, 'ok', now - 120_000, 18),
        row(3, 'ok', now - 180_000, 30),
        row(4, 'failed', now - 240_000, 600),
        row(5, 'ok', now - 86_400_000, 20),
      ]);
    } finally {
      await database.close();
    }
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
        const delivered = a.changes.reduce((n, d) => n + d.delivered, 0);
        const failed = a.changes.reduce((n, d) => n + d.failed, 0);
        expect(delivered).toBeGreaterThan(0);
        expect(a.shop.delivery.p50LatencyS).not.toBeNull();
        expect(await text(page, 'total-tagChangeStat')).toBe(words.changes(sum(a.changes), delivered, failed, 7));
        // The delivery figures of the store, as the server counts them.
        const d = a.shop.delivery;
        expect(await text(page, 'figure-queued')).toBe(thousands(d.queued));
        expect(await text(page, 'figure-inFlight')).toBe(thousands(d.inFlight));
        expect(await text(page, 'figure-done24h')).toBe(thousands(d.done24h));
        expect(await text(page, 'figure-failed24h')).toBe(thousands(d.failed24h));
        expect(await text(page, 'figure-p50')).toBe(d.p50LatencyS === null ? '—' : words.seconds(d.p50LatencyS));
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
          .toMatch(lang === 'en' ? /^In 30 days: / : /^30 天内：/);
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
