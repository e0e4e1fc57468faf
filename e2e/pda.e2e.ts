import { randomBytes } from 'node:crypto';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { type Db, openDatabase } from '../apps/server/src/infra/db/database';
import { seriousViolations } from './support/axe';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  describeBrowser,
  expect,
  type Lang,
  newPage,
  pageToken,
  screenshot,
  settled,
  until,
  useBrowser,
} from './support/browser';
import { DEMO_PASSWORD } from './support/context';

// The handheld page (/pda/, docs/PDA.md) on a 360×740 phone, signed in as the demo clerk in the
// clerk's store: a simulated station (the e2e server runs none: SIM=off) hears this run's tags,
// so a binding made on the page changes what the tag shows. Scans come in as a keyboard-wedge
// scanner types them: fast keystrokes ending with Enter, with no field focused.

const VIEWPORT = { width: 360, height: 740 };
const suffix = randomBytes(3).toString('hex').toUpperCase();
const digits = () => String(Number.parseInt(suffix, 16)).padStart(8, '0');

const TEXT = {
  en: {
    scanTag: 'Scan the tag',
    scanProduct: 'Scan the product barcode',
    updated: 'Label updated',
    current: 'Label up to date: the tag already shows this picture.',
    unbound: (hw: string) => `Tag ${hw} is unbound.`,
    flashed: 'The tag flashed its LED.',
    failure: 'Refresh timeout',
    noProduct: 'Not bound',
    signIn: 'Sign in',
  },
  'zh-CN': {
    scanTag: '请扫描价签',
    scanProduct: '请扫描商品条码',
    updated: '价签已更新',
    current: '价签已是最新：当前画面即为新画面，无需更新。',
    unbound: (hw: string) => `价签 ${hw} 已解绑。`,
    flashed: '价签已闪灯。',
    failure: '刷新超时',
    noProduct: '未绑定',
    signIn: '登录',
  },
} as const;

interface TagRow {
  id: number;
  hardwareId: string;
  shownVer: string | null;
  desiredVer: string | null;
  pending: boolean;
  lastSeen: number | null;
  label: { source: string };
  product: { barcode: string; name: string } | null;
}

const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 90_000, interval: 250 });

/**
 * Types a code the way a wedge scanner does: key events back to back with no field focused,
 * then Enter. They are raised inside the page in one go: keys sent one by one from here can
 * arrive far apart on a busy machine, and the page would rightly take them for typing.
 */
async function wedgeScan(page: Page, code: string): Promise<void> {
  await page.evaluate((text) => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const key of [...text, 'Enter']) {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    }
  }, code);
}

/** Text that does not fit its box at this width (cut off or spilling sideways). */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth)
      out.push(`page ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll<HTMLElement>(
      'button, h1, h2, p, dt, dd, label, li, figcaption, .row-sub, .row-reason',
    )) {
      if (el.offsetParent === null) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName}.${el.className}: ${el.textContent}`);
      const box = el.getBoundingClientRect();
      if (box.right > window.innerWidth + 1 || box.left < -1) out.push(`outside: ${el.textContent}`);
    }
    return out;
  });
}

