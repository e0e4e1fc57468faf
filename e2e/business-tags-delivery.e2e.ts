import { randomBytes } from 'node:crypto';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import {
  api,
  apiLogin,
  baseUrl,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  pageToken,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
  until as waitUntil,
} from './support/browser';

// Labels reach the tags, seen in the console (issue 13): a store of its own with one simulated
// station (the e2e server runs no simulator of its own: SIM=off) hearing two tags bound to
// products. A price change turns the tag's thumbnail into the new picture — the bytes the page
// shows are compared with what /mgr/tag/screen decodes from what the tag was sent — and a
// full-store refresh shows its progress reaching its total.

const TEXT = {
  en: {
    refreshAll: 'Full store refresh',
    ok: 'OK',
    counts: (n: number) => `of ${n}`,
    title: 'Full store refresh',
    pending: 'Pending',
    done: 'Done',
    attempts: 'Attempts',
    wake: 'The tag checks in every 10 s',
  },
  'zh-CN': {
    refreshAll: '全店刷新',
    ok: '确定',
    counts: (n: number) => `共 ${n}`,
    title: '全店刷新',
    pending: '待更新',
    done: '已完成',
    attempts: '尝试次数',
    wake: '价签每 10 秒唤醒一次',
  },
} as const;

const suffix = randomBytes(3).toString('hex').toUpperCase();

const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

interface TagRow {
  id: number;
  hardwareId: string;
  shownVer: string | null;
  desiredVer: string | null;
  pending: boolean;
}

/** A long wait: a wake is half a second of real time, but the machine is shared. */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000, interval: 250 });

/** The shared wait, with this file's 60 s. */
const until = (what: string, holds: () => Promise<boolean>) => waitUntil(what, holds, 60_000);

