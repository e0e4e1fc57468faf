import ExcelJS from 'exceljs';
import type { Locator, Page, Request } from 'playwright-core';
import { it } from 'vitest';
import { STARTER_TEMPLATES } from '../apps/server/src/modules/templates/starter/documents';
import { seriousViolations } from './support/axe';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  chooseOption,
  describeBrowser,
  digest,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/**
 * What a store's people still tripped over (issue 27), as each role meets it, in both languages,
 * on a desktop (1280 px) and a phone (390 px): the system log in the reader's words, a forced
 * refresh, the tag log without skips, the whole-store tag upgrade asked first with model names,
 * no developer words, card titles that keep their room, first-run guidance, and axe-core.
 */
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The JSON body of the next request to `path` made while `act` runs. */
async function bodyOf(page: Page, path: string, act: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const sent = page.waitForRequest((r: Request) => r.url().endsWith(`/api${path}`) && r.method() === 'POST');
  await act();
  return (await sent).postDataJSON() as Record<string, unknown>;
}

async function loaded(page: Page): Promise<void> {
  await waitForShell(page);
  await page.waitForFunction(() => document.querySelector('.ant-spin-spinning, .ant-spin-blur') === null);
  await settled(page);
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await loaded(page);
}

/** No serious or critical axe-core violation on the page as it stands. */
async function noSerious(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}

/** The element lies whole inside the window and inside its table's visible box, its text unclipped. */
async function wholeInView(page: Page, element: Locator, where: string): Promise<void> {
  const box = await element.boundingBox();
  const table = await page.locator('.ant-table-container', { has: element }).first().boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box || !table) throw new Error(`${where}: not laid out`);
  expect(box.x, where).toBeGreaterThanOrEqual(Math.max(0, table.x) - 1);
  expect(box.x + box.width, where).toBeLessThanOrEqual(Math.min(width, table.x + table.width) + 1);
  const clipped = await element.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      .map((e) => e.className),
  );
  expect(clipped, where).toEqual([]);
}

