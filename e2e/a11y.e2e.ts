import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { seriousViolations, structureViolations } from './support/axe';
import {
  api,
  apiLogin,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/**
 * Every screen of the console, in both languages, has no serious or critical WCAG 2.1 AA
 * violation by axe-core, one main landmark and one first-level heading (issue: 90 contrast
 * failures on the tags page, focusable elements inside aria-hidden rows, no main or h1).
 */
const PATHS = [
  '/dashboard',
  '/basemgr/station',
  '/basemgr/ap',
  '/basemgr/esl',
  '/basemgr/product',
  '/logmgr/sys',
  '/logmgr/esl',
  '/logmgr/op',
  '/logmgr/push',
  '/tmpl/index',
  '/system/index',
  '/system/conf',
  '/system/setme',
];

async function audit(page: Page, found: Record<string, unknown>): Promise<void> {
  // Audit the page as loaded, not a table still under its half-transparent loading veil.
  await page.waitForFunction(() => document.querySelector('.ant-spin-spinning, .ant-spin-blur') === null);
  await settled(page);
  const path = new URL(page.url()).pathname;
  const violations = await seriousViolations(page);
  const structure = await structureViolations(page);
  if (violations.length > 0) found[`${path} axe`] = violations;
  if (structure.length > 0) found[`${path} structure`] = structure;
}

/** Presses Tab until the element matching `selector` has the focus; false when it never does. */
async function tabTo(page: Page, selector: string, limit = 120): Promise<boolean> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

describeBrowser('accessibility: axe-core finds no serious violation on any screen', () => {
  const browser = useBrowser();

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`every screen and the label editor, in ${lang}`, { timeout: 300_000 }, async () => {
      const token = await apiLogin('admin');
      const templates = await api<{ id: number }[]>('/mgr/templ/list', { page: 1, limit: 1 }, token);
      const editorPath = `/tmpl/tmpledit?id=${templates.data[0]?.id}`;
      const { context, page } = await newPage(browser(), { lang });
      const found: Record<string, unknown> = {};
      try {
        await page.goto('/login');
        await page.locator('input[name="username"]').waitFor();
        await audit(page, found);
        await login(page, 'admin', { path: '/dashboard' });
        for (const path of [...PATHS, editorPath]) {
          await page.goto(path);
          await waitForShell(page);
          if (path === editorPath) await page.getByTestId('doc-panel').waitFor();
          await audit(page, found);
        }
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
    });
  }

  it('the audit fails on what it should: a grey text and an unnamed field drawn into a page', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await page.goto('/login');
      await page.locator('input[name="username"]').waitFor();
      await page.evaluate(() => {
        const main = document.querySelector('main');
        const grey = document.createElement('p');
        grey.textContent = 'Pale words';
        grey.style.color = '#c8c8c8';
        grey.style.background = '#ffffff';
        const field = document.createElement('input');
        main?.append(grey, field);
      });
      const rules = (await seriousViolations(page)).map((v) => v.rule);
      expect(rules).toEqual(expect.arrayContaining(['color-contrast', 'label']));
    } finally {
      await context.close();
    }
  });

  it('keyboard alone: signs in, and each role reaches its main action', async () => {
    const work: [user: string, path: string, action: string][] = [
      ['clerk', '/basemgr/esl', '[data-testid="bind-tags"]'],
      ['stock', '/basemgr/product', '[data-testid="import-products"]'],
      ['manager', '/logmgr/op', 'form#opLogFilter .ant-btn-primary'],
      ['editor', '/tmpl/index', '.ant-card-head .ant-btn-primary'],
    ];
    for (const [user, path, action] of work) {
      const { context, page } = await newPage(browser(), { lang: 'en' });
      try {
        await page.goto(path);
        await page.locator('input[name="username"]').waitFor();
        await page.focus('input[name="username"]');
        await page.keyboard.type(user);
        await page.keyboard.press('Tab');
        await page.keyboard.type('demo123');
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.pathname === path);
        await waitForShell(page);
        await settled(page);
        expect(await tabTo(page, action), `${user}: Tab reaches ${action} on ${path}`).toBe(true);
        if (user === 'clerk') {
          await page.keyboard.press('Enter');
          await page.locator('#bindTag_hardwareId').waitFor();
          await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('bindTag_hardwareId');
        }
        if (user === 'editor') {
          // Enter on the focused Add opens the new-template dialog.
          await page.keyboard.press('Enter');
          await page.locator('.ant-modal-container:visible').waitFor();
        }
      } finally {
        await context.close();
      }
    }
  });

  it('the add and bind dialogs, in both languages', { timeout: 240_000 }, async () => {
    // Each page's main dialog, opened by its toolbar's primary button (or the tags page's Bind).
    const dialogs: [path: string, opener: string][] = [
      ['/basemgr/station', '.ant-card-extra .ant-btn-primary, .ant-card-head .ant-btn-primary'],
      ['/basemgr/ap', '[data-testid="add-station"]'],
      ['/basemgr/esl', '[data-testid="bind-tags"]'],
      ['/basemgr/product', '.ant-card-head .ant-btn-primary'],
      ['/system/index', '.ant-card-head .ant-btn-primary'],
    ];
    const found: Record<string, unknown> = {};
    for (const lang of ['en', 'zh-CN'] as Lang[]) {
      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/dashboard' });
        for (const [path, opener] of dialogs) {
          await page.goto(path);
          await waitForShell(page);
          await page.locator(opener).first().click();
          await page.locator('.ant-modal-container:visible').first().waitFor();
          await settled(page);
          const violations = await seriousViolations(page);
          if (violations.length > 0) found[`${lang} ${path} dialog`] = violations;
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual({});
  });
});
