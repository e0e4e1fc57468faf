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
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

// Where a tag is (issue 29 item 5, docs/SHELF.md): the store wall as the people who use it. A store
// clerk opens the wall of their store, sees its tags by aisle and shelf in position order, and
// "Find" flashes the LED of the tag under the finger (the server queues
// the LED request); a stock clerk sees the same wall without Find. Both languages (screenshots
// wall-*).

const suffix = randomBytes(3).toString('hex').toUpperCase();
const password = 'wall-pass-1';
const users = { clerk: `wallc${suffix.toLowerCase()}`, stock: `walls${suffix.toLowerCase()}` } as const;
const ids = [1, 2, 3].map((n) => `${suffix}C00${n}`);

const WORDS = {
  en: {
    find: 'Find (flash LED)',
    found: "The tag's LED flashes at its next check-in",
    noFind: 'Your role cannot flash LEDs',
  },
  'zh-CN': { find: '查找（闪灯）', found: '价签将在下次唤醒时闪灯', noFind: '当前角色不能让价签闪灯' },
} as const;

describeBrowser('the store wall (/basemgr/wall)', () => {
  const browser = useBrowser();
  let token = '';
  let storeId = 0;
  const userIds: number[] = [];
  const tagIds: number[] = [];
  const idOf = new Map<string, number>();

  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await api<T>(path, body, token);
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  beforeAll(async () => {
    token = await apiLogin('admin');
    storeId = (await call<{ id: number }>('/mgr/station/add', { name: `E2E Wall ${suffix}`, code: `W${suffix}` })).id;
    await call('/user/setcurrshop', { curshop: storeId });
    await call('/mgr/tag/add', { model: '05', hardwareIds: ids });
    const barcode = `69${suffix}5`.replace(/[^0-9]/g, '3');
    await call('/mgr/product/add', { barcode, name: `Plum ${suffix}`, price: '3.20' });
    await call('/mgr/tag/bindesl', { hardwareId: ids[0], barcode });
    // Aisle A3, bay 2, shelf 4: positions 7, 8 and (the third tag) 9, given out of order.
    await call('/mgr/tag/importpositions', {
      rows: [
        { hardwareId: ids[2], aisle: 'A3', bay: '2', shelf: '4', position: 9 },
        { hardwareId: ids[0], aisle: 'A3', bay: '2', shelf: '4', position: 7 },
        { hardwareId: ids[1], aisle: 'A3', bay: '2', shelf: '4', position: 8 },
      ],
    });
    for (const t of await call<Array<{ id: number; hardwareId: string }>>('/mgr/tag/list', {
      limit: 10,
      text: suffix,
    })) {
      tagIds.push(t.id);
      idOf.set(t.hardwareId, t.id);
    }
    expect(tagIds.length).toBe(3);
    for (const [role, username] of Object.entries(users)) {
      const added = await api<{ id: number }>(
        '/user/addusr',
        {
          username,
          name: `Wall ${role} ${suffix}`,
          password: digest(password),
          rpassword: digest(password),
          roles: [role],
          shops: [storeId],
        },
        token,
      );
      expect(added.code, added.msg).toBe(0);
      userIds.push(added.data.id);
    }
  }, 120_000);

  afterAll(async () => {
    if (!token) return;
    if (userIds.length) await api('/user/delusr', { ids: userIds }, token);
    if (tagIds.length) await api('/mgr/tag/delete', { ids: tagIds }, token);
  });

  const tiles = (page: Page) => page.getByTestId('wall-tag');

  async function openWall(page: Page, username: string) {
    await login(page, username, { password, path: '/basemgr/wall' });
    await waitForShell(page);
    const set = await api('/user/setcurrshop', { curshop: storeId }, await pageToken(page));
    expect(set.code, set.msg).toBe(0);
    await page.reload();
    await page.getByTestId('wall-aisle-card').first().waitFor();
  }

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`a store clerk finds a tag on the wall by its LED (${lang})`, { timeout: 120_000 }, async () => {
      const w = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      try {
        await openWall(page, users.clerk);
        // One shelf, the three tags in position order.
        await eventually(() => tiles(page).count()).toBe(3);
        const order = await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-hardware-id')));
        expect(order).toEqual(ids);
        await expect.poll(() => page.getByTestId('wall-shelf').count()).toBe(1);
        await settled(page);
        if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
        await screenshot(page, `wall-${lang}-1280`);

        // The tag under the finger: its popover names the product and the place; Find flashes it.
        await tiles(page).first().click();
        const popover = page.getByTestId('wall-popover');
        await popover.getByText(`Plum ${suffix}`).waitFor();
        await popover.getByTestId('wall-find').getByText(w.find).waitFor();
        await screenshot(page, `wall-find-${lang}-1280`);
        // The server queues an LED request for that one tag.
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/mgr/tag/ledesl')),
          popover.getByTestId('wall-find').click(),
        ]);
        const sent = JSON.parse(answer.request().postData() ?? '{}') as { ids?: number[] };
        expect(sent.ids).toEqual([idOf.get(ids[0] as string)]);
        expect(((await answer.json()) as { code: number }).code).toBe(0);
        await toast(page, w.found).waitFor();
      } catch (err) {
        await screenshot(page, `wall-failed-${lang}`);
        throw err;
      } finally {
        await context.close();
      }
    });
  }

  it('a stock clerk sees the wall, but no Find (en)', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: { width: 1280, height: 800 } });
    try {
      await openWall(page, users.stock);
      await eventually(() => tiles(page).count()).toBe(3);
      await tiles(page).first().click();
      await page.getByTestId('wall-popover').getByText(WORDS.en.noFind).waitFor();
      expect(await page.getByTestId('wall-find').count()).toBe(0);
      // And the server refuses the LED to that role whatever the page shows.
      const refused = await api('/mgr/tag/ledesl', { ids: [tagIds[0]], led: {} }, await pageToken(page));
      expect(refused.code).toBe(1003);
    } catch (err) {
      await screenshot(page, 'wall-failed-stock');
      throw err;
    } finally {
      await context.close();
    }
  });
});
