import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  chooseOption,
  describeBrowser,
  digest,
  expect,
  login,
  newPage,
  screenshot,
  selectOf,
  useBrowser,
  waitForShell,
} from './support/browser';

interface UserRow {
  id: number;
  username: string;
  name: string;
  roles: string[];
  shops: number[];
}
interface StoreRow {
  id: number;
  name: string;
  code: string;
}

const suffix = Date.now().toString(36);
const username = `e2e_u_${suffix}`;

async function findUser(token: string): Promise<UserRow | undefined> {
  const list = await api<UserRow[]>('/user/UserList', { page: 1, limit: 2000 }, token);
  expect(list.code).toBe(0);
  return list.data.find((u) => u.username === username);
}

/** Picks an option of an antd Select by typing part of its label. */
async function choose(page: Page, id: string, text: string): Promise<void> {
  await chooseOption(page, selectOf(page, `#${id}`), text, { search: text });
  await page.keyboard.press('Escape');
}

const dialog = (page: Page) => page.locator('.ant-modal-container:visible');
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });

describeBrowser('users page (/system/index)', () => {
  const browser = useBrowser();
  let token = '';
  let store: StoreRow;

  beforeAll(async () => {
    token = await apiLogin('admin');
    const stores = await api<StoreRow[]>('/mgr/station/list', { page: 1, limit: 10 }, token);
    store = stores.data[0];
  });

  afterAll(async () => {
    // Leaves nothing behind if a step failed half-way.
    const left = await findUser(token);
    if (left) await api('/user/delusr', { ids: [left.id] }, token);
  });

  it('adds, edits and deletes a user as admin, with the validation messages of SPEC §5', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/system/index' });
      await waitForShell(page);
      await expect.poll(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
      // The signed-in admin cannot delete their own account.
      const own = page.locator('.ant-table-row', { hasText: 'admin' }).first();
      await expect.poll(() => own.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);

      // Add: every rule speaks first.
      await page.getByRole('button', { name: 'Add user' }).click();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      for (const text of [
        'username cannot be empty',
        'Name cannot be empty',
        'password cannot be empty',
        'please select a role',
      ]) {
        await error(page, text).first().waitFor();
      }
      await page.fill('#user_username', username);
      await page.fill('#user_name', 'E2E Person');
      await page.fill('#user_password', 'first-pass-1');
      await page.fill('#user_rpassword', 'other-pass');
      await choose(page, 'user_roles', 'store clerk');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'passwords do not match').waitFor();
      await error(page, 'please select a store').waitFor();
      await page.fill('#user_rpassword', 'first-pass-1');
      await choose(page, 'user_shops', store.code);
      await page.fill('#user_introduction', 'line one\nline two');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'No line breaks allowed').waitFor();
      await page.fill('#user_introduction', 'Made by the browser test');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'User added').waitFor();
      const row = page.locator('.ant-table-row', { hasText: username });
      await row.waitFor();
      expect(await row.textContent()).toContain('Store clerk');
      expect(await row.textContent()).toContain(store.name);

      const added = await findUser(token);
      expect(added).toMatchObject({ name: 'E2E Person', roles: ['clerk'], shops: [store.id] });
      // The password went out as its digest: the new user can sign in with it.
      expect((await api('/user/login', { username, password: digest('first-pass-1') })).code).toBe(0);

      // Edit: the name and, optionally, the password.
      await row.getByRole('button', { name: 'Edit' }).click();
      await expect.poll(() => page.inputValue('#user_name')).toBe('E2E Person');
      expect(await page.locator('#user_username').isDisabled()).toBe(true);
      await page.fill('#user_name', 'E2E Renamed');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      await toast(page, 'User saved').first().waitFor();
      await page.locator('.ant-table-row', { hasText: 'E2E Renamed' }).waitFor();
      expect((await findUser(token))?.name).toBe('E2E Renamed');
      // Saved without a password: the old one still works.
      expect((await api('/user/login', { username, password: digest('first-pass-1') })).code).toBe(0);

      await row.getByRole('button', { name: 'Edit' }).click();
      await page.fill('#user_password', 'second-pass-2');
      await page.fill('#user_rpassword', 'second-pass-2');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      // The first edit's 'User saved' may still be on screen: the dialog closes only once this save is done.
      await dialog(page).waitFor({ state: 'detached' });
      await toast(page, 'User saved').first().waitFor();
      expect((await api('/user/login', { username, password: digest('second-pass-2') })).code).toBe(0);
      expect((await api('/user/login', { username, password: digest('first-pass-1') })).code).not.toBe(0);

      // Delete, confirmed.
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'User deleted').waitFor();
      await row.waitFor({ state: 'detached' });
      expect(await findUser(token)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('keeps screenshots of the users page in zh-CN and en', async () => {
    for (const lang of ['zh-CN', 'en'] as const) {
      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/system/index' });
        await waitForShell(page);
        await page.locator('.ant-table-row').first().waitFor();
        const title = lang === 'en' ? 'Users' : '用户列表';
        await page.locator('.ant-card-head-title', { hasText: title }).waitFor();
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `users-${lang}`);
      } finally {
        await context.close();
      }
    }
  });
});
