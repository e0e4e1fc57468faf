import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { api, apiLogin, describeBrowser, digest, expect, login, newPage, useBrowser } from './support/browser';

interface TenantRow {
  id: number;
  name: string;
  account: string;
  ck: string;
}

const suffix = Date.now().toString(36);
const tenantName = `E2E Tenant ${suffix}`;
const account = `e2e_boss_${suffix}`;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });

describeBrowser('tenant management (/saadmin/sa/adm)', () => {
  const browser = useBrowser();
  let token = '';

  async function findTenant(): Promise<TenantRow | undefined> {
    const list = await api<TenantRow[]>('/saas/sa/getlist', { page: 1, limit: 2000 }, token);
    expect(list.code).toBe(0);
    return list.data.find((t) => t.name === tenantName);
  }

  beforeAll(async () => {
    token = await apiLogin('superadmin');
  });

  afterAll(async () => {
    const left = await findTenant();
    if (left) await api('/saas/sa/sadeltenant', { ids: [left.id] }, token);
  });

  it('lets the platform operator add a tenant, renew its key, reset its password and delete it', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'superadmin', { path: '/saadmin/sa/adm' });
      await page.locator('.ant-card-head-title', { hasText: 'Tenants' }).waitFor();
      await page.locator('.ant-table-row').first().waitFor();

      await page.getByRole('button', { name: 'Add tenant' }).click();
      await dialog(page).getByRole('button', { name: 'Add tenant' }).click();
      for (const text of ['Name cannot be empty', 'username cannot be empty', 'password cannot be empty']) {
        await error(page, text).first().waitFor();
      }
      await page.fill('#tenant_name', tenantName);
      await page.fill('#tenant_company', 'E2E Company');
      await page.fill('#tenant_account', account);
      await page.fill('#tenant_sapwd', 'boss-pass-1');
      await page.fill('#tenant_rsapwd', 'boss-pass-x');
      await dialog(page).getByRole('button', { name: 'Add tenant' }).click();
      await error(page, 'passwords do not match').waitFor();
      await page.fill('#tenant_rsapwd', 'boss-pass-1');
      await dialog(page).getByRole('button', { name: 'Add tenant' }).click();
      await toast(page, `Tenant ${tenantName} added`).waitFor();
      const row = page.locator('.ant-table-row', { hasText: tenantName });
      await row.waitFor();
      const added = await findTenant();
      expect(added?.account).toBe(account);
      // sapwd went out digested: the tenant's administrator signs in with the typed password.
      expect((await api('/user/login', { username: account, password: digest('boss-pass-1') })).code).toBe(0);

      // Renew the key, confirmed; the new key is shown and replaces the old one.
      await row.getByRole('button', { name: 'Renew key' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Renew key' }).click();
      await page.locator('.ant-modal-confirm-title', { hasText: `New API key of ${tenantName}` }).waitFor();
      await expect.poll(async () => (await findTenant())?.ck).not.toBe(added?.ck);
      const renewed = await findTenant();
      expect(await page.locator('.ant-modal-confirm').textContent()).toContain(renewed?.ck);
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
      await expect.poll(() => row.textContent()).toContain(renewed?.ck ?? '-');

      // Reset the administrator's password: typed twice, then confirmed.
      await row.getByRole('button', { name: 'Reset password' }).click();
      await page.fill('#resetPwd_pwd', 'boss-pass-2');
      await page.fill('#resetPwd_rpwd', 'boss-pass-3');
      await dialog(page).getByRole('button', { name: 'Reset password' }).click();
      await error(page, 'passwords do not match').waitFor();
      await page.fill('#resetPwd_rpwd', 'boss-pass-2');
      await dialog(page).getByRole('button', { name: 'Reset password' }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Reset password' }).click();
      await toast(page, 'Password reset').waitFor();
      expect((await api('/user/login', { username: account, password: digest('boss-pass-2') })).code).toBe(0);
      expect((await api('/user/login', { username: account, password: digest('boss-pass-1') })).code).not.toBe(0);

      // Delete, confirmed: the tenant and its administrator are gone.
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Tenant deleted').waitFor();
      await row.waitFor({ state: 'detached' });
      expect(await findTenant()).toBeUndefined();
      expect((await api('/user/login', { username: account, password: digest('boss-pass-2') })).code).not.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('refuses a tenant administrator, in the console and on the server', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin');
      await page.goto('/saadmin/sa/adm');
      await page.getByText('you do not have permission to access this page').waitFor();
      expect(await page.locator('.ant-table-row').count()).toBe(0);
      const adminToken = await apiLogin('admin');
      const answer = await api('/saas/sa/getlist', { page: 1, limit: 20 }, adminToken);
      expect(answer.code).toBe(1003);
    } finally {
      await context.close();
    }
  });
});
