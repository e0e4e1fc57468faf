import { randomBytes } from 'node:crypto';
import type { PriceProof } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  describeBrowser,
  digest,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  pageToken,
  screenshot,
  settled,
  until,
  useBrowser,
  waitForShell,
} from './support/browser';

// Proof of price (issue 29 item 6, docs/PROOF.md) in the console, as a store manager: a store of
// its own with one simulated station and four tags — one showing its product's price, one held
// on the old price while its station is offline, one bound while it was offline (it still shows
// the unbound label), one no station hears (its screen is not known). The page lists them
// disagreeing first, "Disagreeing only" leaves three, the export downloads the same rows; in both
// languages, at 1280 and at 390 px (screenshots proof-*).

const suffix = randomBytes(3).toString('hex').toUpperCase();
const manager = `proof${suffix.toLowerCase()}`;
const password = 'proof-pass-1';
const sn = `PRF-${suffix}`;
const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

const WORDS = {
  en: {
    heading: 'Price accuracy',
    wrongOnly: 'Disagreeing only',
    agree: 'Agrees',
    disagree: 'Disagrees',
    unknown: 'Unknown',
    pending: 'New label on its way',
    search: 'Search',
    exported: 'Price check exported',
    result: 'Result',
    notThis: 'not this product',
  },
  'zh-CN': {
    heading: '价格核对',
    wrongOnly: '仅显示不一致',
    agree: '一致',
    disagree: '不一致',
    unknown: '未知',
    pending: '新标签发送中',
    search: '查询',
    exported: '价格核对已导出',
    result: '核对结果',
    notThis: '非本商品',
  },
} as const;

