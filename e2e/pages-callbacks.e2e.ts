import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject, it } from 'vitest';
import { type Db, openDatabase } from '../apps/server/src/infra/db/database';
import { seriousViolations, structureViolations } from './support/axe';
import {
  api,
  apiLogin,
  describeBrowser,
  digest,
  eventually,
  expect,
  login,
  newPage,
  screenshot,
  useBrowser,
  waitForShell,
} from './support/browser';

// The callbacks card of the parameter page (issue 15): a refused address, a saved URL, the test
// event reaching a receiver on 127.0.0.1 (the e2e server runs with CALLBACK_ALLOW_LOOPBACK=on),
// its delivery listed with its status, and a given-up event sent again, in both languages. A
// tenant of its own, so no other test's delivery results are sent anywhere.

const suffix = Date.now().toString(36);
const tenantName = `E2E Callbacks ${suffix}`;
const account = `e2e_cb_${suffix}`;
const password = 'cb-pass-1';

interface Received {
  headers: IncomingHttpHeaders;
  event: { id: string; type: string };
}

describeBrowser('callbacks on the parameter page', () => {
  const browser = useBrowser();
  let operator = '';
  let tenantId = 0;
  let server: Server;
  let receiverUrl = '';
  const got: Received[] = [];
  let database: Db | undefined;

  /** An event the sender gave up on (written where only the sender writes): its event id. */
  async function givenUp(): Promise<string> {
    database ??= openDatabase(inject('databaseUrl'));
    const db = database.db;
    const now = Date.now();
    const id = `e2e-given-up-${tenantId}-${now}`;
    await db
      .insertInto('callback_outbox')
      .values({
        tenant_id: tenantId,
        store_id: null,
        event_id: id,
        type: 'test',
        order_key: 'test',
        payload: JSON.stringify({ id, type: 'test', time: now - 86_400_000, data: { message: 'test' } }),
        state: 'failed',
        attempts: 43,
        next_at: now,
        created_at: now - 86_400_000,
        finished_at: now,
        last_status: 503,
        last_error: 'HTTP 503',
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, event: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.end('received');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/esl/callback`;
    operator = await apiLogin('superadmin');
    const added = await api<{ id: number }>(
      '/saas/sa/addtenant',
      { name: tenantName, account, sapwd: digest(password) },
      operator,
    );
    expect(added.code, added.msg).toBe(0);
    tenantId = added.data.id;
  });

  afterAll(async () => {
    await database?.close();
    if (tenantId) await api('/saas/sa/sadeltenant', { ids: [tenantId] }, operator);
    await new Promise<void>((r) => server.close(() => r()));
  });

  const card = (page: Page) => page.locator('[data-testid="callback-card"]');

  it('refuses a metadata address, saves a receiver, sends a test event and lists its delivery', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, account, { path: '/system/conf', password });
      await waitForShell(page);
      await card(page).waitFor();
      await card(page).getByText('No callbacks sent yet').waitFor();
      expect(await page.locator('[data-testid="callback-test"]').isDisabled()).toBe(true);

      await page.fill('#callback_url', 'ftp://example.com/x');
      await card(page).getByRole('button', { name: 'Save' }).click();
      await page.locator('.ant-form-item-explain-error', { hasText: 'http:// or https://' }).waitFor();

      await page.fill('#callback_url', 'http://169.254.169.254/latest/meta-data/');
      await card(page).getByRole('button', { name: 'Save' }).click();
      await page
        .locator('.ant-form-item-explain-error', {
          hasText: 'cannot point at this server, the local machine, a private network or a link-local address',
        })
        .waitFor();
      const token = await apiLogin(account, password);
      expect((await api<{ url: string }>('/user/getcallback', {}, token)).data.url).toBe('');

      await page.fill('#callback_url', receiverUrl);
      await card(page).getByRole('button', { name: 'Save' }).click();
      await page.locator('.ant-message').getByText('Saved').first().waitFor();
      await eventually(() => page.locator('[data-testid="callback-test"]').isDisabled()).toBe(false);
      await page.locator('[data-testid="callback-test"]').click();
      await page.locator('.ant-message').getByText('A test event is on its way').waitFor();

      await eventually(() => got.length).toBe(1);
      expect(got[0]?.event.type).toBe('test');
      expect(got[0]?.headers['x-esl-signature']).toMatch(/^[0-9a-f]{64}$/);
      await eventually(async () => {
        await card(page).getByRole('button', { name: 'Reload the deliveries' }).click();
        return card(page).locator('.ant-table-row').first().textContent();
      }).toContain('Delivered');
      const row = await card(page).locator('.ant-table-row').first().textContent();
      expect(row).toContain('Test event');
      expect(row).toContain('HTTP 200');

      // How long a tag may show a wrong price before it is reported (docs/PROOF.md): 15 minutes unless set.
      expect(await page.locator('#callback_priceWrongMinutes').inputValue()).toBe('15');
      await page.fill('#callback_priceWrongMinutes', '30');
      await card(page).getByRole('button', { name: 'Save' }).click();
      await eventually(
        async () => (await api<{ url: string; priceWrongMinutes: number }>('/user/getcallback', {}, token)).data,
      ).toEqual({ url: receiverUrl, priceWrongMinutes: 30 });
      await card(page).scrollIntoViewIfNeeded();
      await screenshot(page, 'callbacks-en');
      // The card with a delivery listed passes the accessibility audit the other screens pass.
      expect(await seriousViolations(page)).toEqual([]);
      expect(await structureViolations(page)).toEqual([]);

      // An event given up after a day of retries: the card offers to send it again.
      const lost = await givenUp();
      await card(page).getByRole('button', { name: 'Reload the deliveries' }).click();
      const resend = card(page).locator('[data-testid="callback-resend"]');
      await resend.waitFor();
      expect(await resend.textContent()).toContain('Resend given-up events (1)');
      await card(page).scrollIntoViewIfNeeded();
      await screenshot(page, 'callbacks-resend-en');
      await resend.click();
      await page.locator('.ant-message').getByText('Events sent again: 1').waitFor();
      await eventually(() => got.map((g) => g.event.id)).toContain(lost);
      await eventually(async () => {
        await card(page).getByRole('button', { name: 'Reload the deliveries' }).click();
        return resend.count();
      }).toBe(0);
      expect(await card(page).locator('.ant-table-row').allTextContents()).not.toContainEqual(
        expect.stringContaining('Given up'),
      );
    } finally {
      await context.close();
    }

    const zh = await newPage(browser(), { lang: 'zh-CN' });
    try {
      await login(zh.page, account, { path: '/system/conf', password });
      await waitForShell(zh.page);
      await card(zh.page).locator('.ant-table-row').first().waitFor();
      const row = await card(zh.page).locator('.ant-table-row').first().textContent();
      expect(row).toContain('已送达');
      expect(row).toContain('测试事件');
      expect(await card(zh.page).getByText('回调地址').count()).toBeGreaterThan(0);
      expect(await zh.page.inputValue('#callback_url')).toBe(receiverUrl);
      await card(zh.page).scrollIntoViewIfNeeded();
      await screenshot(zh.page, 'callbacks-zh-CN');
      await givenUp();
      await card(zh.page).getByRole('button', { name: '刷新回调记录' }).click();
      const resend = card(zh.page).locator('[data-testid="callback-resend"]');
      await resend.waitFor();
      expect(await resend.textContent()).toContain('重发已放弃的事件（1）');
      await card(zh.page).scrollIntoViewIfNeeded();
      await screenshot(zh.page, 'callbacks-resend-zh-CN');
    } finally {
      await zh.context.close();
    }
  });
});
