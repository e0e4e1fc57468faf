import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { api, apiLogin, describeBrowser, expect, login, newPage, useBrowser, waitForShell } from './support/browser';

interface StoreRow {
  id: number;
  name: string;
  code: string;
  address: string;
}

const suffix = Date.now().toString(36);
const storeName = `E2E Store ${suffix}`;
const storeCode = `E2E${suffix}`.toUpperCase();

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });

describeBrowser('stores page (/basemgr/station)', () => {
  const browser = useBrowser();
  let token = '';

  async function findStore(): Promise<StoreRow | undefined> {
    const list = await api<StoreRow[]>('/mgr/station/list', { page: 1, limit: 2000 }, token);
    expect(list.code).toBe(0);
    return list.data.find((s) => s.code === storeCode);
  }

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  afterAll(async () => {
    const left = await findStore();
    if (left) await api('/mgr/station/delete', { ids: [left.id] }, token);
  });

  it('adds, filters, edits, sets parameters of and deletes a store', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/basemgr/station' });
      await waitForShell(page);
      await page.locator('.ant-table-row').first().waitFor();

      await page.getByRole('button', { name: 'Add store' }).click();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'Name cannot be empty').waitFor();
      await error(page, 'Store code cannot be empty').waitFor();
      await page.fill('#store_name', storeName);
      await page.fill('#store_code', 'bad code!');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'Only letters, digits, _ and - are allowed').waitFor();
      await page.fill('#store_code', storeCode);
      await page.fill('#store_address', '1 Test Road');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Store added').waitFor();
      const row = page.locator('.ant-table-row', { hasText: storeCode });
      await row.waitFor();
      expect((await findStore())?.name).toBe(storeName);

      // Filter by code: only the new store is left.
      await page.fill('#storeFilter_code', storeCode);
      await page.locator('form#storeFilter').getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
      await row.waitFor();

      await row.getByRole('button', { name: 'Edit' }).click();
      await expect.poll(() => page.inputValue('#store_address')).toBe('1 Test Road');
      await page.fill('#store_address', '2 Changed Street');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Store saved').waitFor();
      await expect.poll(() => row.textContent()).toContain('2 Changed Street');
      expect((await findStore())?.address).toBe('2 Changed Street');

      // Parameters dialog: read, change, save.
      await row.getByRole('button', { name: 'Parameters' }).click();
      await expect.poll(() => page.inputValue('#storeParams_heartbeatSeconds')).not.toBe('');
      await page.fill('#storeParams_heartbeatSeconds', '120');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Parameters saved').waitFor();
      const id = (await findStore())?.id;
      const params = await api<{ params: { heartbeatSeconds: number } }>('/mgr/station/getparame', { id }, token);
      expect(params.data.params.heartbeatSeconds).toBe(120);

      await row.getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Store deleted').waitFor();
      await row.waitFor({ state: 'detached' });
      expect(await findStore()).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
