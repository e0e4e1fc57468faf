import { beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  chineseWithoutFont,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

describeBrowser('log pages (/logmgr/op, /logmgr/sys)', () => {
  const browser = useBrowser();
  const remark = `e2e-log-${Date.now().toString(36)}`;

  beforeAll(async () => {
    const token = await apiLogin('admin');
    const stores = await api<{ id: number }[]>('/mgr/station/list', { page: 1, limit: 1 }, token);
    // One successful and one refused change, both written to the operation log.
    expect((await api('/mgr/station/alert', { id: stores.data[0].id, remark }, token)).code).toBe(0);
    const clerk = await apiLogin('clerk');
    expect((await api('/mgr/station/alert', { id: stores.data[0].id, remark }, clerk)).code).toBe(1003);
  });

  it('lists operations with their result and filters them by user', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/logmgr/op' });
      await waitForShell(page);
      const ok = page.locator('.ant-table-row', { hasText: 'Update a store' }).filter({ hasText: 'admin' });
      await ok.first().waitFor();
      expect(await ok.first().textContent()).toContain('Success');
      // The operation and its target in words, never the API path.
      expect(await page.locator('.ant-table-tbody').textContent()).not.toContain('/mgr/');

      await page.fill('#opLogFilter_username', 'clerk');
      await page.locator('form#opLogFilter').getByRole('button', { name: 'Search' }).click();
      const refused = page.locator('.ant-table-row', { hasText: 'clerk' }).first();
      await refused.waitFor();
      expect(await refused.textContent()).toContain('Failed (1003)');
      await expect
        .poll(async () => {
          const names = await page.locator('.ant-table-row td:nth-child(2)').allTextContents();
          return names.length > 0 && names.every((n) => n === 'clerk');
        })
        .toBe(true);

      await page.fill('#opLogFilter_username', 'nobody-at-all');
      await page.locator('form#opLogFilter').getByRole('button', { name: 'Search' }).click();
      await page.getByText('No log entries').waitFor();

      await page.goto('/logmgr/sys');
      await page.locator('.ant-card-head-title', { hasText: 'System log' }).waitFor();
      await page.locator('form#sysLogFilter').waitFor();
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`gives a store manager the system log of their own store, each row with its store (${lang})`, async () => {
      const token = await apiLogin('manager');
      const info = await api<{ shop: { id: number; name: string }[] }>('/user/info', {}, token);
      const mine = info.data.shop.map((s) => s.name);
      expect(mine.length).toBe(1);
      // The demo's simulated stations wrote their connections; the manager's store has some.
      const rows = await api<{ storeName: string; event: string }[]>('/log/taglog/syslist', { limit: 100 }, token);
      expect(rows.code, rows.msg).toBe(0);
      // Their store's rows, and of the rows of no store only their own sign-ins.
      expect(rows.data.some((r) => r.storeName === mine[0])).toBe(true);
      expect(rows.data.every((r) => r.storeName === mine[0] || (r.storeName === '' && r.event === 'login'))).toBe(true);

      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'manager', { path: '/logmgr/sys' });
        await waitForShell(page);
        await page.locator('.ant-table-row').first().waitFor();
        const stores = await page.locator('.ant-table-row td:nth-child(4)').allTextContents();
        expect(stores.length).toBeGreaterThan(0);
        expect(stores.every((name) => name === mine[0] || name === '—')).toBe(true);
        // The store filter offers the manager's store only.
        await page.locator('#sysLogFilter_storeId').click();
        const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
        await options.first().waitFor();
        expect(await options.allTextContents()).toEqual(mine);
        await page.keyboard.press('Escape');
        await settled(page);
        await screenshot(page, `syslog-manager-${lang}`);
      } finally {
        await context.close();
      }
    });
  }

  it('shows the date picker in Chinese when the console is in Chinese', async () => {
    const { context, page } = await newPage(browser(), { lang: 'zh-CN' });
    try {
      await login(page, 'admin', { path: '/logmgr/op' });
      await waitForShell(page);
      const row = page.locator('.ant-table-row', { hasText: '修改门店' }).filter({ hasText: 'admin' }).first();
      await row.waitFor();
      expect(await row.textContent()).toMatch(/门店 \S/);
      await page.locator('form#opLogFilter .ant-picker').first().click();
      const panel = page.locator('.ant-picker-dropdown:visible');
      await panel.waitFor();
      const header = (await panel.locator('.ant-picker-header-view').first().textContent()) ?? '';
      const weekdays = (await panel.locator('thead').first().textContent()) ?? '';
      expect(header).toMatch(/\d{4}年/);
      expect(weekdays).toContain('一');
      expect(weekdays).not.toMatch(/Mo|Tu|We/);
      // The panel's year and month are buttons: they drew boxes in the browser's own button font.
      expect(await chineseWithoutFont(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