describeBrowser('handheld page (/pda/) on a 360 px phone, as a store clerk', () => {
  const browser = useBrowser();
  let admin = '';
  let storeId = 0;
  let stationId = 0;
  /** The stock keeper's store (BJ001) and a tag of it. */
  const stockTag = { hw: `${suffix}5001`, id: 0, storeId: 0 };
  let sim: Simulator | undefined;
  let database: Db | undefined;
  const tags: Record<Lang | 'failed', { hw: string; id: number; barcode: string; productId: number }> = {
    en: { hw: `${suffix}E001`, id: 0, barcode: `69${digits()}1`, productId: 0 },
    'zh-CN': { hw: `${suffix}C001`, id: 0, barcode: `69${digits()}2`, productId: 0 },
    failed: { hw: `${suffix}FA01`, id: 0, barcode: '', productId: 0 },
  };

  const call = async <T>(path: string, body: unknown, token = admin): Promise<T> => {
    const res = await api<T>(path, body, token);
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };
  const tagRow = async (hw: string) => {
    const rows = await call<TagRow[]>('/mgr/tag/list', { page: 1, limit: 5, text: hw });
    const row = rows.find((r) => r.hardwareId === hw);
    if (!row) throw new Error(`tag ${hw} not listed`);
    return row;
  };

  beforeAll(async () => {
    // The clerk works in one store (SH001); the admin sets it up there.
    const clerk = await apiLogin('clerk');
    const clerkInfo = await api<{ curshop: { id: number } | null; tenant: { id: number } }>('/user/info', {}, clerk);
    storeId = clerkInfo.data.curshop?.id ?? 0;
    expect(storeId, 'the demo clerk has a store').toBeGreaterThan(0);
    const tenantId = clerkInfo.data.tenant.id;
    admin = await apiLogin('admin');
    const stock = await api<{ curshop: { id: number } | null }>('/user/info', {}, await apiLogin('stock'));
    stockTag.storeId = stock.data.curshop?.id ?? 0;
    expect(stockTag.storeId, 'the demo stock keeper has a store').toBeGreaterThan(0);
    await call('/user/setcurrshop', { curshop: stockTag.storeId });
    stockTag.id = (
      await call<{ tags: { id: number }[] }>('/mgr/tag/add', { model: '05', hardwareIds: [stockTag.hw] })
    ).tags[0].id;
    await call('/user/setcurrshop', { curshop: storeId });
    const station = await call<{ id: number; sn: string; secret: string }>('/mgr/ap/add', { sn: `PDA-${suffix}` });
    stationId = station.id;
    await call('/mgr/tag/add', { model: '05', hardwareIds: Object.values(tags).map((t) => t.hw) });
    for (const [key, t] of Object.entries(tags)) {
      t.id = (await tagRow(t.hw)).id;
      if (key === 'failed') continue;
      const product = await call<{ id: number }>('/mgr/product/add', {
        barcode: t.barcode,
        name: `PDA ${key} ${suffix}`,
        price: key === 'en' ? '4.20' : '6.80',
      });
      t.productId = product.id;
    }
    // Twenty times faster than real time: a wake every half second.
    sim = await startSimulator({
      url: inject('mqttUrl'),
      stations: [
        {
          tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: [tags.en.hw, tags['zh-CN'].hw].map((hw, i) => ({ id: hw, hw: '05', wakeS: 10, x: 2 + i, y: 1 })),
        },
      ],
      speed: 20,
      seed: suffix,
    });
    await sim.waitFor(() => sim?.stations.every((s) => s.isWelcomed) ?? false, { what: 'welcome' });
    // Both tags are heard, and have taken whatever they had to show (the unbound label, if any).
    for (const lang of ['en', 'zh-CN'] as const) {
      await until(`tag ${tags[lang].hw} is heard and up to date`, async () => {
        const r = await tagRow(tags[lang].hw);
        return r.lastSeen !== null && !r.pending;
      });
    }
    // The third tag no station hears: its label update ends failed (as the engine records a
    // timeout), written where only the delivery layer writes.
    const url = inject('databaseUrl');
    expect(url, 'the global setup names the server database').not.toBe('');
    database = openDatabase(url);
    const db = database.db;
    // No station hears it, so the engine has no label task for it: one that ended failed is put in.
    const now = Date.now();
    await db
      .insertInto('device_tasks')
      .values({
        tenant_id: tenantId,
        store_id: storeId,
        target_key: `t:${tags.failed.id}`,
        tag_id: tags.failed.id,
        kind: 'image',
        prio: 1,
        state: 'failed',
        code: 'timeout',
        detail: null,
        sent_rev: null,
        hash: null,
        size: null,
        wake_at: null,
        ttl_s: null,
        ack_deadline: null,
        done_deadline: null,
        lease_owner: null,
        lease_until: null,
        created_at: now - 60_000,
        queued_at: now - 60_000,
        rendered_at: null,
        sent_at: now - 50_000,
        accepted_at: null,
        finished_at: now,
      })
      .execute();
  });

  afterAll(async () => {
    await sim?.stop();
    await database?.close();
    if (admin) {
      await api('/user/setcurrshop', { curshop: storeId }, admin);
      await api(
        '/mgr/tag/delete',
        {
          ids: Object.values(tags)
            .map((t) => t.id)
            .filter(Boolean),
        },
        admin,
      );
      const products = Object.values(tags)
        .map((t) => t.productId)
        .filter(Boolean);
      if (products.length) await api('/mgr/product/delete', { ids: products }, admin);
      if (stationId) await api('/mgr/ap/delete', { ids: [stationId] }, admin);
      if (stockTag.id) {
        await api('/user/setcurrshop', { curshop: stockTag.storeId }, admin);
        await api('/mgr/tag/delete', { ids: [stockTag.id] }, admin);
      }
    }
  });

  async function signIn(page: Page, lang: Lang, user = 'clerk'): Promise<void> {
    await page.goto(`/pda/?store=${storeId}`);
    const form = page.getByTestId('pda-login');
    await form.waitFor();
    await page.getByRole('button', { name: TEXT[lang].signIn }).waitFor();
    expect(await clipped(page)).toEqual([]);
    await settled(page);
    if (lang === 'zh-CN') expect(await chineseFontLoaded(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pda-login-${lang}`);
    await page.fill('input[name="username"]', user);
    await page.fill('input[name="password"]', DEMO_PASSWORD);
    await page.getByTestId('pda-login-submit').click();
    await page.getByTestId('tab-bind').waitFor();
  }

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`binds a tag to a product by wedge scans and the tag's screen changes; looks it up, flashes it, unbinds it; lists failed tags (${lang})`, async () => {
      const text = TEXT[lang];
      const tag = tags[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: VIEWPORT });
      try {
        await signIn(page, lang);
        await page.getByRole('heading', { name: text.scanTag }).waitFor();

        // Bind: the tag, then the product.
        const before = await tagRow(tag.hw);
        expect(before.product).toBeNull();
        await wedgeScan(page, tag.hw);
        await page.getByRole('heading', { name: text.scanProduct }).waitFor();
        const card = page.getByTestId('tag-card');
        expect(await card.getAttribute('data-hw')).toBe(tag.hw);
        expect(await clipped(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-bind-tag-${lang}`);

        await wedgeScan(page, tag.barcode);
        const label = page.getByTestId('label-state');
        await label.waitFor();
        expect((await tagRow(tag.hw)).product?.barcode).toBe(tag.barcode);
        // The tag takes its new label from the station; the page says so and shows it.
        await slowly(() => label.getAttribute('data-state')).toBe('updated');
        expect(await label.textContent()).toContain(text.updated);
        const after = await tagRow(tag.hw);
        expect(after.pending).toBe(false);
        expect(after.shownVer).not.toBe(before.shownVer);
        const shown = page.getByTestId('tag-card').locator('img[data-testid="screen-shown"]');
        await slowly(() => shown.getAttribute('data-ver')).toBe(after.shownVer);
        expect(await page.getByTestId('tag-product').textContent()).toContain(tag.barcode);
        expect(await clipped(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-bound-${lang}`);

        // Bound again to the same product: the label comes out as the tag shows it, nothing is
        // sent, and the page says so without waiting for a new picture that will not come.
        await wedgeScan(page, tag.hw);
        await page.getByRole('heading', { name: text.scanProduct }).waitFor();
        await wedgeScan(page, tag.barcode);
        await slowly(() => label.getAttribute('data-state')).toBe('current');
        expect(await label.textContent()).toBe(text.current);
        expect((await tagRow(tag.hw)).shownVer).toBe(after.shownVer);
        expect(await clipped(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-current-${lang}`);

        // Look it up and flash its LED.
        await page.getByTestId('tab-lookup').click();
        await page.getByTestId('scan-lookup').waitFor();
        await wedgeScan(page, tag.hw);
        await page.locator(`[data-testid="tag-card"][data-hw="${tag.hw}"]`).waitFor();
        expect(await page.getByTestId('tag-product').textContent()).toContain(tag.barcode);
        expect(await page.getByTestId('tag-battery').textContent()).toMatch(/^\d+%$|^—$/);
        await page.getByTestId('led').click();
        const led = page.getByTestId('led-state');
        await led.waitFor();
        await slowly(() => led.getAttribute('data-state')).toBe('done');
        expect(await led.textContent()).toBe(text.flashed);
        expect(await clipped(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-lookup-${lang}`);

        // Unbind.
        await page.getByTestId('tab-unbind').click();
        await page.getByTestId('scan-unbind').waitFor();
        await wedgeScan(page, tag.hw);
        await page.getByTestId('unbind').click();
        await page.getByText(text.unbound(tag.hw)).waitFor();
        expect((await tagRow(tag.hw)).product).toBeNull();
        await slowly(async () => (await page.getByTestId('tag-product').textContent()) ?? '').toBe(text.noProduct);
        await settled(page);
        await screenshot(page, `pda-unbind-${lang}`);

        // The store's tags whose last update failed; a tap shows why.
        await page.getByTestId('tab-failed').click();
        const row = page.getByTestId('failed-list').locator(`button[data-hw="${tags.failed.hw}"]`);
        await row.waitFor();
        await row.getByTestId('failed-reason').waitFor();
        expect(await row.getByTestId('failed-reason').textContent()).toContain(text.failure);
        expect(await page.getByTestId('failed-list').locator(`button[data-hw="${tag.hw}"]`).count()).toBe(0);
        expect(await clipped(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-failed-${lang}`);
        await row.click();
        await page.locator(`[data-testid="tag-card"][data-hw="${tags.failed.hw}"]`).waitFor();
        const last = page.getByTestId('last-update');
        await slowly(() => last.getAttribute('data-state')).toBe('failed');
        expect(await last.textContent()).toContain(text.failure);
        expect(await clipped(page)).toEqual([]);
        await settled(page);
        await screenshot(page, `pda-failed-tag-${lang}`);
      } finally {
        await context.close();
      }
    });
  }

  it('keeps to the role and the store: a stock keeper sees only their store’s tags and gets no LED button; the server refuses the flash', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: VIEWPORT });
    try {
      await signIn(page, 'en', 'stock');
      await page.getByTestId('tab-lookup').click();
      // A tag of the clerk's store is not in the stock keeper's.
      await wedgeScan(page, tags.en.hw);
      await page.getByText(`No tag ${tags.en.hw} in this store.`).waitFor();
      await wedgeScan(page, stockTag.hw);
      await page.locator(`[data-testid="tag-card"][data-hw="${stockTag.hw}"]`).waitFor();
      expect(await page.getByTestId('lookup-reload').count()).toBe(1);
      expect(await page.getByTestId('led').count()).toBe(0);
      const refused = await api(
        '/mgr/tag/ledesl',
        { ids: [stockTag.id], led: { colour: 'green', onMs: 300, offMs: 300, count: 1, repeat: 1 } },
        await pageToken(page),
      );
      expect(refused.code).toBe(1003);
    } finally {
      await context.close();
    }
  });

  it('finds a tag by its exact ID although the barcodes of 21 newer tags contain it', async () => {
    // An all-digit tag ID inside 21 barcodes of the store: a search by text answers those
    // tags first (newest first) and the page once said the tag was not in the store.
    const wanted = `${digits()}77`;
    const others = Array.from({ length: 21 }, (_, i) => ({
      hw: `${suffix}B0${String(i).padStart(2, '0')}`,
      barcode: `6${String(i).padStart(2, '0')}${wanted}`,
    }));
    const added = await call<{ tags: { id: number }[] }>('/mgr/tag/add', {
      model: '05',
      hardwareIds: [wanted, ...others.map((o) => o.hw)],
    });
    const products: number[] = [];
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: VIEWPORT });
    try {
      for (const [i, o] of others.entries()) {
        products.push(
          (await call<{ id: number }>('/mgr/product/add', { barcode: o.barcode, name: `PDA many ${i}`, price: '1.00' }))
            .id,
        );
        await call('/mgr/tag/bindesl', { hardwareId: o.hw, barcode: o.barcode });
      }
      const byText = await call<TagRow[]>('/mgr/tag/list', { page: 1, limit: 20, text: wanted });
      expect(byText.map((r) => r.hardwareId)).not.toContain(wanted);

      await signIn(page, 'en');
      await page.getByTestId('tab-lookup').click();
      await wedgeScan(page, wanted);
      await page.locator(`[data-testid="tag-card"][data-hw="${wanted}"]`).waitFor();
      expect(await page.getByTestId('note').count()).toBe(0);
    } finally {
      await context.close();
      await api('/mgr/tag/delete', { ids: added.tags.map((x) => x.id) }, admin);
      if (products.length) await api('/mgr/product/delete', { ids: products }, admin);
    }
  });

  it('types by hand into the field: slow keys do not scan, Go does', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: VIEWPORT });
    try {
      await signIn(page, 'en');
      await page.getByTestId('tab-lookup').click();
      // Typed slowly with no field focused, then Enter: not a scan, nothing happens.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.type(tags.failed.hw, { delay: 120 });
      await page.keyboard.press('Enter');
      await page.waitForTimeout(500);
      expect(await page.getByTestId('tag-card').count()).toBe(0);
      await page.getByTestId('scan-input').fill(tags.failed.hw.toLowerCase());
      await page.getByTestId('scan-go').click();
      await page.locator(`[data-testid="tag-card"][data-hw="${tags.failed.hw}"]`).waitFor();
    } finally {
      await context.close();
    }
  });
});
