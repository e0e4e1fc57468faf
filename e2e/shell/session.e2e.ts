import type { Page } from 'playwright-core';
import { afterEach, beforeEach, it } from 'vitest';
import {
  api,
  apiLogin,
  baseUrl,
  describeBrowser,
  expect,
  login,
  newPage,
  pageToken,
  pathOf,
  useBrowser,
} from '../support/browser';

const title = (page: Page) => page.title();

/**
 * After the session is revoked, acts in the page (opens the store switcher) so a call answers 800,
 * and returns the expiry box. A background call (a refetch) may have opened it already: then the
 * box covers the page and is taken as it is.
 */
async function expiryBox(page: Page) {
  const box = page.locator('.ant-modal-confirm').first();
  if (!(await box.isVisible()))
    await page.click('[data-testid="store-name"]', { timeout: 5000 }).catch(() => undefined);
  await box.waitFor();
  return box;
}

describeBrowser('shell: sessions and the navigation guard', () => {
  const browser = useBrowser();
  let close: () => Promise<void>;
  let page: Page;

  beforeEach(async () => {
    const opened = await newPage(browser(), { lang: 'en' });
    page = opened.page;
    close = () => opened.context.close();
  });
  afterEach(async () => {
    await close();
  });

  it('signs in through the login page and lands on the dashboard, titled by route, company and product', async () => {
    await login(page, '  admin  ');
    expect(pathOf(page)).toBe('/dashboard');
    expect(await pageToken(page)).toMatch(/.{20,}/);
    await expect
      .poll(() => title(page))
      .toBe('Dashboard - 演示零售有限公司 Demo Retail Ltd. - Electronic price tag system');
    await page.locator('[data-testid="tag"][data-path="/dashboard"]').waitFor();
  });

  it('refuses a wrong password and stays on /login with the server message', async () => {
    await page.goto('/login');
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', 'not-the-password');
    await page.click('[data-testid="login-submit"]');
    await page.locator('.ant-message-notice').first().waitFor();
    expect(pathOf(page)).toBe('/login');
    expect(await pageToken(page)).toBeUndefined();
  });

  // Issue 26 item 4: a throttled sign-in answers HTTP 429 with Retry-After beside the envelope
  // (the server's side is in apps/server session.test.ts); the console must show its message, not
  // "HTTP 429". The answer is made here so the shared test server's throttle is left alone.
  it('shows the server message of a throttled sign-in (HTTP 429 with the envelope)', async () => {
    const msg = 'Too many failed attempts, try again in 42 seconds';
    await page.route('**/api/user/login', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '42' },
        contentType: 'application/json',
        body: JSON.stringify({ code: 1005, msg, data: null }),
      }),
    );
    await page.goto('/login');
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', 'demo123');
    await page.click('[data-testid="login-submit"]');
    await page.locator('.ant-message-notice').getByText(msg).waitFor();
    expect((await page.locator('.ant-message-notice').allInnerTexts()).join(' ')).not.toMatch(/HTTP 429/);
    expect(pathOf(page)).toBe('/login');
    expect(await pageToken(page)).toBeUndefined();
  });

  it('asks for the username and password before calling the server', async () => {
    await page.goto('/login');
    await page.click('[data-testid="login-submit"]');
    await page.getByText('Username cannot be empty').waitFor();
    await page.getByText('Password cannot be empty').waitFor();
  });

  it('sends a guest to /login with the wanted path as redirect, and there after signing in', async () => {
    await page.goto('/basemgr/station?name=x');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/basemgr/station?name=x');
    await expect.poll(() => title(page)).toBe('Login - Electronic price tag system');
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', 'demo123');
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((url) => url.pathname === '/basemgr/station');
    expect(pathOf(page)).toBe('/basemgr/station?name=x');
  });

  it('lets a guest reach only /login and /auth-redirect', async () => {
    for (const path of ['/404', '/401', '/dashboard', '/saadmin/sa/adm', '/no/such/page']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
    }
    await page.goto('/auth-redirect');
    // Opened directly (not as a sign-in popup) it hands over to the login page.
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it('sends a signed-in user from /login to the root, and the root to the dashboard', async () => {
    await login(page, 'admin');
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  it('clears a token the server refuses, says why, and goes to /login', async () => {
    await page.context().addCookies([{ name: 'ESL-Token', value: 'not-a-real-token', url: baseUrl() }]);
    await page.goto('/system/index');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/system/index');
    await page.locator('.ant-message-notice').first().waitFor();
    expect(await pageToken(page)).toBeUndefined();
  });

  it('sends unknown paths to /404', async () => {
    await login(page, 'admin');
    await page.goto('/basemgr/nothing-here');
    await page.waitForURL((url) => url.pathname === '/404');
    await page.locator('[data-testid="page-404"]').waitFor();
  });

  it('logs out: token revoked on the server and gone from the browser', async () => {
    await login(page, 'admin');
    const token = await pageToken(page);
    await page.click('[data-testid="avatar-menu"]');
    await page.click('[data-testid="logout"]');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await pageToken(page)).toBeUndefined();
    const after = await api('/user/info', {}, token);
    expect(after.code).toBe(800);
  });

  it('handles code 800: the Chinese expiry box, then re-login clears the token and reloads', async () => {
    await login(page, 'admin');
    const token = await pageToken(page);
    expect(token).toBeTruthy();
    // Revoke the session on the server, then act in the page.
    expect((await api('/user/logout', {}, token)).code).toBe(0);
    const box = await expiryBox(page);
    expect(await box.textContent()).toContain('已过期！请重新登录');
    expect(await box.textContent()).toContain('Already expired! Please log in again');
    await box.getByRole('button', { name: 'Re-login' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await pageToken(page)).toBeUndefined();
  });

  it('code 800 cancel closes the box and stays on the page', async () => {
    await login(page, 'admin');
    await api('/user/logout', {}, await pageToken(page));
    const box = await expiryBox(page);
    await box.getByRole('button', { name: 'Cancel' }).click();
    await box.waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe('/dashboard');
  });
});

describeBrowser('shell: roles', () => {
  const browser = useBrowser();

  it('refuses tenant management to a tenant administrator with /401', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await login(page, 'admin');
    await page.goto('/saadmin/sa/adm');
    await page.waitForURL((url) => url.pathname === '/401');
    await page.getByText('you do not have permission to access this page').waitFor();
    await context.close();
  });

  it("gives the platform operator tenant management as home, and nothing of a tenant's", async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await login(page, 'superadmin');
    expect(pathOf(page)).toBe('/saadmin/sa/adm');
    expect(await page.title()).toBe('Tenant management - Electronic price tag system');
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/401');
    await context.close();
  });

  it("shows a supervisor the pages of their permissions and refuses the administrator's", async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    await login(page, 'editor');
    const items = await page.locator('[data-testid="sidebar"] [data-testid^="menu-"]').allTextContents();
    expect(items).toEqual(['Dashboard', 'Business', 'Logs', 'Templates']);
    for (const path of ['/system/index', '/system/conf']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/401');
    }
    await page.goto('/system/setme');
    await page.locator('#profile_name').waitFor();
    await context.close();
  });

  it('a token from the API works in the browser (cookie ESL-Token)', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    const token = await apiLogin('clerk');
    await context.addCookies([{ name: 'ESL-Token', value: token, url: baseUrl() }]);
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await context.close();
  });
});
