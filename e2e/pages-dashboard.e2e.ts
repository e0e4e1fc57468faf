import { beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  expect,
  login,
  newPage,
  screenshot,
  useBrowser,
  waitForShell,
} from './support/browser';

describeBrowser('dashboard (/dashboard)', () => {
  const browser = useBrowser();
  let token = '';

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  it('shows what exists on the dashboard and says the tag statistics are not available yet, without an error', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/dashboard' });
      await waitForShell(page);
      for (const call of ['shopStatic', 'tagModelDistribution', 'tagShopDistribution', 'tagChangeStat']) {
        await page.locator(`[data-testid="stat-${call}-pending"]`).waitFor();
      }
      expect(await page.getByText('This statistic arrives in a later version').count()).toBe(4);
      // The expected "not available yet" answers raise no error message.
      expect(await page.locator('.ant-message-notice').count()).toBe(0);
      const stores = await api('/mgr/station/list', { page: 1, limit: 1 }, token);
      const storeCard = page.locator('.ant-card', { hasText: 'Stores' }).first();
      await expect.poll(() => storeCard.textContent()).toContain(String(stores.count));
    } finally {
      await context.close();
    }
  });

  it('draws a statistic with echarts once its call answers', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      // Stands in for the tags module: these two statistics answer, the other two still do not.
      await page.route('**/api/sumary/gettagmodeldistribution', (route) =>
        route.fulfill({
          json: {
            code: 0,
            msg: '',
            data: [
              { name: '2.13L', value: 12 },
              { name: '4.20T', value: 3 },
            ],
          },
        }),
      );
      await page.route('**/api/sumary/getshopstatic', (route) =>
        route.fulfill({ json: { code: 0, msg: '', data: { online: 10, offline: 2 } } }),
      );
      await login(page, 'admin', { path: '/dashboard' });
      await waitForShell(page);
      for (const title of ['Tags by model', 'Store overview']) {
        const panel = page.locator('.ant-card', { hasText: title });
        await panel.locator('canvas').first().waitFor();
        expect(await panel.getByText('This statistic arrives in a later version').count()).toBe(0);
      }
      await page.locator('[data-testid="stat-tagShopDistribution-pending"]').waitFor();
      await page.locator('[data-testid="stat-tagChangeStat-pending"]').waitFor();
      await screenshot(page, 'dashboard-stats-en');
    } finally {
      await context.close();
    }
  });
});
