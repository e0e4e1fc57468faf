import jsQR from 'jsqr';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, it } from 'vitest';
import {
  api,
  describeBrowser,
  expect,
  login,
  newPage,
  openMenu as openMenuAt,
  pageToken,
  screenshot,
  settled,
  switchStore,
  tabs,
  useBrowser,
} from '../support/browser';

const PATHS: Record<string, string> = {
  station: '/basemgr/station',
  users: '/system/index',
  conf: '/system/conf',
};
/** Opens a page from the sidebar and waits until it is shown. */
const openMenu = (page: Page, group: string, item: string) => openMenuAt(page, group, item, PATHS[item]);
const message = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

describeBrowser('shell: layout and header tools', () => {
  const browser = useBrowser();
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    ({ context, page } = await newPage(browser(), { lang: 'en' }));
  });
  afterEach(async () => {
    await context.close();
  });

  it('adds one tab per visited path, with the dashboard affixed', async () => {
    await login(page, 'admin');
    await openMenu(page, 'basemgr', 'station');
    await openMenu(page, 'system', 'users');
    await openMenu(page, 'basemgr', 'station');
    expect(await tabs(page)).toEqual(['/dashboard', '/basemgr/station', '/system/index']);
    expect(await page.locator('[data-testid="tag"][data-path="/dashboard"] [data-testid="tag-close"]').count()).toBe(0);
  });

  it('context menu: Refresh remounts the view and keeps the path', async () => {
    await login(page, 'admin');
    await openMenu(page, 'system', 'users');
    await page.locator('[data-testid="app-main"] .ant-table').first().waitFor();
    await page.evaluate(() => {
      document.querySelector('[data-testid="app-main"] > *')?.setAttribute('data-marker', 'before-refresh');
    });
    await page.click('[data-testid="tag"][data-path="/system/index"]', { button: 'right' });
    await page.click('[data-testid="tags-refresh"]');
    await page.locator('[data-marker="before-refresh"]').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/system/index');
    await page.locator('[data-testid="app-main"] .ant-table').first().waitFor();
    expect(await tabs(page)).toEqual(['/dashboard', '/system/index']);
  });

  it('context menu: Close closes the tab and moves to the last one; affixed tabs offer no Close', async () => {
    await login(page, 'admin');
    await openMenu(page, 'basemgr', 'station');
    await openMenu(page, 'system', 'users');
    await page.click('[data-testid="tag"][data-path="/system/index"]', { button: 'right' });
    await page.click('[data-testid="tags-close"]');
    await page.waitForURL((url) => url.pathname === '/basemgr/station');
    expect(await tabs(page)).toEqual(['/dashboard', '/basemgr/station']);
    await page.click('[data-testid="tag"][data-path="/dashboard"]', { button: 'right' });
    await page.locator('[data-testid="tags-menu"]').waitFor();
    expect(await page.locator('[data-testid="tags-close"]').count()).toBe(0);
  });

  it('context menu: Close Others keeps the affixed tab and the chosen one, and opens it', async () => {
    await login(page, 'admin');
    await openMenu(page, 'basemgr', 'station');
    await openMenu(page, 'system', 'users');
    await openMenu(page, 'system', 'conf');
    await page.click('[data-testid="tag"][data-path="/basemgr/station"]', { button: 'right' });
    await page.click('[data-testid="tags-close-others"]');
    await page.waitForURL((url) => url.pathname === '/basemgr/station');
    expect(await tabs(page)).toEqual(['/dashboard', '/basemgr/station']);
  });

  it('context menu: Close All keeps only the affixed tab and goes there', async () => {
    await login(page, 'admin');
    await openMenu(page, 'basemgr', 'station');
    await openMenu(page, 'system', 'users');
    await page.click('[data-testid="tag"][data-path="/system/index"]', { button: 'right' });
    await page.click('[data-testid="tags-close-all"]');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await tabs(page)).toEqual(['/dashboard']);
  });

  it('header search finds a page fuzzily and opens it', async () => {
    await login(page, 'admin');
    await page.click('[data-testid="header-search"]');
    await page.keyboard.type('operaton');
    const option = page.locator('.ant-select-item-option').filter({ hasText: 'Logs > Operation log' });
    await option.waitFor();
    await option.click();
    await page.waitForURL((url) => url.pathname === '/logmgr/op');
  });

  it('switches the store: the server keeps it, the name changes and the view reloads', async () => {
    await login(page, 'admin');
    await openMenu(page, 'system', 'users');
    const before = (await page.locator('[data-testid="store-name"]').textContent())?.trim();
    await page.evaluate(() => {
      document.querySelector('[data-testid="app-main"] > *')?.setAttribute('data-marker', 'before-switch');
    });
    const otherName = await switchStore(page, (options) => options.filter({ hasNotText: before ?? '' }).first());
    await page
      .locator('[data-testid="store-name"]')
      .filter({ hasText: otherName ?? '' })
      .waitFor();
    expect(otherName).toBeTruthy();
    expect(otherName).not.toBe(before);
    // The view reloads: the marked page goes away and comes back at the same path.
    await page.locator('[data-marker="before-switch"]').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/system/index');
    const info = await api<{ curshop: { name: string } | null }>('/user/info', {}, await pageToken(page));
    expect(info.data.curshop?.name).toBe(otherName);
  });

  it('switches size: four densities, kept in a cookie, with the Size switched message', async () => {
    await login(page, 'admin');
    await openMenu(page, 'system', 'users');
    // The page's first button (its filter's Search) shows the density.
    const control = () => page.locator('[data-testid="app-main"] .ant-btn').first();
    await control().waitFor();
    const cookie = async () => (await context.cookies()).find((c) => c.name === 'size')?.value;
    const heights: Record<string, number> = {};
    heights.medium = (await control().boundingBox())?.height ?? 0;
    expect(await cookie()).toBeUndefined();
    for (const size of ['mini', 'small', 'default', 'medium']) {
      await page.click('[data-testid="size-select"]');
      await page.click(`[data-testid="size-${size}"]`);
      await message(page, 'Size switched').waitFor();
      await page.waitForURL((url) => url.pathname === '/system/index');
      await control().waitFor();
      heights[size] = (await control().boundingBox())?.height ?? 0;
      expect(await cookie()).toBe(size);
    }
    expect(heights.default).toBeGreaterThan(heights.medium);
    expect(heights.medium).toBeGreaterThan(heights.small);
    expect(heights.small).toBeGreaterThan(heights.mini);
    await page.reload();
    await page.click('[data-testid="size-select"]');
    expect(await page.locator('.ant-dropdown-menu-item-selected').textContent()).toBe('Medium');
  });

  it('switches language: stored in change-language and the page reloads in the new language', async () => {
    const zh = await newPage(browser(), { lang: 'zh-CN' });
    await login(zh.page, 'admin');
    expect(await zh.page.locator('[data-testid="menu-dashboard"]').textContent()).toBe('首页');
    await zh.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await zh.page.click('[data-testid="lang-select"]');
    await zh.page.click('[data-testid="lang-en"]');
    await zh.page.waitForFunction(() => !(window as unknown as { notReloaded?: boolean }).notReloaded);
    await zh.page.locator('[data-testid="menu-dashboard"]').filter({ hasText: 'Dashboard' }).waitFor();
    expect(await zh.page.evaluate(() => localStorage.getItem('change-language'))).toBe('en');
    expect(await zh.page.title()).toBe('Dashboard - 演示零售有限公司 Demo Retail Ltd. - Electronic price tag system');
    await zh.context.close();
  });

  it('warns when fullscreen is not supported', async () => {
    await context.addInitScript(() => {
      Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false });
    });
    await login(page, 'admin');
    await page.click('[data-testid="screenfull"]');
    await message(page, 'Your browser cannot show full screen').waitFor();
  });

  it('keeps the sidebar state in cookie sidebarStatus', async () => {
    await login(page, 'admin');
    const layout = page.locator('[data-testid="layout"]');
    expect(await layout.getAttribute('data-sidebar')).toBe('open');
    expect((await page.locator('[data-testid="sidebar"]').boundingBox())?.width).toBe(210);
    await page.click('[data-testid="hamburger"]');
    expect(await layout.getAttribute('data-sidebar')).toBe('closed');
    expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await page.reload();
    expect(await page.locator('[data-testid="layout"]').getAttribute('data-sidebar')).toBe('closed');
    await page.click('[data-testid="hamburger"]');
    expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
  });

  it('keeps the theme colour in localStorage', async () => {
    await login(page, 'admin');
    await page.click('[data-testid="settings-open"]');
    await page.click('[data-testid="theme-picker"]');
    await page
      .locator('.ant-color-picker-presets-color[aria-label="#f5222d"], .ant-color-picker-presets-color')
      .nth(7)
      .click();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => localStorage.getItem('theme-colour') === '#f5222d');
    await page.reload();
    const bg = await page.locator('[data-testid="tag"].active').evaluate((el) => getComputedStyle(el).backgroundColor);
    // Drawn in the chosen colour's shade that reads at 4.5:1 with white text (#d01d26 for
    // #f5222d, platform/theme.ts); the stored choice stays the preset.
    expect(bg).toBe('rgb(208, 29, 38)');
  });

  it('collects window errors in the error log (production build)', async () => {
    await login(page, 'admin');
    expect(await page.locator('[data-testid="error-log"]').count()).toBe(0);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom from the e2e test');
      });
      void Promise.reject(new Error('rejected in the e2e test'));
    });
    await page.click('[data-testid="error-log"]');
    await page.locator('.ant-modal').getByText('boom from the e2e test').first().waitFor();
    await page.locator('.ant-modal').getByText('rejected in the e2e test').first().waitFor();
  });

  it('is in mobile mode below 992 px, with the sidebar closed', async () => {
    const phone = await newPage(browser(), { lang: 'en', viewport: { width: 991, height: 800 } });
    await login(phone.page, 'admin');
    const layout = phone.page.locator('[data-testid="layout"]');
    expect(await layout.getAttribute('data-device')).toBe('mobile');
    expect(await layout.getAttribute('data-sidebar')).toBe('closed');
    await phone.page.click('[data-testid="hamburger"]');
    await phone.page.locator('[data-testid="drawer-bg"]').click({ position: { x: 900, y: 400 } });
    expect(await layout.getAttribute('data-sidebar')).toBe('closed');
    await phone.page.setViewportSize({ width: 992, height: 800 });
    await phone.page.waitForFunction(
      () => document.querySelector('[data-testid="layout"]')?.getAttribute('data-device') === 'desktop',
    );
    await phone.context.close();
  });

  it('PDA configuration: a 160×160 QR code of the handheld page’s address (tenant and store as hints), drawn after 500 ms', async () => {
    await login(page, 'admin');
    await page.click('[data-testid="pda-open"]');
    const qr = page.locator('[data-testid="pda-qr"]');
    await qr.waitFor({ state: 'attached' });
    expect(await qr.getAttribute('data-state')).toBe('loading');
    await page.locator('[data-testid="pda-qr"][data-state="ready"]').waitFor();
    const { width, height, pixels } = await qr.evaluate((el) => {
      const canvas = el as HTMLCanvasElement;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      return { width: canvas.width, height: canvas.height, pixels: Array.from(data) };
    });
    expect([width, height]).toEqual([160, 160]);
    const code = jsQR(Uint8ClampedArray.from(pixels), width, height);
    const url = new URL(code?.data ?? 'about:blank');
    expect(url.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url.pathname).toBe('/pda/');
    const info = (
      await api<{ tenant: { id: number }; curshop: { id: number } }>('/user/info', {}, await pageToken(page))
    ).data;
    expect(url.searchParams.get('tenant')).toBe(String(info.tenant.id));
    expect(url.searchParams.get('store')).toBe(String(info.curshop.id));
    expect(await page.getByTestId('pda-url').textContent()).toBe(url.toString());
    await settled(page);
    await screenshot(page, 'layout-pda-qr');
    // The address opens the handheld page.
    const res = await fetch(url);
    expect(await res.text()).toContain('id="pda"');
  });
});