describeBrowser('price accuracy (/basemgr/pricecheck)', () => {
  const browser = useBrowser();
  let token = '';
  let sim: Simulator | undefined;
  let storeId = 0;
  let userId = 0;
  const tagIds: number[] = [];
  const hws = ['A001', 'A002', 'A003', 'A004'].map((x) => `${suffix}${x}`);

  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await api<T>(path, body, token);
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };
  const report = () => call<PriceProof[]>('/mgr/proof/list', { limit: 50 });

  beforeAll(async () => {
    token = await apiLogin('admin');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, token);
    const tenantId = info.data.tenant?.id ?? 0;
    storeId = (await call<{ id: number }>('/mgr/station/add', { name: `E2E Proof ${suffix}`, code: `P${suffix}` })).id;
    await call('/user/setcurrshop', { curshop: storeId });
    const station = await call<{ sn: string; secret: string }>('/mgr/ap/add', { sn });
    const template = await call<{ id: number }>('/mgr/templ/addtemple', { name: `E2E proof ${suffix}`, model: '05' });
    await call('/mgr/templ/alerttempData', { id: template.id, doc });
    await call('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    await call('/mgr/tag/add', { model: '05', hardwareIds: hws });
    const barcodes = ['1', '2', '3', '4'].map((i) => `69${suffix}${i}`.replace(/[^0-9]/g, '7'));
    for (const [i, name] of ['Apple', 'Pear', 'Plum', 'Fig'].entries()) {
      await call('/mgr/product/add', { barcode: barcodes[i], name: `${name} ${suffix}`, price: `${3 + i}.50` });
    }
    // The third tag is bound later, while its station is offline; the fourth is heard by no station.
    for (const i of [0, 1, 3]) await call('/mgr/tag/bindesl', { hardwareId: hws[i], barcode: barcodes[i] });
    const tags = await call<Array<{ id: number; hardwareId: string }>>('/mgr/tag/list', { limit: 10, text: suffix });
    for (const hw of hws) tagIds.push(tags.find((x) => x.hardwareId === hw)?.id ?? 0);
    const added = await api<{ id: number }>(
      '/user/addusr',
      {
        username: manager,
        name: `Proof manager ${suffix}`,
        password: digest(password),
        rpassword: digest(password),
        roles: ['manager'],
        shops: [storeId],
      },
      token,
    );
    expect(added.code, added.msg).toBe(0);
    userId = added.data.id;
    // Ten virtual seconds between wakes, twenty times faster than real time.
    sim = await startSimulator({
      url: inject('mqttUrl'),
      stations: [
        {
          tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: hws.slice(0, 3).map((hw, i) => ({ id: hw, hw: '05', wakeS: 10, x: 2 + i, y: 1 })),
        },
      ],
      speed: 20,
      seed: suffix,
    });
    await sim.waitFor(() => sim?.stations.every((s) => s.isWelcomed) ?? false, { what: 'welcome' });
    await call('/mgr/tag/flashallesl', {});
    await until('both heard bound tags agree', async () => {
      const rows = await report();
      return [hws[0], hws[1]].every((hw) => rows.find((r) => r.hardwareId === hw)?.state === 'agree');
    });
    // The third, unbound, confirmed the store's label for unbound tags.
    await until('the unbound tag has its label', async () => {
      const tags = await call<Array<{ hardwareId: string; shownVer: string | null; pending: boolean }>>(
        '/mgr/tag/list',
        { limit: 10, text: hws[2] },
      );
      return tags[0]?.shownVer != null && tags[0]?.pending === false;
    });
    // The station goes offline; Pear's price changes and the third tag is bound to Plum.
    await sim.station(sn).disconnect({ abrupt: true });
    const pear = (await call<Array<{ id: number }>>('/mgr/product/list', { text: barcodes[1] }))[0];
    await call('/mgr/product/alert', { id: pear?.id, price: '4.80' });
    await call('/mgr/tag/bindesl', { hardwareId: hws[2], barcode: barcodes[2] });
    await until('the held tag and the newly bound one disagree', async () => {
      const rows = await report();
      return [hws[1], hws[2]].every((hw) => rows.find((r) => r.hardwareId === hw)?.state === 'disagree');
    });
  }, 180_000);

  afterAll(async () => {
    await sim?.stop();
    if (token) {
      if (userId) await api('/user/delusr', { ids: [userId] }, token);
      await api('/mgr/tag/delete', { ids: tagIds.filter(Boolean) }, token);
    }
  });

  const rows = (page: Page) => page.getByTestId('proof-table').locator('.ant-table-tbody .ant-table-row');
  const rowOf = (page: Page, hw: string) => rows(page).filter({ hasText: hw });

  /** Signs in as the store's manager and opens the page in their store. */
  async function open(page: Page): Promise<void> {
    await login(page, manager, { password, path: '/basemgr/pricecheck' });
    await waitForShell(page);
    const set = await api('/user/setcurrshop', { curshop: storeId }, await pageToken(page));
    expect(set.code, set.msg).toBe(0);
    await page.reload();
    await page.getByTestId('proof-table').waitFor();
    await eventually(() => rows(page).count()).toBe(4);
  }

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`lists the store's tags disagreeing first, filters the disagreeing ones and exports them (${lang})`, {
      timeout: 120_000,
    }, async () => {
      const w = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      try {
        await open(page);
        await page.locator('.ant-card-head-title', { hasText: w.heading }).waitFor();
        // Disagreeing first (held on 4.50, then the newly bound one), then unknown, then agreeing.
        const order = await rows(page).evaluateAll((els) => els.map((e) => e.textContent ?? ''));
        expect(order.map((text) => hws.find((hw) => text.includes(hw)))).toEqual([hws[1], hws[2], hws[3], hws[0]]);
        const held = rowOf(page, hws[1]);
        await held.getByText(w.disagree, { exact: true }).waitFor();
        await held.getByText(w.pending).waitFor();
        await held.getByText('4.80').waitFor();
        await held.getByText('4.50').waitFor();
        await rowOf(page, hws[2]).getByText(w.disagree, { exact: true }).waitFor();
        await rowOf(page, hws[2]).getByText(w.notThis).waitFor();
        await rowOf(page, hws[3]).getByText(w.unknown, { exact: true }).waitFor();
        await rowOf(page, hws[0]).getByText(w.agree, { exact: true }).waitFor();
        await expect.poll(() => page.getByTestId('proof-disagree').textContent()).toContain('2');
        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `proof-${lang}-1280`);

        await page.getByLabel(w.wrongOnly).check();
        await page.locator('form#proofFilter').getByRole('button', { name: w.search }).click();
        await eventually(() => rows(page).count()).toBe(3);
        expect(await rowOf(page, hws[0]).count()).toBe(0);

        const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-proof').click()]);
        expect(file.suggestedFilename()).toMatch(/^price-accuracy-\d+-\d{8}\.xlsx$/);
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(await file.path());
        const sheet = book.worksheets[0];
        expect(sheet?.getRow(1).getCell(6).value).toBe(w.result);
        const exported: string[] = [];
        sheet?.eachRow((r, n) => {
          if (n > 1) exported.push(String(r.getCell(1).value));
        });
        expect(exported).toEqual([hws[1], hws[2], hws[3]]);
      } catch (err) {
        await screenshot(page, `proof-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    });

    it(`fits a 390 px phone (${lang})`, { timeout: 120_000 }, async () => {
      const w = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 390, height: 844 } });
      try {
        await open(page);
        // One column per row: the result and both prices are in view without scrolling sideways.
        const held = rowOf(page, hws[1]);
        for (const text of [w.disagree, '4.80', '4.50']) {
          const box = await held.getByText(text, { exact: true }).boundingBox();
          expect(box, text).not.toBeNull();
          expect((box?.x ?? 0) + (box?.width ?? 0), text).toBeLessThanOrEqual(390);
        }
        // The page itself is no wider than the phone.
        const widths = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          summary: document.querySelector('[data-testid="proof-summary"]')?.getBoundingClientRect().right ?? 0,
        }));
        expect(widths.page).toBeLessThanOrEqual(390);
        expect(widths.summary).toBeLessThanOrEqual(390);
        await page.getByTestId('export-proof').waitFor();
        await settled(page);
        await screenshot(page, `proof-${lang}-390`);
      } catch (err) {
        await screenshot(page, `proof-failed-390-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    });
  }
});
