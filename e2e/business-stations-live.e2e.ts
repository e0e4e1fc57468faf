import { randomBytes } from 'node:crypto';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
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
  useBrowser,
  waitForShell,
} from './support/browser';

// A simulated station against the test server's broker: the base-station page shows it going
// online and its heartbeat figures changing, live from the notice socket, without a reload.

const TEXT = {
  en: {
    online: 'Online',
    offline: 'Offline',
    uptime1: '1 min',
    uptime2: '2 min',
    applied: 'Applied',
    cmd: 'Command window',
    config: 'Configure',
    passwordNotSet: 'Not set',
  },
  'zh-CN': {
    online: '在线',
    offline: '离线',
    uptime1: '1分钟',
    uptime2: '2分钟',
    applied: '已生效',
    cmd: '命令窗口',
    config: '配置',
    passwordNotSet: '未设置',
  },
} as const;

describeBrowser('base stations page, live (/basemgr/ap)', () => {
  const browser = useBrowser();
  let token = '';
  let tenantId = 0;
  const sims: Simulator[] = [];
  const added: number[] = [];

  beforeAll(async () => {
    token = await apiLogin('admin');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, token);
    tenantId = info.data.tenant?.id ?? 0;
  });

  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    if (added.length) await api('/mgr/ap/delete', { ids: added }, token);
  });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows a simulated station going online and its figures updating (${lang})`, async () => {
      const text = TEXT[lang];
      const sn = `LIVE-${lang === 'en' ? 'EN' : 'ZH'}-${randomBytes(2).toString('hex')}`.toUpperCase();
      const station = await api<{ id: number; secret: string }>('/mgr/ap/add', { sn, name: 'E2E live' }, token);
      expect(station.code, station.msg).toBe(0);
      added.push(station.data.id);
      // A configuration set before it connects: pending, then applied at its hello.
      const cfg = await api(
        '/mgr/ap/setconfig',
        { id: station.data.id, config: { heartbeatS: 60, reportS: 30 } },
        token,
      );
      expect(cfg.code, cfg.msg).toBe(0);

      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/basemgr/ap' });
        await waitForShell(page);
        await page.fill('#stationFilter_text', sn);
        await page.locator('form#stationFilter button[type="submit"]').click();
        const row = rowOf(page, sn);
        await row.waitFor();
        await eventually(() => row.textContent()).toContain(text.offline);

        const sim = await startSimulator({
          url: inject('mqttUrl'),
          stations: [{ tenantId, sn, secret: station.data.secret, tags: [] }],
          speed: 0,
          seed: sn,
        });
        sims.push(sim);
        await sim.waitFor(() => sim.station(sn).isWelcomed, { what: 'welcome' });

        // Online, with its hello's figures and the configuration applied, without a reload.
        await eventually(() => row.textContent()).toContain(text.online);
        await eventually(() => row.textContent()).toContain(text.applied);
        await eventually(() => row.textContent()).toContain('1.0.0-sim');
        expect(await row.getByRole('button', { name: text.cmd }).isDisabled()).toBe(false);

        // Heartbeats (virtual minutes) change the figures on the page.
        await sim.clock.advance(60_000);
        await eventually(() => row.textContent()).toContain(text.uptime1);
        await sim.clock.advance(60_000);
        await eventually(() => row.textContent()).toContain(text.uptime2);
        expect(await row.textContent()).toMatch(/\d+(\.\d)? %/);
        await settled(page);
        await screenshot(page, `business-ap-live-${lang}`);
        // The runtime figures' columns, scrolled into view, for the eye (clipped headers).
        await page
          .getByTestId('station-table')
          .locator('.ant-table-content, .ant-table-body')
          .first()
          .evaluate((el) => {
            el.scrollLeft = el.scrollWidth;
          });
        await settled(page);
        await screenshot(page, `business-ap-live-figures-${lang}`);

        // The configuration editor: the WiFi password is a masked field saying whether one is set.
        await row.getByRole('button', { name: text.config }).click();
        await page.getByTestId('wifi-password-state').filter({ hasText: text.passwordNotSet }).waitFor();
        await settled(page);
        await screenshot(page, `business-ap-config-${lang}`);
        await page.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    });
  }

  it('runs a command in the command window and shows its output', async () => {
    const sim = sims[sims.length - 1];
    if (!sim) throw new Error('no simulated station');
    const sn = sim.stations[0]?.key.sn ?? '';
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/basemgr/ap' });
      await waitForShell(page);
      await page.fill('#stationFilter_text', sn);
      await page.locator('form#stationFilter button[type="submit"]').click();
      const row = rowOf(page, sn);
      await eventually(() => row.textContent()).toContain('Online');
      await row.getByRole('button', { name: 'Command window' }).click();
      const input = page.getByTestId('cmd-input');
      await eventually(() => input.isEnabled()).toBe(true);
      await input.fill('status');
      await input.press('Enter');
      const screen = page.getByTestId('cmd-screen');
      await eventually(() => screen.textContent()).toMatch(/uptime \d+ s, queue 0 jobs/);
      await input.fill('rm -rf /');
      await input.press('Enter');
      await eventually(() => screen.textContent()).toContain('is not an allowed station command');
      await settled(page);
      await screenshot(page, 'business-ap-terminal-en');
    } finally {
      await context.close();
    }
  });
});

const rowOf = (page: Page, sn: string) =>
  page.getByTestId('station-table').locator('.ant-table-tbody .ant-table-row', { hasText: sn });
