import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  digest,
  expect,
  login,
  newPage,
  useBrowser,
  waitForShell,
} from './support/browser';

interface UserRow {
  id: number;
  username: string;
  name: string;
  introduction: string;
  avatar: string;
}
interface BaseInfo {
  name: string;
  company: string;
  description: string;
  appid: string;
  ck: string;
  sk: string;
}

const suffix = Date.now().toString(36);
const username = `e2e_me_${suffix}`;
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });

describeBrowser('parameter configuration and account settings', () => {
  const browser = useBrowser();
  let token = '';
  let original: BaseInfo;

  async function findUser(): Promise<UserRow | undefined> {
    const list = await api<UserRow[]>('/user/UserList', { page: 1, limit: 2000 }, token);
    return list.data.find((u) => u.username === username);
  }

  beforeAll(async () => {
    token = await apiLogin('admin');
    original = (await api<BaseInfo>('/user/getbaseinfo', {}, token)).data;
    // A second administrator of the demo tenant, so changing its password leaves `admin` alone.
    const added = await api(
      '/user/addusr',
      {
        username,
        name: 'E2E Me',
        password: digest('me-pass-1'),
        rpassword: digest('me-pass-1'),
        roles: ['admin'],
        shops: [],
      },
      token,
    );
    expect(added.code).toBe(0);
  });

  afterAll(async () => {
    await api(
      '/user/alerttenantinfo',
      { name: original.name, company: original.company, description: original.description },
      token,
    );
    await api('/user/alertappid', { appid: original.appid }, token);
    const me = await findUser();
    if (me) await api('/user/delusr', { ids: [me.id] }, token);
  });

  it('edits tenant information and the WeChat APPID, and regenerates the API key after confirmation', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      // A retry starts from the stored values the first attempt may have changed.
      await api(
        '/user/alerttenantinfo',
        { name: original.name, company: original.company, description: original.description },
        token,
      );
      await api('/user/alertappid', { appid: original.appid }, token);
      await login(page, username, { path: '/system/conf', password: 'me-pass-1' });
      await waitForShell(page);
      await expect.poll(() => page.inputValue('#tenantInfo_name')).toBe(original.name);

      await page.fill('#tenantInfo_name', '');
      await page.locator('form#tenantInfo').getByRole('button', { name: 'Save' }).click();
      await error(page, 'Name cannot be empty').waitFor();
      await page.fill('#tenantInfo_name', `${original.name} E2E`);
      await page.fill('#tenantInfo_company', 'E2E Company');
      // The view reloads after this save: the page before it is marked, to wait for the new one.
      await page.locator('form#appid').evaluate((form) => form.setAttribute('data-before-reload', ''));
      await page.locator('form#tenantInfo').getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Saved').first().waitFor();
      await expect
        .poll(async () => (await api<BaseInfo>('/user/getbaseinfo', {}, token)).data.company)
        .toBe('E2E Company');
      // A tenant change reloads the view: the user menu shows the new name.
      await page.click('[data-testid="avatar-menu"]');
      await expect
        .poll(() => page.locator('[data-testid="tenant-name"]').textContent())
        .toBe(`Tenant: ${original.name} E2E`);
      await page.keyboard.press('Escape');
      await page.locator('form#appid:not([data-before-reload])').waitFor();
      await expect.poll(() => page.inputValue('#tenantInfo_company')).toBe('E2E Company');

      await page.fill('#appid_appid', 'wx1234567890');
      await page.locator('form#appid').getByRole('button', { name: 'Save' }).click();
      await page.locator('.ant-form-item-explain-error', { hasText: 'wx followed by 16 hexadecimal' }).waitFor();
      await page.fill('#appid_appid', 'wx1234567890abcdef');
      await page.locator('form#appid').getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(async () => (await api<BaseInfo>('/user/getbaseinfo', {}, token)).data.appid)
        .toBe('wx1234567890abcdef');

      // The secret is masked (the server answers only its last four characters) with a "try it" call.
      expect(await page.locator('[data-testid="api-sk"]').count()).toBe(0);
      await expect.poll(() => page.locator('[data-testid="api-sk-masked"]').textContent()).toBe(original.sk);
      expect(original.sk).toMatch(/^•{8}[0-9a-f]{4}$/);
      await expect
        .poll(() => page.locator('[data-testid="api-try-it"]').textContent())
        .toContain(`CK='${original.ck}'`);

      // Cancelling the confirmation keeps the key; confirming replaces it.
      await page.locator('[data-testid="regenerate-key"]').click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel' }).click();
      expect((await api<BaseInfo>('/user/getbaseinfo', {}, token)).data.ck).toBe(original.ck);
      await page.locator('[data-testid="regenerate-key"]').click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Regenerate' }).click();
      await toast(page, 'A new API key was generated').waitFor();
      const now = (await api<BaseInfo>('/user/getbaseinfo', {}, token)).data;
      expect(now.ck).not.toBe(original.ck);
      await expect.poll(() => page.locator('[data-testid="api-ck"]').textContent()).toBe(now.ck);
      // Shown whole once, after the renewal, and used by the "try it" call; the server keeps it masked.
      const shown = (await page.locator('[data-testid="api-sk"]').textContent()) ?? '';
      expect(shown).toMatch(/^[0-9a-f]{64}$/);
      expect(now.sk).toBe(`${'•'.repeat(8)}${shown.slice(-4)}`);
      await expect.poll(() => page.locator('[data-testid="api-try-it"]').textContent()).toContain(`SK='${shown}'`);
    } finally {
      await context.close();
    }
  });

  it('changes the own name, avatar (checked in the browser first) and password', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/user/avatar')) uploads.push(r.url());
      });
      await login(page, username, { path: '/system/setme', password: 'me-pass-1' });
      await waitForShell(page);
      await expect.poll(() => page.inputValue('#profile_name')).toBe('E2E Me');

      await page.fill('#profile_name', 'E2E Renamed Me');
      await page.fill('#profile_introduction', 'Tests things');
      await page.locator('form#profile').getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Profile saved').waitFor();
      await expect.poll(async () => (await findUser())?.name).toBe('E2E Renamed Me');
      expect((await findUser())?.introduction).toBe('Tests things');

      const file = page.locator('input[type="file"]');
      await file.setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
      await toast(page, 'Avatar must be JPG or PNG').waitFor();
      await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
      await toast(page, 'cannot exceed 2MB').waitFor();
      expect(uploads).toEqual([]);
      await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      await toast(page, 'Avatar updated').waitFor();
      expect(uploads).toHaveLength(1);
      await expect.poll(async () => (await findUser())?.avatar ?? '').not.toBe('');

      await page.fill('#password_password', 'me-pass-2');
      await page.fill('#password_rpassword', 'me-pass-3');
      await page.locator('form#password').getByRole('button', { name: 'Change password' }).click();
      await error(page, 'passwords do not match').waitFor();
      await page.fill('#password_rpassword', 'me-pass-2');
      await page.locator('form#password').getByRole('button', { name: 'Change password' }).click();
      await toast(page, 'Password changed').waitFor();
      expect((await api('/user/login', { username, password: digest('me-pass-2') })).code).toBe(0);
    } finally {
      await context.close();
    }
  });
});
