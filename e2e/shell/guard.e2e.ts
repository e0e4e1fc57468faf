import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { describeBrowser, expect, login, newPage, useBrowser } from '../support/browser';

/** The scripts a page downloads until the sign-in form is on the screen. */
async function scriptsUntilLogin(page: Page, path: string): Promise<Set<string>> {
  const scripts = new Set<string>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname);
  });
  await page.goto(path);
  await page.waitForURL((url) => url.pathname === '/login');
  await page.locator('input[name="username"]').waitFor();
  await page.waitForLoadState('networkidle');
  return scripts;
}

describeBrowser('the navigation guard', () => {
  const browser = useBrowser();

  it('decides before any page code loads: a deep link without a session downloads what /login does', async () => {
    const direct = await newPage(browser(), { lang: 'en' });
    const deep = await newPage(browser(), { lang: 'en' });
    try {
      const forLogin = await scriptsUntilLogin(direct.page, '/login');
      const forDeepLink = await scriptsUntilLogin(deep.page, '/basemgr/esl');
      expect(new URL(deep.page.url()).searchParams.get('redirect')).toBe('/basemgr/esl');
      expect([...forDeepLink].filter((s) => !forLogin.has(s))).toEqual([]);
    } finally {
      await direct.context.close();
      await deep.context.close();
    }
  });

  it("sends the next user home, not to a 401, when the previous user's page is closed to them", async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/system/index' });
      await page.waitForURL((url) => url.pathname === '/system/index');
      await page.click('[data-testid="avatar-menu"]');
      await page.click('[data-testid="logout"]');
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/system/index');
      await page.fill('input[name="username"]', 'clerk');
      await page.fill('input[name="password"]', 'demo123');
      await page.click('[data-testid="login-submit"]');
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.locator('[data-testid="layout"]').waitFor();

      // A refused page opened on purpose still answers 401.
      await page.goto('/system/index');
      await page.waitForURL((url) => url.pathname === '/401');
    } finally {
      await context.close();
    }
  });
});
