import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
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

// Problems to act on (issue 29 item 4, docs/PROBLEMS.md) in the console, as the store manager who
// acts on them: a store of its own with a base station that never connected (station offline) and
// a tag whose product was deleted under it (misused). The page counts each kind, lists both with
// what fixes them, and a count filters the list; in both languages (screenshots problems-*).

const suffix = randomBytes(3).toString('hex').toUpperCase();
const manager = `prob${suffix.toLowerCase()}`;
const password = 'problems-pass-1';
const sn = `PRB-${suffix}`;
const hw = `${suffix}B001`;

const WORDS = {
  en: { title: 'Problems', offline: 'Base station offline', misused: 'Misused', gone: 'its product was deleted' },
  'zh-CN': { title: '待处理问题', offline: '基站离线', misused: '误用', gone: '绑定的商品已删除' },
} as const;

describeBrowser('problems to act on (/basemgr/problems)', () => {
  const browser = useBrowser();
  let token = '';
  let storeId = 0;
  let userId = 0;
  let tagId = 0;

  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await api<T>(path, body, token);
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  beforeAll(async () => {
    token = await apiLogin('admin');
    storeId = (await call<{ id: number }>('/mgr/station/add', { name: `E2E Problems ${suffix}`, code: `Q${suffix}` }))
      .id;
    await call('/user/setcurrshop', { curshop: storeId });
    await call('/mgr/ap/add', { sn });
    await call('/mgr/tag/add', { model: '05', hardwareIds: [hw] });
    const barcode = `69${suffix}9`.replace(/[^0-9]/g, '7');
    await call('/mgr/product/add', { barcode, name: `Quince ${suffix}`, price: '2.50' });
    await call('/mgr/tag/bindesl', { hardwareId: hw, barcode });
    const product = (await call<Array<{ id: number }>>('/mgr/product/list', { text: barcode }))[0];
    await call('/mgr/product/delete', { ids: [product?.id] });
    tagId = (await call<Array<{ id: number }>>('/mgr/tag/list', { limit: 5, text: hw }))[0]?.id ?? 0;
    const added = await api<{ id: number }>(
      '/user/addusr',
      {
        username: manager,
        name: `Problems manager ${suffix}`,
        password: digest(password),
        rpassword: digest(password),
        roles: ['manager'],
        shops: [storeId],
      },
      token,
    );
    expect(added.code, added.msg).toBe(0);
    userId = added.data.id;
  }, 120_000);

  afterAll(async () => {
    if (!token) return;
    if (userId) await api('/user/delusr', { ids: [userId] }, token);
    if (tagId) await api('/mgr/tag/delete', { ids: [tagId] }, token);
  });

  const rows = (page: Page) => page.getByTestId('problems-table').locator('.ant-table-tbody .ant-table-row');

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`counts and lists the store's problems with what fixes them, a count filters (${lang})`, {
      timeout: 120_000,
    }, async () => {
      const w = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      try {
        await login(page, manager, { password, path: '/basemgr/problems' });
        await waitForShell(page);
        const set = await api('/user/setcurrshop', { curshop: storeId }, await pageToken(page));
        expect(set.code, set.msg).toBe(0);
        await page.reload();
        await page.getByTestId('problems-table').waitFor();
        await eventually(() => rows(page).count()).toBe(2);
        const station = rows(page).filter({ hasText: sn });
        await station.getByText(w.offline).waitFor();
        await station.getByTestId('problem-fix').waitFor();
        const tag = rows(page).filter({ hasText: hw });
        await tag.getByText(w.misused).waitFor();
        await tag.getByText(w.gone).waitFor();
        // Nothing of a row is cut off at 1280 px: what fixes it ends inside the table.
        const table = await page.getByTestId('problems-table').boundingBox();
        for (const fix of [station, tag]) {
          const box = await fix.getByTestId('problem-fix').boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual((table?.x ?? 0) + (table?.width ?? 0));
        }
        expect(await page.getByTestId('problems-count-stationOffline').textContent()).toContain('1');
        expect(await page.getByTestId('problems-count-misused').textContent()).toContain('1');
        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `problems-${lang}-1280`);

        // A count lists that kind only.
        await page.getByTestId('problems-count-misused').click();
        await eventually(() => rows(page).count()).toBe(1);
        await rows(page).filter({ hasText: hw }).waitFor();
      } catch (err) {
        await screenshot(page, `problems-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    });
  }

  // The administrator sees the same store's problems and, below, every store's counts (the chain).
  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`the administrator's chain card counts each store's problems (${lang})`, { timeout: 180_000 }, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      try {
        await login(page, 'admin', { path: '/basemgr/problems' });
        await waitForShell(page);
        const session = await pageToken(page);
        const set = await api('/user/setcurrshop', { curshop: storeId }, session);
        expect(set.code, set.msg).toBe(0);
        // The chain counts what the server's sweep (each minute) recorded: wait for it to see the store.
        await until('the sweep recorded the store', async () => {
          const res = await api<Array<{ storeId: number; total: number }>>('/mgr/problems/chain', {}, session);
          return res.data.some((r) => r.storeId === storeId && r.total === 2);
        });
        await page.reload();
        const chain = page.getByTestId('problems-chain');
        await chain.waitFor();
        await chain.getByText(CHAIN_TITLE[lang]).waitFor();
        const row = chain.locator('.ant-table-tbody .ant-table-row').filter({ hasText: `E2E Problems ${suffix}` });
        await row.waitFor();
        // Store, total, then one column per kind: this store has 2 problems, one offline station, one misused tag.
        const cells = await row.locator('td').allTextContents();
        expect(cells[1]).toBe('2');
        const heads = await chain.locator('.ant-table-thead th').allTextContents();
        expect(cells[heads.indexOf(WORDS[lang].offline)]).toBe('1');
        expect(cells[heads.indexOf(WORDS[lang].misused)]).toBe('1');
        // Every kind's column is in view at 1280 px: the last one ends inside the card.
        const card = await chain.boundingBox();
        const last = await chain.locator('.ant-table-thead th').last().boundingBox();
        expect((last?.x ?? 0) + (last?.width ?? 0)).toBeLessThanOrEqual((card?.x ?? 0) + (card?.width ?? 0));
        await settled(page);
        await chain.scrollIntoViewIfNeeded();
        await screenshot(page, `problems-chain-${lang}-1280`);
      } catch (err) {
        await screenshot(page, `problems-chain-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    });
  }
});

const CHAIN_TITLE: Record<Lang, string> = { en: 'All stores', 'zh-CN': '各门店' };
