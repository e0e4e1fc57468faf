import { randomBytes } from 'node:crypto';
import { buildFirmwareFile, type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import {
  api,
  apiLogin,
  chooseOption,
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

// Firmware upgrades in the console: the platform operator uploads firmware files (one at a time,
// anything else refused), a tenant administrator upgrades a simulated base station from the
// store's upgrade page and watches it go from waiting to upgraded, live, in both languages.

const TEXT = {
  en: {
    serverRefusal: 'Invalid file: not an upgrade file',
    uploaded: (v: string) => `Firmware ${v} uploaded`,
    stationKind: 'Base station',
    stations: 'Base stations',
    upgrade: 'Upgrade',
    upgraded: 'Upgraded',
    queued: 'Upgrade queued for 1 device',
  },
  'zh-CN': {
    serverRefusal: '文件无效：不是升级文件',
    uploaded: (v: string) => `固件 ${v} 已上传`,
    stationKind: '基站',
    stations: '基站',
    upgrade: '升级',
    upgraded: '已升级',
    queued: '已为 1 台设备排队升级',
  },
} as const;

describeBrowser('firmware upgrades (/saadmin/sa/firmware, /basemgr/upgrade)', () => {
  const browser = useBrowser();
  let adminToken = '';
  let tenantId = 0;
  const sims: Simulator[] = [];
  const added: number[] = [];

  beforeAll(async () => {
    adminToken = await apiLogin('admin');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, adminToken);
    tenantId = info.data.tenant?.id ?? 0;
  });

  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    if (added.length) await api('/mgr/ap/delete', { ids: added }, adminToken);
  });

  async function chooseFile(page: Page, name: string, bytes: Uint8Array) {
    await page
      .getByTestId('firmware-page')
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  }

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`the operator uploads firmware and an administrator upgrades a station (${lang})`, async () => {
      const text = TEXT[lang];
      const version = `2.${lang === 'en' ? 1 : 2}.${randomBytes(1)[0]}`;
      const good = buildFirmwareFile({ kind: 'station', version, models: ['SIM-AP'], size: 48 * 1024 });
      const forged = Buffer.from(good);
      forged[forged.length - 1] ^= 1;

      const op = await newPage(browser(), { lang });
      try {
        await login(op.page, 'superadmin', { path: '/saadmin/sa/firmware' });
        await waitForShell(op.page);
        await op.page.getByTestId('firmware-table').waitFor();
        // Not firmware at all, and firmware whose payload does not match its SHA-256: refused by content.
        await chooseFile(op.page, 'notes.txt', new TextEncoder().encode('release notes'));
        await toast(op.page, text.serverRefusal).waitFor();
        await toast(op.page, text.serverRefusal).waitFor({ state: 'detached' });
        await chooseFile(op.page, 'forged.eslfw', forged);
        await toast(op.page, text.serverRefusal).waitFor();
        await chooseFile(op.page, `ap-${version}.eslfw`, good);
        await toast(op.page, text.uploaded(version)).waitFor();
        const row = op.page.getByTestId('firmware-table').locator('tr', { hasText: version });
        await eventually(() => row.textContent()).toContain(text.stationKind);
        await settled(op.page);
        await screenshot(op.page, `firmware-platform-${lang}`);
      } finally {
        await op.context.close();
      }

      // A firmware-capable simulated station in the administrator's current store.
      const sn = `FW-${lang === 'en' ? 'EN' : 'ZH'}-${randomBytes(2).toString('hex')}`.toUpperCase();
      const station = await api<{ id: number; secret: string }>(
        '/mgr/ap/add',
        { sn, name: 'E2E firmware' },
        adminToken,
      );
      expect(station.code, station.msg).toBe(0);
      added.push(station.data.id);
      const sim = await startSimulator({
        url: inject('mqttUrl'),
        stations: [{ tenantId, sn, secret: station.data.secret, tags: [], model: 'SIM-AP', firmware: true }],
        speed: 0,
        seed: sn,
      });
      sims.push(sim);
      await sim.waitFor(() => sim.station(sn).isWelcomed, { what: 'welcome' });

      const { context, page } = await newPage(browser(), { lang });
      try {
        await login(page, 'admin', { path: '/basemgr/upgrade' });
        await waitForShell(page);
        await page.getByTestId('upgrades-page').waitFor();
        await chooseOption(page, page.getByTestId('upgrade-firmware'), version);
        await chooseOption(page, page.getByTestId('upgrade-stations'), sn);
        await page.keyboard.press('Escape');
        await page.getByTestId('upgrade-start').click();
        await toast(page, text.queued).waitFor();
        const row = page.getByTestId('upgrade-table').locator('tr', { hasText: sn });
        await row.waitFor();
        await eventually(() => row.textContent()).toContain(version);
        await settled(page);
        await screenshot(page, `firmware-upgrade-running-${lang}`);
        // The station pulls, verifies, restarts (virtual seconds) and comes back on the new version.
        const st = sim.station(sn);
        for (let i = 0; i < 60 && !(st.fw.ap === version && st.isWelcomed); i++) {
          await sim.clock.advance(1000);
          await new Promise((r) => setTimeout(r, 150));
        }
        expect(st.fw.ap).toBe(version);
        await eventually(() => row.textContent()).toContain(text.upgraded);
        await settled(page);
        await screenshot(page, `firmware-upgrade-done-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
