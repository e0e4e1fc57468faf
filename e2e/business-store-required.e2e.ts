import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, it } from 'vitest';
import { api, apiLogin, describeBrowser, digest, expect, login, newPage, useBrowser } from './support/browser';

interface TenantRow {
  id: number;
  name: string;
}

const suffix = randomBytes(3).toString('hex');
const tenantName = `E2E no stores ${suffix}`;
const account = `e2e-nostore-${suffix}`;
const password = 'nostore123';

// A new tenant has no stores, so its administrator has no current store.
describeBrowser('base stations, tags and products without a current store', () => {
  const browser = useBrowser();
  let operator = '';

  async function findTenant(): Promise<TenantRow | undefined> {
    const list = await api<TenantRow[]>('/saas/sa/getlist', { page: 1, limit: 2000 }, operator);
    return list.data.find((t) => t.name === tenantName);
  }

  beforeAll(async () => {
    operator = await apiLogin('superadmin');
    const added = await api('/saas/sa/addtenant', { name: tenantName, account, sapwd: digest(password) }, operator);
    expect(added.code).toBe(0);
  });

  afterAll(async () => {
    const left = await findTenant();
    if (left) await api('/saas/sa/sadeltenant', { ids: [left.id] }, operator);
  });

  it("says 'Please set store first' on each page, and the server agrees", async () => {
    const token = await apiLogin(account, password);
    const refused = await api('/mgr/tag/list', { page: 1, limit: 20 }, token);
    expect(refused.code).toBe(1008);

    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, account, { password, path: '/basemgr/esl' });
      // A tenant with no store at all is shown the first-run guidance (issue 27 item 6), not a
      // top-bar choice it cannot make.
      for (const path of ['/basemgr/esl', '/basemgr/ap', '/basemgr/product']) {
        await page.goto(path);
        const notice = page.getByTestId('no-store-yet');
        await notice.waitFor();
        expect(await notice.textContent()).toContain('No store yet');
        await page.getByRole('button', { name: 'Create the first store' }).waitFor();
      }
    } finally {
      await context.close();
    }
  });
});