describeBrowser('what a store’s people trip over (issue 27)', () => {
  const browser = useBrowser();

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    const zh = lang === 'zh-CN';

    it(`the system log reads in ${lang}, events as words; no developer words (manager, admin)`, {
      timeout: 240_000,
    }, async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        const { context, page } = await newPage(browser(), { lang, viewport });
        try {
          await login(page, 'manager', { path: '/logmgr/sys' });
          await loaded(page);
          const rows = page.locator('.ant-table-tbody tr.ant-table-row');
          await rows.first().waitFor();
          // The event column (third) holds words, never a key like `login` or `station.online`.
          const events = await rows.locator('td:nth-child(3)').allInnerTexts();
          expect(events.length).toBeGreaterThan(0);
          for (const e of events) expect(e).not.toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
          // Columns: time, level, event, store, message.
          const messages = (await rows.locator('td:nth-child(5)').allInnerTexts()).join('\n');
          if (zh) {
            expect(events).toContain('登录');
            expect(messages).toMatch(/从 \S+ 登录/);
            expect(messages).not.toMatch(/signed in from/);
            expect(await chineseFontLoaded(page)).toBe(true);
          } else {
            expect(events).toContain('Sign-in');
          }
          await noSerious(page, `${lang} ${viewport.width} /logmgr/sys`);
          await screenshot(page, `people-syslog-manager-${lang}-${viewport.width}`);
        } finally {
          await context.close();
        }
      }

      const { context, page } = await newPage(browser(), { lang, viewport: DESKTOP });
      try {
        await login(page, 'admin', { path: '/system/conf' });
        await loaded(page);
        // The API key card points to the reference this server serves, not a repository file.
        const card = page.locator('.ant-card', { has: page.getByTestId('regenerate-key') });
        await card.waitFor();
        expect(await card.innerText()).not.toContain('INTEGRATION.md');
        expect(await page.getByTestId('api-reference').getAttribute('href')).toBe('/api/docs');
        await noSerious(page, `${lang} /system/conf`);
        await screenshot(page, `people-apikey-admin-${lang}-1280`);
        // The page-style drawer says its switches in plain words.
        await page.getByTestId('settings-open').click();
        await page.getByTestId('set-tags').waitFor();
        const drawer = page.locator('.ant-drawer', { has: page.getByTestId('set-tags') });
        await settled(page);
        const words = await drawer.innerText();
        // "Logo in the sidebar" is plain English; in Chinese each was a developer's word (侧边栏 Logo).
        const devWords = lang === 'en' ? ['Tags-View', 'Header'] : ['Tags-View', 'Header', 'Logo'];
        for (const dev of devWords) expect(words).not.toContain(dev);
        await screenshot(page, `people-settings-admin-${lang}-1280`);
      } finally {
        await context.close();
      }
    });

    it(`a clerk sends labels again (forced) after a question; the tag log hides skips by default (${lang})`, {
      timeout: 240_000,
    }, async () => {
      for (const viewport of [DESKTOP, PHONE]) {
        const { context, page } = await newPage(browser(), { lang, viewport });
        try {
          await login(page, 'clerk', { path: '/basemgr/esl' });
          await loaded(page);
          const rows = page.locator('[data-testid="tag-table"] .ant-table-tbody tr.ant-table-row');
          await rows.first().waitFor();
          // The card's title keeps its words beside (or above) the toolbar, on a phone too.
          const title = page.locator('.ant-card-head-title', { hasText: zh ? '价签' : 'Tags' }).first();
          expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(40);
          await rows.nth(0).locator('.ant-checkbox-input').check();
          await rows.nth(1).locator('.ant-checkbox-input').check();
          await page.getByTestId('resend-tags').click();
          const ask = page.locator('.ant-popconfirm:visible');
          await ask.waitFor();
          expect(await ask.innerText()).toContain(zh ? '2 个价签' : 'these 2 tags');
          await screenshot(page, `people-resend-clerk-${lang}-${viewport.width}`);
          // Cancel sends nothing. (Confirming is left out here: on this console any list
          // Popconfirm's OK, Unbind and Full store refresh alike, stalls the page in headless
          // Chromium, on main too; reported with issue 27. The server's `force` is its own test.)
          let sent = 0;
          page.on('request', (r) => {
            if (r.url().endsWith('/api/mgr/tag/flashesl')) sent++;
          });
          await ask.locator('.ant-btn:not(.ant-btn-primary)').click();
          // The pointer off the buttons: a hovered button's lighter colour is not what the page shows.
          await page.mouse.move(1, viewport.height - 1);
          await settled(page);
          expect(sent).toBe(0);
          await noSerious(page, `${lang} ${viewport.width} /basemgr/esl`);
        } finally {
          await context.close();
        }
      }

      const { context, page } = await newPage(browser(), { lang, viewport: DESKTOP });
      try {
        await login(page, 'manager', { path: '/dashboard' });
        await waitForShell(page);
        const first = await bodyOf(page, '/log/taglog/esltasklist', () => page.goto('/logmgr/esl'));
        expect(first.hideSkipped).toBe(true);
        await loaded(page);
        await noSerious(page, `${lang} /logmgr/esl`);
        await screenshot(page, `people-taglog-manager-${lang}-1280`);
        // "All, skipped included" shows them again.
        await chooseOption(
          page,
          page.locator('form#tagLogFilter .ant-select').first(),
          zh ? '含无需发送' : 'skipped included',
        );
        const every = await bodyOf(page, '/log/taglog/esltasklist', () =>
          page.locator('form#tagLogFilter button[type="submit"]').click(),
        );
        expect(every.hideSkipped).toBe(false);
        expect(every.result).toBeUndefined();
      } finally {
        await context.close();
      }
    });

    it(`a whole-store tag upgrade asks first and names the models (admin, ${lang})`, {
      timeout: 180_000,
    }, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: DESKTOP });
      try {
        let upgrades = 0;
        page.on('request', (r) => {
          if (r.url().endsWith('/api/res/update/onUpdateesl')) upgrades++;
        });
        await login(page, 'admin', { path: '/basemgr/upgrade' });
        await loaded(page);
        await page
          .getByTestId('upgrade-target')
          .getByText(zh ? '价签' : 'Tags', { exact: true })
          .click();
        await chooseOption(page, page.getByTestId('upgrade-firmware'), '1.1.0');
        const fits = page.getByText(zh ? /^适用于 / : /^For /);
        await fits.waitFor();
        const line = await fits.innerText();
        expect(line).toContain('1.54T');
        expect(line).not.toMatch(/\b(01|02|0A)\b/);
        await page.getByTestId('upgrade-start').click();
        const ask = page.locator('.ant-popconfirm:visible');
        await ask.waitFor();
        expect(await ask.innerText()).toContain('1.1.0');
        await screenshot(page, `people-tagupgrade-admin-${lang}-1280`);
        await ask.locator('.ant-btn:not(.ant-btn-primary)').click();
        await settled(page);
        expect(upgrades).toBe(0);
        await noSerious(page, `${lang} /basemgr/upgrade`);
      } finally {
        await context.close();
      }
    });

    it(`phones and English: product card title, dashboard figures, op log reachable by keyboard (${lang})`, {
      timeout: 240_000,
    }, async () => {
      const phone = await newPage(browser(), { lang, viewport: PHONE });
      try {
        await login(phone.page, 'stock', { path: '/basemgr/product' });
        await loaded(phone.page);
        const title = phone.page.locator('.ant-card-head-title', { hasText: zh ? '商品' : 'Products' }).first();
        await title.waitFor();
        expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(40);
        await screenshot(phone.page, `people-products-stock-${lang}-390`);
        // The import template is a workbook Excel opens as one, its sheet named in the language.
        await phone.page.getByTestId('import-products').click();
        const link = phone.page.getByTestId('import-template');
        await expect.poll(() => link.isEnabled(), { timeout: 15_000 }).toBe(true);
        const [file] = await Promise.all([phone.page.waitForEvent('download'), link.click()]);
        expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile((await file.path()) as string);
        const sheet = book.worksheets[0];
        expect(sheet?.name).toBe(zh ? '商品' : 'Products');
        if (!sheet) throw new Error('the template has no sheet');
        const titles = (sheet.getRow(1).values as unknown[]).filter(Boolean);
        expect(titles.length).toBeGreaterThan(3);
        expect(titles.every((v) => typeof v === 'string')).toBe(true);
      } finally {
        await phone.context.close();
      }
      // The manager reads their own stores' operations: one of theirs, so the list is not empty
      // when this file runs alone.
      const manager = await apiLogin('manager');
      const info = await api<{ curshop: { id: number } | null }>('/user/info', {}, manager);
      if (!info.data.curshop) throw new Error('the demo manager has no store');
      expect((await api('/user/setcurrshop', { curshop: info.data.curshop.id }, manager)).code).toBe(0);
      for (const viewport of [DESKTOP, PHONE]) {
        const { context, page } = await newPage(browser(), { lang, viewport });
        try {
          await login(page, 'manager', { path: '/dashboard' });
          await loaded(page);
          await page.getByTestId('figure-done24h').waitFor();
          expect(await page.getByTestId('overview-delivery').innerText()).toContain(
            zh ? '24 小时内完成的任务' : 'Tasks done in 24 h',
          );
          // The status chart, its names whole beside the bars (drawn on a canvas: looked at).
          const chart = page.getByTestId('chart-shopStatic');
          await chart.locator('canvas').waitFor();
          await chart.scrollIntoViewIfNeeded();
          await settled(page);
          await screenshot(page, `people-dashboard-manager-${lang}-${viewport.width}`);
          await open(page, '/logmgr/op');
          await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
          await noSerious(page, `${lang} ${viewport.width} /logmgr/op`);
          // The sideways-scrolling table takes the focus, so a keyboard can scroll it.
          const region = page.locator('.ant-table-content[role="region"], .ant-table-body[role="region"]');
          if (await region.count()) expect(await region.first().getAttribute('tabindex')).toBe('0');
        } finally {
          await context.close();
        }
      }
    });
  }

  it('empty lists of a fresh store say what would appear there and how, in both languages', {
    timeout: 400_000,
  }, async () => {
    const operator = await apiLogin('superadmin');
    const account = `empty${Date.now().toString(36)}`;
    const added = await api<{ id: number }>(
      '/saas/sa/addtenant',
      { name: 'Empty Shop', account, sapwd: digest('demo123') },
      operator,
    );
    expect(added.code, added.msg).toBe(0);
    try {
      const admin = await apiLogin(account);
      const store = await api('/mgr/station/add', { name: 'Empty Street', code: 'E1' }, admin);
      expect(store.code, store.msg).toBe(0);
      // Each list of the fresh store, and a phrase of what its empty state says in each language.
      const lists: [path: string, en: string, zh: string][] = [
        ['/basemgr/esl', 'scan them with the handheld page', '用手持终端页面扫码添加'],
        ['/basemgr/product', 'import a spreadsheet', '导入表格'],
        ['/basemgr/ap', 'shows as online once it connects', '基站连上后显示为在线'],
        ['/basemgr/schedule', 'from a product', '点击商品的“定时变更”'],
        ['/basemgr/promo', 'Add one with', '点击“添加促销”来添加'],
        ['/logmgr/esl', 'Each label sent to a tag', '发往价签的每一次更新'],
        ['/logmgr/push', 'Each change of product data', '每一次发往价签的商品数据变更'],
      ];
      for (const lang of ['en', 'zh-CN'] as Lang[]) {
        const zh = lang === 'zh-CN';
        for (const viewport of [DESKTOP, PHONE]) {
          const { context, page } = await newPage(browser(), { lang, viewport });
          try {
            await login(page, account, { path: '/dashboard' });
            await loaded(page);
            for (const [path, en, cn] of lists) {
              await open(page, path);
              const empty = page.getByTestId('empty-state');
              await empty.waitFor();
              expect(await empty.innerText(), path).toContain(zh ? cn : en);
              await wholeInView(page, empty, `${lang} ${viewport.width} ${path}`);
              await noSerious(page, `${lang} ${viewport.width} ${path} empty`);
              await empty.scrollIntoViewIfNeeded();
              await screenshot(page, `people-empty${path.replaceAll('/', '-')}-${lang}-${viewport.width}`);
            }
            // A list emptied by its filters says so, not how to add the first one.
            await open(page, '/tmpl/index');
            await page.locator('#tmpl-filter_name').fill('no such template');
            await page.locator('form#tmpl-filter button[type="submit"]').click();
            const none = page.getByTestId('empty-state');
            await none.waitFor();
            expect(await none.innerText()).toContain(zh ? '没有符合上方筛选条件' : 'None match the filters above');
            await wholeInView(page, none, `${lang} ${viewport.width} templates filtered`);
            await screenshot(page, `people-empty-templates-filtered-${lang}-${viewport.width}`);
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      await api('/saas/sa/sadeltenant', { ids: [added.data.id] }, operator);
    }
  });

  it('a new tenant is shown the way to its first store and finds starter templates, in both languages', {
    timeout: 180_000,
  }, async () => {
    const operator = await apiLogin('superadmin');
    const account = `first${Date.now().toString(36)}`;
    const added = await api<{ id: number }>(
      '/saas/sa/addtenant',
      { name: 'First Shop', account, sapwd: digest('demo123') },
      operator,
    );
    expect(added.code, added.msg).toBe(0);
    try {
      for (const lang of ['en', 'zh-CN'] as Lang[]) {
        for (const viewport of [DESKTOP, PHONE]) {
          const { context, page } = await newPage(browser(), { lang, viewport });
          try {
            await login(page, account, { path: '/basemgr/esl' });
            await waitForShell(page);
            const guide = page.getByTestId('no-store-yet');
            await guide.waitFor();
            expect(await guide.innerText()).toContain(lang === 'en' ? 'Create the first store' : '创建第一个门店');
            await settled(page);
            await noSerious(page, `${lang} ${viewport.width} first run`);
            await screenshot(page, `people-firstrun-admin-${lang}-${viewport.width}`);
            await guide.getByRole('button').click();
            await eventually(() => new URL(page.url()).pathname).toBe('/basemgr/station');
            // Ready-made labels for the common tag sizes are there before anyone draws one.
            await open(page, '/tmpl/index');
            const rows = page.locator('.ant-table-tbody tr.ant-table-row');
            await rows.first().waitFor();
            expect(await page.locator('.ant-pagination-total-text').innerText()).toBe(
              lang === 'en' ? `${STARTER_TEMPLATES.length} templates` : `共 ${STARTER_TEMPLATES.length} 个模板`,
            );
            // The drawn shelf labels come first; the "no product" labels last.
            expect(await rows.first().innerText()).toContain(STARTER_TEMPLATES[0]?.name);
            expect(await rows.first().innerText()).toContain(lang === 'en' ? 'Black/white/red' : '黑白红');
            expect(await rows.locator('img').first().getAttribute('src')).toMatch(/\S/);
            await noSerious(page, `${lang} ${viewport.width} starter templates`);
            await screenshot(page, `people-starter-templates-admin-${lang}-${viewport.width}`);
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      await api('/saas/sa/sadeltenant', { ids: [added.data.id] }, operator);
    }
  });
});
