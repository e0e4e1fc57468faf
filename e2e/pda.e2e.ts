import { randomBytes } from 'node:crypto';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { type Db, openDatabase } from '../apps/server/src/db/database';
import {
  api,
  apiLogin,
  chineseFontLoaded,
  describeBrowser,
  expect,
  type Lang,
  newPage,
  screenshot,
  settled,
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
  product: { barcode: string; name: string } | null;
}

const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 90_000, interval: 250 });

async function until(what: string, holds: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await holds()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Types a code the way a wedge scanner does: no field focused, keys back to back, then Enter. */
async function wedgeScan(page: Page, code: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.type(code, { delay: 0 });
  await page.keyboard.press('Enter');
}

/** Text that does not fit its box at this width (cut off or spilling sideways). */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth)
      out.push(`page ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll<HTMLElement>(
      'button, h1, h2, p, dt, dd, label, li, figcaption, .row-sub',
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
    for (const lang of ['en', 'zh-CN'] as const) {
      await until(`tag ${tags[lang].hw} shows its unbound label`, async () => {
        const r = await tagRow(tags[lang].hw);
        return r.shownVer !== null && !r.pending;
      });
    }
    // The third tag no station hears: its label update ends failed (as the engine records a
    // timeout), written where only the delivery layer writes.
    const url = inject('databaseUrl');
    expect(url, 'the global setup names the server database').not.toBe('');
    database = openDatabase(url);
    const db = database.db;
    await until('the unheard tag has a label task', async () => {
      const row = await db
        .selectFrom('device_tasks')
        .select('id')
        .where('tag_id', '=', tags.failed.id)
        .where('kind', '=', 'image')
        .executeTakeFirst();
      return row !== undefined;
    });
    await db
      .updateTable('device_tasks')
      .set({ state: 'failed', code: 'timeout', finished_at: Date.now() })
      .where('tag_id', '=', tags.failed.id)
      .where('kind', '=', 'image')
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
        await card.locator('img[data-testid="screen-shown"]').waitFor();
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
        await settled(page);
        await screenshot(page, `pda-bound-${lang}`);

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
        expect(await page.getByTestId('failed-list').locator(`button[data-hw="${tag.hw}"]`).count()).toBe(0);
        expect(await clipped(page)).toEqual([]);
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

  it('refuses what a role may not do: a stock keeper gets no LED button, and the server refuses the flash', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: VIEWPORT });
    try {
      await signIn(page, 'en', 'stock');
      await page.getByTestId('tab-lookup').click();
      await wedgeScan(page, tags.en.hw);
      await page.locator(`[data-testid="tag-card"][data-hw="${tags.en.hw}"]`).waitFor();
      expect(await page.getByTestId('led').count()).toBe(0);
      const stock = await apiLogin('stock');
      const refused = await api(
        '/mgr/tag/ledesl',
        { ids: [tags.en.id], led: { colour: 'green', onMs: 300, offMs: 300, count: 1, repeat: 1 } },
        stock,
      );
      expect(refused.code).toBe(1003);
    } finally {
      await context.close();
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
