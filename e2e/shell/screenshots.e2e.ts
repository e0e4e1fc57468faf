import { it } from 'vitest';
import {
  chineseFontLoaded,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  useBrowser,
} from '../support/browser';

describeBrowser('shell: screenshots in both languages (e2e/artifacts)', () => {
  const browser = useBrowser();

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`login and dashboard in ${lang}`, async () => {
      const { context, page } = await newPage(browser(), { lang });
      await page.goto('/login');
      await page.locator('[data-testid="login-submit"]').waitFor();
      expect(await page.locator('.login-title h1').textContent()).toBe(
        lang === 'en' ? 'Electronic price tag system' : '电子价签系统',
      );
      if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
      await screenshot(page, `login-${lang}`);

      await login(page, 'admin', { path: '/login' });
      await page.waitForLoadState('networkidle');
      expect(await page.locator('[data-testid="menu-dashboard"]').textContent()).toBe(
        lang === 'en' ? 'Dashboard' : '首页',
      );
      // The demo data has Chinese store names, so the shipped font is needed in English too.
      expect(await chineseFontLoaded(page)).toBe(true);
      await screenshot(page, `dashboard-${lang}`);
      await context.close();
    });
  }

  it('mobile layout with the menu open, in zh-CN', async () => {
    const { context, page } = await newPage(browser(), { lang: 'zh-CN', viewport: { width: 420, height: 800 } });
    await login(page, 'admin');
    await page.click('[data-testid="hamburger"]');
    await page.waitForTimeout(400); // let the slide-in transition finish for the picture
    await screenshot(page, 'mobile-menu-zh-CN');
    await context.close();
  });
});
