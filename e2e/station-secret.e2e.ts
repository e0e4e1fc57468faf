import { randomBytes } from 'node:crypto';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
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
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

// The dialog shown once after a base station is added (issue 27 item 10): besides the secret it
// says where the station connects and the user name it logs in with, each with a copy button,
// as the server gives them — and a station set up with exactly those values comes online.

const TEXT = {
  en: {
    title: 'Base station added',
    address: 'Server address (MQTT)',
    username: 'User name',
    secret: 'Secret (password)',
    copied: { address: 'Address copied', username: 'User name copied', secret: 'Secret copied' },
    localOnly: 'Only a base station on the server’s own computer can reach this address',
    hint: (tenant: number, sn: string) => `The tenant number (${tenant}), a dot, then the serial number (${sn}).`,
    done: 'I have copied it',
  },
  'zh-CN': {
    title: '基站已添加',
    address: '服务器地址（MQTT）',
    username: '用户名',
    secret: '密钥（密码）',
    copied: { address: '地址已复制', username: '用户名已复制', secret: '密钥已复制' },
    localOnly: '此地址只有与服务器在同一台电脑上的基站才能连接',
    hint: (tenant: number, sn: string) => `格式为：租户编号（${tenant}）、一个点、基站序列号（${sn}）。`,
    done: '我已复制',
  },
} as const;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();

describeBrowser('the station secret dialog (/basemgr/ap)', () => {
  const browser = useBrowser();
  let token = '';
  let tenantId = 0;
  const sims: Simulator[] = [];
  const serials: string[] = [];

  beforeAll(async () => {
    token = await apiLogin('editor');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, token);
    tenantId = info.data.tenant?.id ?? 0;
    expect(tenantId).toBeGreaterThan(0);
  });

  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    if (!serials.length) return;
    const admin = await apiLogin('admin');
    const list = await api<{ id: number; sn: string }[]>('/mgr/ap/runtimelist', { page: 1, limit: 2000 }, admin);
    const ids = list.data.filter((s) => serials.includes(s.sn)).map((s) => s.id);
    if (ids.length) await api('/mgr/ap/delete', { ids }, admin);
  });

  /** Adds a station through the page's form and waits for the dialog. */
  async function addStation(page: Page, sn: string, title: string): Promise<void> {
    await page.getByTestId('add-station').click();
    await page.fill('#station_sn', sn);
    await page.fill('#station_name', 'E2E secret dialog');
    await dialog(page).locator('.ant-btn-primary').click();
    await dialog(page).getByText(title).waitFor();
    serials.push(sn);
  }

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`shows where the station connects and its user name with copy buttons, as the supervisor (${lang})`, async () => {
      const text = TEXT[lang];
      const sn = `SECRET-${lang === 'en' ? 'EN' : 'ZH'}-${randomBytes(2).toString('hex')}`.toUpperCase();
      const mqttUrl = new URL(inject('mqttUrl'));
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 900 } });
      try {
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        await login(page, 'editor', { path: '/basemgr/ap' });
        await waitForShell(page);
        await addStation(page, sn, text.title);

        // The server's broker: its real address and port (the test server listens on 127.0.0.1
        // only, which the dialog says), and the user name TENANT.SERIAL.
        const address = await page.getByTestId('station-address').inputValue();
        expect(address).toBe(`${mqttUrl.hostname}:${mqttUrl.port}`);
        const username = await page.getByTestId('station-username').inputValue();
        expect(username).toBe(`${tenantId}.${sn}`);
        const secret = await page.getByTestId('station-secret').inputValue();
        expect(secret).toMatch(/^[0-9a-f]{48}$/);
        await dialog(page).getByText(text.address, { exact: true }).waitFor();
        await dialog(page).getByText(text.username, { exact: true }).waitFor();
        await dialog(page).getByText(text.secret, { exact: true }).waitFor();
        await dialog(page).getByText(text.hint(tenantId, sn)).waitFor();
        await page.getByTestId('station-local-only').getByText(text.localOnly).waitFor();
        // No TLS listener on the test server: no encrypted address.
        expect(await page.getByTestId('station-tls-address').count()).toBe(0);

        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `station-secret-${lang}`);
        // The whole secret is in view, not cut off in its box.
        expect(
          await page
            .getByTestId('station-secret')
            .evaluate((el) => (el as HTMLInputElement).scrollWidth <= el.clientWidth),
        ).toBe(true);

        // Each copy button puts its value on the clipboard.
        for (const [id, value] of [
          ['address', address],
          ['username', username],
          ['secret', secret],
        ] as const) {
          await page.getByTestId(`copy-${id}`).click();
          await toast(page, text.copied[id]).waitFor();
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
        }

        // A station given exactly these three values logs in and is welcomed.
        const sim = await startSimulator({
          url: `mqtt://${address}`,
          stations: [{ tenantId: Number(username.split('.')[0]), sn: username.split('.')[1] ?? '', secret, tags: [] }],
          speed: 0,
          seed: sn,
        });
        sims.push(sim);
        await sim.waitFor(() => sim.station(sn).isWelcomed, { what: 'welcome' });
        await dialog(page).getByRole('button', { name: text.done }).click();
        await dialog(page).waitFor({ state: 'hidden' });
      } finally {
        await context.close();
      }

      // On a phone the dialog keeps every value readable.
      const phone = await newPage(browser(), { lang, viewport: { width: 390, height: 844 } });
      try {
        await login(phone.page, 'editor', { path: '/basemgr/ap' });
        await waitForShell(phone.page);
        const second = `${sn}-P`;
        await addStation(phone.page, second, text.title);
        expect(await phone.page.getByTestId('station-username').inputValue()).toBe(`${tenantId}.${second}`);
        // Each value has the dialog's width, the secret all in view over two lines.
        const box = await phone.page.getByTestId('station-address').boundingBox();
        expect(box?.width ?? 0).toBeGreaterThan(250);
        const secret = phone.page.getByTestId('station-secret');
        expect(await secret.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
        expect(await secret.inputValue()).toMatch(/^[0-9a-f]{48}$/);
        await settled(phone.page);
        await screenshot(phone.page, `station-secret-phone-${lang}`);
      } finally {
        await phone.context.close();
      }
    });
  }
});
