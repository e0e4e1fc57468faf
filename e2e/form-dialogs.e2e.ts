import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { it } from 'vitest';
import {
  api,
  apiLogin,
  chineseFontLoaded,
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

// Every form dialog and settings card drawn from field declarations (components/form), in both
// languages: each opens, keeps a screenshot, and no label, button or choice in it is cut off or
// runs out of the dialog.

type Tree = { [key: string]: string | Tree };

/** A text of the console's locale files, by namespace and dotted key. */
function word(lang: Lang, ns: string, key: string): string {
  const tree = JSON.parse(
    readFileSync(new URL(`../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'),
  ) as Tree;
  const found = key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part], tree);
  if (typeof found !== 'string') throw new Error(`no text ${lang}/${ns}:${key}`);
  return found;
}

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();

/** What in `box` is cut off: text wider than its element, or an element out of the box's sides. */
async function clipped(box: Locator): Promise<string[]> {
  return box.evaluate((root) => {
    const bounds = root.getBoundingClientRect();
    const found: string[] = [];
    const items = root.querySelectorAll<HTMLElement>(
      '.ant-form-item-label > label, .ant-btn, .ant-radio-wrapper, .ant-radio-button-wrapper, .ant-input-suffix, .ant-input-number-suffix, .ant-form-item-extra, .ant-modal-title, .ant-card-head-title',
    );
    for (const el of items) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      const name = (el.textContent ?? '').trim() || el.className;
      if (el.scrollWidth > el.clientWidth + 1) found.push(`${name}: text wider than its box`);
      if (r.left < bounds.left - 1 || r.right > bounds.right + 1) found.push(`${name}: out of the dialog`);
    }
    return found;
  });
}

async function keep(page: Page, box: Locator, lang: Lang, name: string): Promise<void> {
  await box.waitFor();
  await settled(page);
  if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
  expect(await clipped(box), name).toEqual([]);
  await screenshot(page, `form-${name}-${lang}`);
}

async function closeDialog(page: Page): Promise<void> {
  await dialog(page).locator('.ant-modal-close').click();
  await page.locator('.ant-modal-container:visible').waitFor({ state: 'detached' });
}

interface Screen {
  name: string;
  user: string;
  path: string;
  /** Opens each dialog (or waits for each card) and keeps it. */
  run: (page: Page, lang: Lang) => Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'stores',
    user: 'admin',
    path: '/basemgr/station',
    run: async (page, lang) => {
      const storeRow = page.locator('.ant-table-row').first();
      await storeRow.waitFor();
      await page.getByRole('button', { name: word(lang, 'stores', 'add') }).click();
      await keep(page, dialog(page), lang, 'store-add');
      await closeDialog(page);
      await storeRow.getByRole('button', { name: word(lang, 'stores', 'params') }).click();
      await dialog(page).locator('#storeParams_heartbeatSeconds').waitFor();
      await keep(page, dialog(page), lang, 'store-params');
    },
  },
  {
    name: 'base stations and products',
    user: 'admin',
    path: '/basemgr/ap',
    run: async (page, lang) => {
      await page.getByTestId('add-station').click();
      await keep(page, dialog(page), lang, 'station-add');
      await closeDialog(page);

      // The configuration dialog, with the static address fields shown.
      const token = await apiLogin('admin');
      const sn = `FORM-${randomBytes(3).toString('hex')}`.toUpperCase();
      const station = await api<{ id: number }>('/mgr/ap/add', { sn }, token);
      expect(station.code, station.msg).toBe(0);
      try {
        await page.reload();
        const row = page.locator('.ant-table-row', { hasText: sn });
        await row.getByRole('button', { name: word(lang, 'stations', 'config.open') }).click();
        await dialog(page)
          .getByText(word(lang, 'stations', 'config.static'), { exact: true })
          .click();
        await dialog(page).locator('#stationConfig_gateway').waitFor();
        await keep(page, dialog(page), lang, 'station-config-static');
        await closeDialog(page);
      } finally {
        await api('/mgr/ap/delete', { ids: [station.data.id] }, token);
      }

      await page.goto('/basemgr/product');
      await page.getByTestId('add-product').click();
      await keep(page, dialog(page), lang, 'product-add');
    },
  },
  {
    name: 'templates',
    user: 'admin',
    path: '/tmpl/index',
    run: async (page, lang) => {
      await page.getByRole('button', { name: word(lang, 'templates', 'add') }).click();
      await keep(page, dialog(page), lang, 'template-add');
      await dialog(page)
        .getByText(word(lang, 'templates', 'field.bySize'))
        .click();
      await dialog(page).locator('#tmpl-add_width').waitFor();
      await keep(page, dialog(page), lang, 'template-add-size');
      // Width and length stand side by side, on one line.
      const top = async (id: string) => (await dialog(page).locator(id).boundingBox())?.y;
      expect(await top('#tmpl-add_length')).toBe(await top('#tmpl-add_width'));
      await closeDialog(page);

      // The editor's save dialog shares the name and size fields.
      await page.locator('.tmpl-thumb').first().click();
      await page.getByTestId('editor-save').click();
      await dialog(page).locator('#tmpl-save_name').waitFor();
      await keep(page, dialog(page), lang, 'template-save');
      expect(await top('#tmpl-save_length')).toBe(await top('#tmpl-save_width'));
    },
  },
  {
    name: 'users',
    user: 'admin',
    path: '/system/index',
    run: async (page, lang) => {
      await page.getByRole('button', { name: word(lang, 'users', 'add') }).click();
      await keep(page, dialog(page), lang, 'user-add');
    },
  },
  {
    name: 'settings',
    user: 'admin',
    path: '/system/conf',
    run: async (page, lang) => {
      await page.locator('#tenantInfo_name').waitFor();
      await keep(page, page.locator('main'), lang, 'tenant-settings');
      await page.goto('/system/setme');
      await page.locator('#profile_name').waitFor();
      await keep(page, page.locator('main'), lang, 'account');
    },
  },
  {
    name: 'tenants',
    user: 'superadmin',
    path: '/saadmin/sa/adm',
    run: async (page, lang) => {
      const tenantRow = page.locator('.ant-table-row').first();
      await tenantRow.waitFor();
      await page.getByRole('button', { name: word(lang, 'tenants', 'add') }).click();
      await keep(page, dialog(page), lang, 'tenant-add');
      await closeDialog(page);
      await tenantRow.getByRole('button', { name: word(lang, 'tenants', 'resetPwd') }).click();
      await keep(page, dialog(page), lang, 'tenant-reset-password');
    },
  },
];

describeBrowser('form dialogs and settings cards', () => {
  const browser = useBrowser();

  for (const lang of ['zh-CN', 'en'] as const) {
    for (const screen of SCREENS) {
      it(`draws the ${screen.name} forms whole in ${lang}`, async () => {
        const { context, page } = await newPage(browser(), { lang });
        try {
          await login(page, screen.user, { path: screen.path });
          await waitForShell(page);
          await screen.run(page, lang);
        } finally {
          await context.close();
        }
      });
    }
  }

  // A form dialog rendered while closed counted as open for the Escape key (antd's forceRender):
  // Escape went to the hidden one mounted last, and the add-tags and page-schedules dialogs
  // stayed open. Escape closes the dialog shown, the inner one first.
  it('closes the dialog shown on Escape, the inner one first', async () => {
    const { context, page } = await newPage(browser(), { lang: 'zh-CN' });
    const shown = page.locator('.ant-modal-container:visible');
    const pressEscape = async (left: number) => {
      await settled(page);
      await page.keyboard.press('Escape');
      await expect.poll(() => shown.count()).toBe(left);
    };
    const open = async (name: string) => {
      await page.getByRole('button', { name }).first().click();
      await shown.first().waitFor();
    };
    try {
      await login(page, 'manager', { path: '/basemgr/esl' });
      await waitForShell(page);
      for (const name of [
        word('zh-CN', 'tags', 'add'),
        word('zh-CN', 'tags', 'bind.action'),
        word('zh-CN', 'tags', 'schedule.action'),
      ]) {
        await open(name);
        await pressEscape(0);
      }
      await open(word('zh-CN', 'tags', 'schedule.action'));
      await page.getByTestId('add-page-schedule').click();
      await expect.poll(() => shown.count()).toBe(2);
      await pressEscape(1);
      await pressEscape(0);

      await page.goto('/basemgr/station');
      await waitForShell(page);
      await page
        .locator('.ant-table-row')
        .first()
        .getByRole('button', { name: word('zh-CN', 'stores', 'params') })
        .click();
      await page.locator('#storeParams_heartbeatSeconds').waitFor();
      await pressEscape(0);
    } finally {
      await context.close();
    }
  });
});
