import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  screenshotListPage,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

interface StationRow {
  id: number;
  sn: string;
  name: string;
  module: string;
}

const sn = `E2E-${randomBytes(3).toString('hex')}`.toUpperCase();

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
// The page's own table: closed dialogs keep theirs in the document.
const rows = (page: Page) => page.getByTestId('station-table').locator('.ant-table-tbody .ant-table-row');
const error = (page: Page, text: string) => page.locator('.ant-form-item-explain-error', { hasText: text });

describeBrowser('base stations page (/basemgr/ap)', () => {
  const browser = useBrowser();
  let token = '';

  async function findStation(): Promise<StationRow | undefined> {
    const list = await api<StationRow[]>('/mgr/ap/runtimelist', { page: 1, limit: 2000, text: sn }, token);
    expect(list.code).toBe(0);
    return list.data.find((s) => s.sn === sn);
  }

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  afterAll(async () => {
    const left = await findStation();
    if (left) await api('/mgr/ap/delete', { ids: [left.id] }, token);
  });

  it('adds a base station, shows its secret once, filters, opens a command window, deletes with confirmation', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await login(page, 'admin', { path: '/basemgr/ap' });
      await waitForShell(page);

      await page.getByTestId('add-station').click();
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'AP serial number cannot be empty').waitFor();
      await page.fill('#station_sn', 'bad sn!');
      await dialog(page).getByRole('button', { name: 'Save' }).click();
      await error(page, 'Only letters, digits, _ and - are allowed').waitFor();
      await page.fill('#station_sn', sn.toLowerCase());
      await page.fill('#station_name', 'E2E entrance');
      await page.fill('#station_module', '2.4G');
      await dialog(page).getByRole('button', { name: 'Save' }).click();

      // The secret, once, with a copy button.
      await dialog(page).getByText('Base station added').waitFor();
      const secret = await page.getByTestId('station-secret').inputValue();
      expect(secret).toMatch(/^[0-9a-f]{32,}$/);
      await page.getByTestId('copy-secret').click();
      await toast(page, 'Secret copied').waitFor();
      await dialog(page).getByRole('button', { name: 'I have copied it' }).click();
      await dialog(page)
        .waitFor({ state: 'detached' })
        .catch(() => undefined);

      const saved = await findStation();
      expect(saved).toMatchObject({ sn, name: 'E2E entrance', module: '2.4G' });
      const row = page.getByTestId('station-table').locator('.ant-table-row', { hasText: sn });
      await row.waitFor();

      // Filter by serial number: only the new station is left.
      await page.fill('#stationFilter_text', sn);
      await page.locator('form#stationFilter').getByRole('button', { name: 'Search' }).click();
      await eventually(() => rows(page).count()).toBe(1);
      // A station that never reported has no heartbeat and no figures yet.
      await eventually(() => row.textContent()).toContain('Never');

      // A station that is not connected has no command window, and no configuration applied yet.
      expect(await row.getByRole('button', { name: 'Command window' }).isDisabled()).toBe(true);
      await eventually(() => row.textContent()).toContain('Not set');

      // Delete asks first; cancelling keeps the station.
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Cancel' }).click();
      expect(await findStation()).toBeDefined();
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Base station deleted').waitFor();
      await row.waitFor({ state: 'detached' });
      expect(await findStation()).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows the page in ${lang}`, () =>
      screenshotListPage(browser(), lang, {
        path: '/basemgr/ap',
        heading: lang === 'en' ? 'Base stations' : '基站列表',
        rows,
        artifact: `business-ap-${lang}`,
      }));
  }
});
