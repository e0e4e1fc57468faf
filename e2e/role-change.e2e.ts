import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, it } from 'vitest';
import {
  api,
  describeBrowser,
  expect,
  login,
  newPage,
  openMenu,
  pageToken,
  screenshot,
  settled,
  tabs,
  useBrowser,
} from './support/browser';

/** The acting role the user dropdown shows ('all' = all of my roles); the dropdown is closed again. */
async function actingRole(page: Page): Promise<string | null> {
  await page.click('[data-testid="avatar-menu"]');
  const shown = page.locator('[data-testid="acting-role"]');
  await shown.waitFor();
  const role = await shown.getAttribute('data-role');
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'hidden' });
  return role;
}

/** Picks a role ('all' = all of my roles) in the user dropdown's picker and waits for the dashboard. */
async function switchRole(page: Page, role: string) {
  await page.click('[data-testid="avatar-menu"]');
  await settled(page);
  await page.click('[data-testid="switch-role"]');
  const picker = page.locator('[data-testid="role-switcher"]');
  await picker.waitFor();
  // A click while the picker is still opening can be lost (seen under load).
  await settled(page);
  await picker.locator(`[data-testid="role-option"][data-role="${role}"]`).click();
  await picker.waitFor({ state: 'detached' });
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

describeBrowser('role change (SPEC.md §4)', () => {
  const browser = useBrowser();
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    ({ context, page } = await newPage(browser(), { lang: 'en' }));
  });
  afterEach(async () => {
    await context.close();
  });

  it('acting as a store clerk: derived token, tabs closed, admin pages gone; all my roles restores them', async () => {
    await login(page, 'admin');
    await openMenu(page, 'basemgr', 'station', '/basemgr/station');
    await openMenu(page, 'system', 'users', '/system/index');
    await openMenu(page, 'system', 'conf', '/system/conf');
    expect(await tabs(page)).toEqual(['/dashboard', '/basemgr/station', '/system/index', '/system/conf']);
    expect(await actingRole(page)).toBe('all');
    const adminToken = await pageToken(page);

    // The picker lists all my roles and the five roles, the current choice marked.
    await page.click('[data-testid="avatar-menu"]');
    await page.click('[data-testid="switch-role"]');
    const picker = page.locator('[data-testid="role-switcher"]');
    await picker.waitFor();
    const options = picker.locator('[data-testid="role-option"]');
    expect(await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual([
      'all',
      'admin',
      'editor',
      'manager',
      'clerk',
      'stock',
    ]);
    expect(await options.allTextContents()).toContain('Store clerk');
    expect(await picker.locator('[aria-current="true"]').getAttribute('data-role')).toBe('all');
    await settled(page);
    await screenshot(page, 'role-switch-en');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });

    await switchRole(page, 'clerk');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard']);
    await page.locator('[data-testid="menu-dashboard"]').waitFor();
    expect(await page.locator('[data-testid="menu-system"]').count()).toBe(0);
    expect(await page.locator('[data-testid="menu-logmgr"]').count()).toBe(0);
    // A clerk's own work stays: the tags of the store.
    expect(await page.locator('[data-testid="menu-basemgr"]').count()).toBe(1);
    expect(await actingRole(page)).toBe('clerk');

    // The derived token replaced the old one, which the server now refuses.
    const clerkToken = await pageToken(page);
    expect(clerkToken).toMatch(/^[0-9a-f]{64}$/);
    expect(clerkToken).not.toBe(adminToken);
    expect((await api('/user/info', {}, adminToken)).code).toBe(800);
    const info = await api<{ roles: string[]; role: string }>('/user/info', {}, clerkToken);
    expect(info.data.roles).toEqual(['clerk']);
    expect(info.data.role).toBe('clerk');

    await page.goto('/system/index');
    await page.waitForURL((url) => url.pathname === '/401');
    await page.locator('[data-testid="page-401"]').waitFor();

    await page.goto('/dashboard');
    await page.locator('[data-testid="layout"]').waitFor();
    await switchRole(page, 'all');
    await page.locator('[data-testid="menu-system"]').waitFor();
    expect(await actingRole(page)).toBe('all');
    await openMenu(page, 'system', 'users', '/system/index');
    await page.locator('[data-testid="app-main"] .ant-table').first().waitFor();
    expect(await tabs(page)).toEqual(['/dashboard', '/system/index']);
  });
});

describeBrowser('role picker in Chinese', () => {
  const browser = useBrowser();

  it('writes two-character role names without a space between the characters', async () => {
    const { context, page } = await newPage(browser(), { lang: 'zh-CN' });
    try {
      await login(page, 'admin');
      await page.click('[data-testid="avatar-menu"]');
      await settled(page);
      await page.click('[data-testid="switch-role"]');
      const picker = page.locator('[data-testid="role-switcher"]');
      await picker.waitFor();
      const names = await picker.locator('[data-testid="role-option"]').allTextContents();
      expect(names).toEqual(expect.arrayContaining(['主管', '店长', '店员']));
      await settled(page);
      await screenshot(page, 'role-switch-zh-CN');
    } finally {
      await context.close();
    }
  });
});
