import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  eventually,
  expect,
  login,
  newPage,
  openMenu,
  screenshot,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/**
 * Each store role does its own work in the browser, and sees nothing of what its role may not
 * do (issue: store staff could reach only the dashboard).
 */

const prefix = randomBytes(3).toString('hex').toUpperCase();
const hardwareId = `${prefix}0001`;
const barcode = `ROLE${prefix}`;
const productName = `Role test tea ${prefix}`;
const templateName = `Role test label ${prefix}`;

const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
const menu = (page: Page, name: string) => page.locator(`[data-testid="menu-${name}"]`);

/** The menu entries a role sees after opening `group` (antd renders a group's items once it opens). */
async function menuNames(page: Page, group = 'basemgr'): Promise<string[]> {
  await menu(page, group).click();
  await settled(page);
  return page
    .locator('[data-testid="sidebar"] [data-testid^="menu-"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').slice('menu-'.length)));
}

describeBrowser('each store role at its own work', () => {
  const browser = useBrowser();
  let admin = '';
  let tagId = 0;
  let productId = 0;
  let stockProductId = 0;

  beforeAll(async () => {
    admin = await apiLogin('admin');
    // The clerk's current store is where their tag and product must be.
    const clerk = await apiLogin('clerk');
    const info = await api<{ curshop: { id: number } | null }>('/user/info', {}, clerk);
    const store = info.data.curshop?.id;
    expect(store).toBeTypeOf('number');
    expect((await api('/user/setcurrshop', { curshop: store }, admin)).code).toBe(0);
    const product = await api<{ id: number }>('/mgr/product/add', { barcode, name: productName, price: '3.20' }, admin);
    expect(product.code, product.msg).toBe(0);
    productId = product.data.id;
    const tags = await api<{ tags: { id: number }[] }>(
      '/mgr/tag/add',
      { model: '0a', hardwareIds: [hardwareId] },
      admin,
    );
    expect(tags.code, tags.msg).toBe(0);
    tagId = tags.data.tags[0]?.id ?? 0;
    // The stock clerk edits the same barcode in their own current store.
    const stock = await apiLogin('stock');
    const stockInfo = await api<{ curshop: { id: number } | null }>('/user/info', {}, stock);
    expect((await api('/user/setcurrshop', { curshop: stockInfo.data.curshop?.id }, admin)).code).toBe(0);
    if (stockInfo.data.curshop?.id !== store) {
      const own = await api<{ id: number }>('/mgr/product/add', { barcode, name: productName, price: '3.20' }, admin);
      expect(own.code, own.msg).toBe(0);
      stockProductId = own.data.id;
    }
  });

  afterAll(async () => {
    if (stockProductId) await api('/mgr/product/delete', { ids: [stockProductId] }, admin);
    const clerk = await apiLogin('clerk');
    const info = await api<{ curshop: { id: number } | null }>('/user/info', {}, clerk);
    await api('/user/setcurrshop', { curshop: info.data.curshop?.id }, admin);
    if (tagId) await api('/mgr/tag/delete', { ids: [tagId] }, admin);
    if (productId) await api('/mgr/product/delete', { ids: [productId] }, admin);
  });

  it('a store clerk binds a tag on the tags page, and sees no administration', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'clerk');
      const names = await menuNames(page);
      expect(names).toEqual(expect.arrayContaining(['dashboard', 'basemgr', 'station', 'esl', 'product']));
      for (const refused of ['ap', 'logmgr', 'tmpl', 'system']) expect(names).not.toContain(refused);

      await openMenu(page, 'basemgr', 'esl', '/basemgr/esl');
      await waitForShell(page);
      expect(await page.getByTestId('add-tags').count()).toBe(0);
      await page.getByTestId('bind-tags').click();
      await page.fill('#bindTag_hardwareId', hardwareId);
      await page.keyboard.press('Enter');
      await page.fill('#bindTag_barcode', barcode);
      await page.keyboard.press('Enter');
      await page.getByTestId('bound-item').filter({ hasText: productName }).waitFor();
      await dialog(page).locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
      const tags = await api<{ hardwareId: string; product: { barcode: string } | null }[]>(
        '/mgr/tag/list',
        { page: 1, limit: 10, text: hardwareId },
        await apiLogin('clerk'),
      );
      expect(tags.data[0]?.product?.barcode).toBe(barcode);
      await screenshot(page, 'role-clerk-tags-en');

      await page.goto('/system/index');
      await page.waitForURL((url) => url.pathname === '/401');
    } finally {
      await context.close();
    }
  });

  it('a stock clerk edits a product and may import, in Chinese', async () => {
    const { context, page } = await newPage(browser(), { lang: 'zh-CN' });
    try {
      await login(page, 'stock');
      const names = await menuNames(page);
      expect(names).toEqual(expect.arrayContaining(['station', 'esl', 'product']));
      expect(names).not.toContain('ap');
      expect(names).not.toContain('logmgr');
      expect(names).not.toContain('tmpl');

      await openMenu(page, 'basemgr', 'product', '/basemgr/product');
      await waitForShell(page);
      await page.getByTestId('import-products').waitFor();
      await page.fill('#productFilter_text', barcode);
      // antd spaces a two-character Chinese button label (查 询).
      await page
        .locator('form#productFilter')
        .getByRole('button', { name: /查\s?询/ })
        .click();
      const row = page.getByTestId('product-table').locator('.ant-table-row', { hasText: barcode });
      await eventually(() => row.count()).toBe(1);
      await row.getByRole('button', { name: /编\s?辑/ }).click();
      await page.fill('#product_price', '2.90');
      await dialog(page)
        .getByRole('button', { name: /保\s?存/ })
        .click();
      await eventually(async () => {
        const found = await api<{ price: string }[]>('/mgr/product/list', { page: 1, limit: 5, text: barcode }, admin);
        return found.data[0]?.price;
      }).toBe('2.90');
      await screenshot(page, 'role-stock-products-zh-CN');
    } finally {
      await context.close();
    }
  });

  it('a store manager reads the logs and the base stations, and cannot add one', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'manager');
      const names = await menuNames(page);
      expect(names).toEqual(expect.arrayContaining(['basemgr', 'logmgr', 'tmpl', 'ap', 'esl']));
      expect(names).not.toContain('system');

      await openMenu(page, 'basemgr', 'ap', '/basemgr/ap');
      await waitForShell(page);
      expect(await page.getByTestId('add-station').count()).toBe(0);
      await openMenu(page, 'logmgr', 'opLog', '/logmgr/op');
      await page.locator('.ant-table-row').first().waitFor();
      await screenshot(page, 'role-manager-oplog-en');
    } finally {
      await context.close();
    }
  });

  it('a supervisor adds a template, and sees no user administration', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'editor');
      const names = await menuNames(page, 'tmpl');
      expect(names).toEqual(expect.arrayContaining(['basemgr', 'logmgr', 'tmpl', 'tmplIndex']));
      expect(names).not.toContain('system');
      await openMenu(page, 'tmpl', 'tmplIndex', '/tmpl/index');
      await waitForShell(page);
      await page.getByTestId('tmpl-add').click();
      await page.fill('#tmpl-add_name', templateName);
      await dialog(page).getByRole('button', { name: 'Create and edit' }).click();
      await page.waitForURL((url) => url.pathname === '/tmpl/tmpledit');
      await page.locator('[data-testid="template-editor"]').waitFor();
      const list = await api<{ id: number; name: string }[]>(
        '/mgr/templ/list',
        { page: 1, limit: 50, name: templateName },
        admin,
      );
      const made = list.data.find((t) => t.name === templateName);
      expect(made).toBeDefined();
      if (made) await api('/mgr/templ/delete', { ids: [made.id] }, admin);
      await page.goto('/system/conf');
      await page.waitForURL((url) => url.pathname === '/401');
      await page.goto('/system/setme');
      await page.locator('#profile_name').waitFor();
    } finally {
      await context.close();
    }
  });
});