describeBrowser('tags page: screens and request progress (/basemgr/esl)', () => {
  const browser = useBrowser();
  let token = '';
  let sim: Simulator | undefined;
  let storeId = 0;
  const tags: { hw: string; id: number; productId: number }[] = [];

  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await api<T>(path, body, token);
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  /** The PNG /mgr/tag/screen answers for a tag's screen, base64. */
  const screenBytes = async (id: number, which: 'shown' | 'desired') => {
    const res = await fetch(`${baseUrl()}/api/mgr/tag/screen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify({ id, which }),
    });
    expect(res.headers.get('content-type')).toContain('image/png');
    return Buffer.from(await res.arrayBuffer()).toString('base64');
  };

  const tagRow = async (id: number) => {
    const rows = await call<TagRow[]>('/mgr/tag/list', { page: 1, limit: 10, text: suffix });
    const row = rows.find((r) => r.id === id);
    if (!row) throw new Error(`tag ${id} not listed`);
    return row;
  };

  beforeAll(async () => {
    token = await apiLogin('admin');
    const info = await api<{ tenant: { id: number } | null }>('/user/info', {}, token);
    const tenantId = info.data.tenant?.id ?? 0;
    const store = await call<{ id: number }>('/mgr/station/add', {
      name: `E2E Delivery ${suffix}`,
      code: `D${suffix}`,
    });
    storeId = store.id;
    await call('/user/setcurrshop', { curshop: storeId });
    const station = await call<{ sn: string; secret: string }>('/mgr/ap/add', { sn: `DLV-${suffix}` });
    const template = await call<{ id: number }>('/mgr/templ/addtemple', { name: `E2E price ${suffix}`, model: '05' });
    await call('/mgr/templ/alerttempData', { id: template.id, doc });
    await call('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const hws = [`${suffix}D001`, `${suffix}D002`];
    await call('/mgr/tag/add', { model: '05', hardwareIds: hws });
    for (const [i, hw] of hws.entries()) {
      const product = await call<{ id: number }>('/mgr/product/add', {
        barcode: `69${suffix}${i}`.replace(/[^0-9A-Z]/g, '0'),
        name: `Apple ${suffix} ${i}`,
        price: `${3 + i}.50`,
      });
      await call('/mgr/tag/bindesl', { hardwareId: hw, barcode: `69${suffix}${i}`.replace(/[^0-9A-Z]/g, '0') });
      const row = (await call<TagRow[]>('/mgr/tag/list', { page: 1, limit: 10, text: hw }))[0];
      tags.push({ hw, id: row.id, productId: product.id });
    }
    // Ten virtual seconds between wakes, twenty times faster than real time: a wake every 0.5 s.
    sim = await startSimulator({
      url: inject('mqttUrl'),
      stations: [
        {
          tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: hws.map((hw, i) => ({ id: hw, hw: '05', wakeS: 10, x: 2 + i, y: 1 })),
        },
      ],
      speed: 20,
      seed: suffix,
    });
    await sim.waitFor(() => sim?.stations.every((s) => s.isWelcomed) ?? false, { what: 'welcome' });
    // Both tags get their first label: shown = desired, nothing pending.
    for (const t of tags) {
      await until(`tag ${t.hw} shows its first label`, async () => {
        const r = await tagRow(t.id);
        return r.shownVer !== null && !r.pending;
      });
    }
  });

  afterAll(async () => {
    await sim?.stop();
    if (storeId && token) {
      await api('/mgr/tag/delete', { ids: tags.map((t) => t.id) }, token);
    }
  });

  /** Opens the tags page in the test's store, filtered on this run's tags. */
  async function openTags(page: Page): Promise<void> {
    await login(page, 'admin', { path: '/basemgr/esl' });
    await waitForShell(page);
    const pageSession = await pageToken(page);
    const set = await api('/user/setcurrshop', { curshop: storeId }, pageSession);
    expect(set.code, set.msg).toBe(0);
    await page.reload();
    await page.getByTestId('tag-table').waitFor();
    await page.fill('#tagFilter_text', suffix);
    await page.locator('form#tagFilter button[type="submit"]').click();
    await expect.poll(() => rowOf(page, tags[1].hw).count(), { timeout: 15_000 }).toBe(1);
  }

  const rowOf = (page: Page, hw: string) =>
    page.getByTestId('tag-table').locator('.ant-table-tbody .ant-table-row', { hasText: hw });

  /** The base64 PNG of the thumbnail (a data URL), and the version it stands for. */
  const thumbnail = async (page: Page, hw: string) => {
    const img = rowOf(page, hw).locator('img[data-testid="screen-shown"]');
    if ((await img.count()) === 0) return { ver: '', png: '' };
    const src = (await img.getAttribute('src')) ?? '';
    return { ver: (await img.getAttribute('data-ver')) ?? '', png: src.replace(/^data:image\/png;base64,/, '') };
  };

  const prices = { 'zh-CN': '12.30', en: '45.60' } as const;

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`a price change turns the thumbnail into the new picture; a full-store refresh shows its progress (${lang})`, async () => {
      const text = TEXT[lang];
      const [tag] = tags;
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1440, height: 900 } });
      try {
        await openTags(page);
        // The thumbnail is the picture the tag was sent, byte for byte.
        await slowly(async () => (await thumbnail(page, tag.hw)).png.length > 0).toBe(true);
        const before = await thumbnail(page, tag.hw);
        expect(before.png).toBe(await screenBytes(tag.id, 'shown'));
        expect(before.ver).toBe((await tagRow(tag.id)).shownVer);
        await settled(page);
        await screenshot(page, `business-tags-delivery-before-${lang}`);

        // A price change (API, as an import or the products page would make it) while the
        // station is away: the tag cannot take it, so its row shows the label it is about to
        // show beside the one it shows, marked pending, and the detail says the task waits.
        const station = sim?.stations[0];
        await station?.disconnect();
        await call('/mgr/product/alert', { id: tag.productId, price: prices[lang] });
        const cell = rowOf(page, tag.hw).getByTestId('screen-cell');
        await slowly(() => cell.getAttribute('data-pending')).toBe('true');
        const desired = cell.locator('img[data-testid="screen-desired"]');
        await desired.waitFor();
        await slowly(async () => (await desired.getAttribute('src')) ?? '').toContain(
          await screenBytes(tag.id, 'desired'),
        );
        expect(await cell.textContent()).toContain(text.pending);
        // What it shows is still the old picture.
        expect((await thumbnail(page, tag.hw)).png).toBe(before.png);
        await settled(page);
        await screenshot(page, `business-tags-delivery-pending-${lang}`);

        await cell.click();
        const drawer = page.getByTestId('tag-detail-body');
        const image = drawer.locator('[data-testid="tag-task"][data-kind="image"]');
        await image.waitFor();
        expect(['render', 'queued']).toContain(await image.getAttribute('data-state'));
        expect(await drawer.textContent()).toContain(text.pending);
        expect(await drawer.locator('img[data-testid="screen-desired"]').getAttribute('src')).toContain(
          await screenBytes(tag.id, 'desired'),
        );
        await settled(page);
        await screenshot(page, `business-tags-delivery-detail-pending-${lang}`);
        await page.keyboard.press('Escape');
        await settled(page);

        // The station comes back: the tag takes the update and the page follows the notices to
        // the new picture without a reload.
        await station?.reconnect();
        await slowly(async () => (await thumbnail(page, tag.hw)).ver).not.toBe(before.ver);
        await slowly(async () => (await tagRow(tag.id)).pending).toBe(false);
        await slowly(async () => (await thumbnail(page, tag.hw)).ver).toBe((await tagRow(tag.id)).shownVer);
        await slowly(() => cell.getAttribute('data-pending')).toBe('false');
        const after = await thumbnail(page, tag.hw);
        expect(after.png).not.toBe(before.png);
        expect(after.png).toBe(await screenBytes(tag.id, 'shown'));
        // And the tag itself shows what it was sent: the server's picture is the desired one.
        expect(after.png).toBe(await screenBytes(tag.id, 'desired'));
        await settled(page);
        await screenshot(page, `business-tags-delivery-after-${lang}`);

        // The detail: both screens large, the task done through the tag's station, with its attempts.
        await cell.click();
        await drawer.locator('img[data-testid="screen-shown"]').waitFor();
        expect(
          ((await drawer.locator('img[data-testid="screen-shown"]').getAttribute('src')) ?? '').endsWith(after.png),
        ).toBe(true);
        await slowly(() => image.getAttribute('data-state')).toBe('done');
        const card = (await image.textContent()) ?? '';
        expect(card).toContain(`DLV-${suffix}`);
        expect(card).toContain(text.done);
        expect(card).toMatch(new RegExp(`${text.attempts}\\s*[1-9]`));
        expect(await drawer.textContent()).toContain(text.wake);
        await settled(page);
        await screenshot(page, `business-tags-delivery-detail-${lang}`);
        await page.keyboard.press('Escape');
        await settled(page);

        // Full-store refresh, forced by nobody: progress from the notices reaches its total.
        await page.getByRole('button', { name: text.refreshAll }).click();
        await page.locator('.ant-popover:visible .ant-btn-primary').click();
        const panel = page.getByTestId('request-progress');
        await panel.waitFor();
        await slowly(() => panel.getAttribute('data-finished')).toBe('true');
        const total = Number(await panel.getAttribute('data-total'));
        const done = Number(await panel.getAttribute('data-done'));
        const failed = Number(await panel.getAttribute('data-failed'));
        expect(done + failed).toBe(total);
        expect(failed).toBe(0);
        const id = Number(await panel.getAttribute('data-request-id'));
        const progress = await call<{ total: number; done: number; status: string }>('/mgr/request/get', { id });
        expect(progress).toMatchObject({ total, done, status: 'done' });
        expect(await panel.textContent()).toContain(text.title);
        expect(await page.getByTestId('request-counts').textContent()).toContain(text.counts(total));
        await page.getByTestId('request-outcome').waitFor();
        // The bar at 100 %.
        expect(await panel.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
        await settled(page);
        await screenshot(page, `business-tags-delivery-refresh-${lang}`);
      } finally {
        await context.close();
      }
    }, 240_000);
  }
});
