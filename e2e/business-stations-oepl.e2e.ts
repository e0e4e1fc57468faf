import { randomBytes } from 'node:crypto';
import { type OeplAp, startOeplAp, VirtualClock } from '@esl/simulator';
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
  screenshot,
  settled,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

// An OpenEPaperLink access point added in the console (issue 24): the admin picks the kind, types
// the address of an emulated AP, tests the connection (the server's finding, or why not), saves;
// the server runs the bridge itself and the AP's tags arrive, heard by the new station. A manager
// sees the station and its kind but may not add, edit or test one.

const TEXT = {
  en: {
    kind: 'OpenEPaperLink access point',
    test: 'Test connection',
    found: 'Found an OpenEPaperLink access point',
    refused: 'The host refused the connection',
    added: 'Access point added',
  },
  'zh-CN': {
    kind: 'OpenEPaperLink 接入点',
    test: '测试连接',
    found: '已找到 OpenEPaperLink 接入点',
    refused: '主机拒绝连接',
    added: '接入点已添加',
  },
} as const;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const rowOf = (page: Page, sn: string) =>
  page.getByTestId('station-table').locator('.ant-table-tbody .ant-table-row', { hasText: sn });

interface TagRow {
  id: number;
  hardwareId: string;
  stationSn: string | null;
}

describeBrowser('OpenEPaperLink access points in the console (/basemgr/ap)', () => {
  const browser = useBrowser();
  const clock = new VirtualClock({ speed: 20 });
  const aps: OeplAp[] = [];
  const stations: number[] = [];
  const tagIds: number[] = [];
  let token = '';

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  afterAll(async () => {
    if (stations.length) await api('/mgr/ap/delete', { ids: stations }, token);
    if (tagIds.length) await api('/mgr/tag/delete', { ids: tagIds }, token);
    for (const ap of aps) await ap.stop();
    clock.stop();
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`admin adds an AP, tests the connection, and its tags arrive (${lang})`, { timeout: 300_000 }, async () => {
      const text = TEXT[lang];
      const prefix = `0000EE${randomBytes(3).toString('hex').toUpperCase()}`;
      const macs = [0, 1, 2].map((i) => `${prefix}${String(i).padStart(4, '0')}`);
      const ap = await startOeplAp({ clock, tags: macs.map((mac) => ({ mac, hwType: 0x31 })), maxsleep: 1 });
      aps.push(ap);
      const added = await api<{ tags: Array<{ id: number }> }>(
        '/mgr/tag/add',
        { model: '0F', hardwareIds: macs },
        token,
      );
      expect(added.code, added.msg).toBe(0);
      tagIds.push(...added.data.tags.map((x) => x.id));
      const sn = `OEPL-${lang === 'en' ? 'EN' : 'ZH'}-${randomBytes(2).toString('hex')}`.toUpperCase();

      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/basemgr/ap' });
        await waitForShell(page);
        await page.getByTestId('add-station').click();
        await dialog(page).getByText(text.kind).click();
        await page.fill('#station_sn', sn);
        await page.fill('#station_name', 'Shelf AP');
        // Nothing listens there: the finding says so.
        await page.fill('#station_apUrl', 'http://127.0.0.1:1');
        await dialog(page).getByRole('button', { name: text.test }).click();
        await eventually(() => page.getByTestId('ap-test-result').textContent()).toContain(text.refused);
        await settled(page);
        await screenshot(page, `business-ap-oepl-test-failed-${lang}`);
        await page.fill('#station_apUrl', ap.url);
        await dialog(page).getByRole('button', { name: text.test }).click();
        await eventually(() => page.getByTestId('ap-test-result').textContent()).toContain(text.found);
        expect(await page.getByTestId('ap-test-result').textContent()).toContain('2.85');
        await settled(page);
        await screenshot(page, `business-ap-oepl-test-${lang}`);
        await dialog(page).locator('.ant-modal-footer .ant-btn-primary').click();
        await toast(page, text.added).waitFor();

        const list = await api<Array<{ id: number; sn: string }>>('/mgr/ap/runtimelist', { text: sn }, token);
        const station = list.data.find((s) => s.sn === sn);
        if (!station) throw new Error('station not added');
        stations.push(station.id);
        // The server's bridge logs in: the station goes online on the page, its tags are heard by it.
        const row = rowOf(page, sn);
        await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain(lang === 'en' ? 'Online' : '在线');
        await expect
          .poll(
            async () => {
              const tags = await api<TagRow[]>('/mgr/tag/list', { page: 1, limit: 2000, text: prefix }, token);
              for (const t of tags.data) if (!tagIds.includes(t.id)) tagIds.push(t.id);
              return tags.data.filter((t) => t.stationSn === sn).length;
            },
            { timeout: 90_000 },
          )
          .toBe(3);
        await settled(page);
        await screenshot(page, `business-ap-oepl-list-${lang}`);

        await page.goto('/basemgr/esl');
        await waitForShell(page);
        await page.fill('#tagFilter_text', prefix);
        await page.locator('form#tagFilter button[type="submit"]').click();
        await expect
          .poll(() => page.locator('.ant-table-tbody .ant-table-row', { hasText: prefix }).count(), { timeout: 30_000 })
          .toBe(3);
        // The column of the station that heard each tag, scrolled into view.
        await page
          .locator('.ant-table-content, .ant-table-body')
          .first()
          .evaluate((el) => {
            el.scrollLeft = el.scrollWidth;
          });
        await settled(page);
        await screenshot(page, `business-ap-oepl-tags-${lang}`);
      } finally {
        await context.close();
      }
    });
  }

  it('a manager sees the AP and its kind, but may not add, edit or test one', { timeout: 120_000 }, async () => {
    const managerToken = await apiLogin('manager');
    const refused = await api('/mgr/ap/testap', { apUrl: aps[0]?.url ?? 'http://127.0.0.1:1' }, managerToken);
    expect(refused.code).toBe(1003);
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'manager', { path: '/basemgr/ap' });
      await waitForShell(page);
      await page
        .getByTestId('station-table')
        .locator('.ant-table-tbody .ant-table-row', { hasText: 'OEPL-' })
        .first()
        .waitFor();
      expect(await page.getByTestId('add-station').count()).toBe(0);
      expect(await page.locator('[data-testid^="edit-OEPL-"]').count()).toBe(0);
      await settled(page);
      await screenshot(page, 'business-ap-oepl-manager-en');
    } finally {
      await context.close();
    }
  });
});
