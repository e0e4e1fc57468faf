import { it } from 'vitest';
import { describeBrowser, expect, login, newPage, screenshot, settled, useBrowser } from './support/browser';

describeBrowser("the platform operator's log (/saadmin/sa/syslog)", () => {
  const browser = useBrowser();

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`shows the platform's own rows from the operator's menu (${lang})`, async () => {
      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'superadmin');
        const menu = page.locator('[data-testid="menu-platformLog"]');
        await expect.poll(() => menu.innerText()).toBe(lang === 'en' ? 'Platform log' : '平台日志');
        await menu.click();
        await page.waitForURL((url) => url.pathname === '/saadmin/sa/syslog');
        // The server wrote its own start into the platform's rows, shown as a word (issue 27 item 1).
        const started = lang === 'en' ? 'Server started' : '服务启动';
        await page.locator('.ant-table-row', { hasText: started }).first().waitFor();
        expect(await page.locator('.ant-table-row', { hasText: 'server.start' }).count()).toBe(0);
        await settled(page);
        await screenshot(page, `platform-log-${lang}`);
      } finally {
        await context.close();
      }
    });
  }

  it('is not in any tenant user’s reach', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin');
      await expect.poll(() => page.locator('[data-testid="menu-platformLog"]').count()).toBe(0);
      await page.goto('/saadmin/sa/syslog');
      await page.waitForURL((url) => url.pathname !== '/saadmin/sa/syslog');
    } finally {
      await context.close();
    }
  });
});
