import { randomBytes } from 'node:crypto';
import { TEMPLATE_VERSION } from '@esl/labels';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { seriousViolations } from './support/axe';
import {
  api,
  apiLogin,
  chooseOption,
  describeBrowser,
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

// The tags page as each store role sees it (docs/ROLES.md): each does its own tag work and is
// offered nothing its role may not do — buttons hidden, never a refusal after a click. And which
// template a tag shows (issue 13 item 0), set on the tags page: a template that does not fit the
// chosen tags is offered disabled, saying whether the size or the colours are wrong.

type RoleName = 'admin' | 'editor' | 'manager' | 'clerk' | 'stock';

/** What each role may do on the tags page (docs/ROLES.md's matrix). */
const CAN: Record<RoleName, { write: boolean; operate: boolean; rules: boolean; setTemplate: boolean }> = {
  admin: { write: true, operate: true, rules: true, setTemplate: true },
  editor: { write: true, operate: true, rules: true, setTemplate: true },
  manager: { write: true, operate: true, rules: true, setTemplate: false },
  clerk: { write: false, operate: true, rules: false, setTemplate: false },
  stock: { write: false, operate: false, rules: false, setTemplate: false },
};
const LANG_OF: Record<RoleName, Lang> = { admin: 'en', editor: 'zh-CN', manager: 'en', clerk: 'zh-CN', stock: 'en' };

const WORDS = {
  en: {
    refreshAll: 'Full store refresh',
    flash: /^Flash$/,
    ledTitle: 'LED flash',
    deliveries: 'Deliveries',
    save: /^Save$/,
    colours: 'Colours do not fit',
    size: 'Size does not fit',
    set: 'Template set on the tag',
    rules: 'Which template tags show',
    storeRules: 'Which template the tags show',
    parameters: 'Parameters',
  },
  'zh-CN': {
    refreshAll: '全店刷新',
    flash: /^闪\s*灯$/,
    ledTitle: '价签闪灯',
    deliveries: '下发情况',
    save: /^保\s*存$/,
    colours: '颜色不符',
    size: '尺寸不符',
    set: '已为 1 个价签设置模板',
    rules: '标签显示的模板',
    storeRules: '价签显示的模板',
    parameters: '参数',
  },
} as const;

const rows = (page: Page) => page.getByTestId('tag-table').locator('.ant-table-tbody .ant-table-row');
const dialog = (page: Page) => page.locator('.ant-modal-container:visible').last();
/** Error toasts: a role must never meet one on its own page. */
const errors = (page: Page) => page.locator('.ant-message .ant-message-notice-error, .ant-message-error');

describeBrowser('the tags page for each store role', () => {
  const browser = useBrowser();

  for (const role of Object.keys(CAN) as RoleName[]) {
    const can = CAN[role];
    const lang = LANG_OF[role];
    const words = WORDS[lang];
    it(`${role} (${lang}): sees the tag work of the role, and does it`, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1440, height: 900 } });
      try {
        await login(page, role, { path: '/basemgr/esl' });
        await waitForShell(page);
        await rows(page).first().waitFor();
        // Every demo tag on the page shows a label, from a rule or of its own.
        await expect.poll(() => page.locator('[data-label-source]').count()).toBeGreaterThan(0);
        expect(await page.locator('[data-label-source="none"]').count()).toBe(0);

        expect(await page.getByTestId('add-tags').count()).toBe(can.write ? 1 : 0);
        expect(await page.getByTestId('bind-tags').count()).toBe(1);
        expect(await page.getByTestId('tag-template-rules').count()).toBe(can.rules ? 1 : 0);
        expect(await page.getByRole('button', { name: words.refreshAll }).count()).toBe(can.operate ? 1 : 0);

        await rows(page).first().locator('.ant-checkbox-input').check();
        const bar = page.getByTestId('selection-bar');
        await bar.waitFor();
        expect(await bar.getByTestId('set-tag-template').count()).toBe(can.setTemplate ? 1 : 0);
        expect(await bar.getByTestId('led-tags').count()).toBe(can.operate ? 1 : 0);

        if (can.operate) {
          // An LED flash of the selection: the pattern, then the request's progress.
          await bar.getByTestId('led-tags').click();
          await dialog(page).getByRole('button', { name: words.flash }).waitFor();
          await settled(page);
          expect(await seriousViolations(page)).toEqual([]);
          await dialog(page).getByRole('button', { name: words.flash }).click();
          const panel = page.getByTestId('request-progress');
          await panel.waitFor();
          expect(await panel.textContent()).toContain(words.ledTitle);
          expect(Number(await panel.getAttribute('data-total'))).toBe(1);
        }

        await settled(page);
        await screenshot(page, `tags-role-${role}-${lang}-list`);

        // The detail: both screens and the deliveries.
        await rows(page).first().getByTestId('screen-cell').click();
        const drawer = page.getByTestId('tag-detail-body');
        await drawer.getByTestId('tag-deliveries').waitFor();
        expect(await drawer.textContent()).toContain(words.deliveries);
        if (can.operate) await drawer.locator('[data-testid="tag-task"][data-kind="led"]').waitFor();
        await settled(page);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await errors(page).count()).toBe(0);
        await screenshot(page, `tags-role-${role}-${lang}`);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});

describeBrowser('which template a tag shows, set on the tags page and in the store parameters', () => {
  const browser = useBrowser();
  const suffix = randomBytes(3).toString('hex').toUpperCase();
  let token = '';
  let storeId = 0;
  let templateName = '';
  let templateId = 0;
  const tagIds: number[] = [];

  beforeAll(async () => {
    token = await apiLogin('admin');
    const call = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await api<T>(path, body, token);
      expect(res.code, `${path}: ${res.msg}`).toBe(0);
      return res.data;
    };
    storeId = (await call<{ id: number }>('/mgr/station/add', { name: `E2E Labels ${suffix}`, code: `L${suffix}` })).id;
    await call('/user/setcurrshop', { curshop: storeId });
    templateName = `E2E red ${suffix}`;
    const template = await call<{ id: number }>('/mgr/templ/addtemple', { name: templateName, model: '05' });
    templateId = template.id;
    await call('/mgr/templ/alerttempData', {
      id: template.id,
      doc: {
        version: TEMPLATE_VERSION,
        size: { model: '05', w: 250, h: 122 },
        colourType: 'bwr',
        elements: [{ type: 'text', id: 'name', x: 4, y: 4, w: 242, h: 40, colour: 'red', text: 'Sale' }],
      },
    });
    // A black/white/red tag and a black/white/yellow one of the same model.
    for (const colour of ['bwr', 'bwy'] as const) {
      const added = await call<{ tags: { id: number }[] }>('/mgr/tag/add', {
        model: '05',
        colour,
        hardwareIds: [`${suffix}C${colour === 'bwr' ? '01' : '02'}`],
      });
      tagIds.push(added.tags[0]?.id ?? 0);
    }
  });

  afterAll(async () => {
    if (token && tagIds.length) await api('/mgr/tag/delete', { ids: tagIds }, token);
  });

  async function openTags(page: Page) {
    await login(page, 'admin', { path: '/basemgr/esl' });
    await waitForShell(page);
    const session = await pageToken(page);
    expect((await api('/user/setcurrshop', { curshop: storeId }, session)).code).toBe(0);
    await page.reload();
    await page.getByTestId('tag-table').waitFor();
    await page.fill('#tagFilter_text', suffix);
    await page.locator('form#tagFilter button[type="submit"]').click();
    await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(2);
  }

  const rowOf = (page: Page, hw: string) => rows(page).filter({ hasText: hw });

  for (const lang of ['zh-CN', 'en'] as Lang[]) {
    it(`offers a template that does not fit disabled, and sets one that does (${lang})`, async () => {
      const words = WORDS[lang];
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1440, height: 900 } });
      try {
        await openTags(page);
        const yellow = rowOf(page, `${suffix}C02`);
        const red = rowOf(page, `${suffix}C01`);
        // The yellow tag cannot show a red template: offered, disabled, saying why.
        await yellow.locator('.ant-checkbox-input').check();
        await page.getByTestId('selection-bar').getByTestId('set-tag-template').click();
        await dialog(page).locator('#tagTemplate_templateId').click();
        const option = page.locator('.ant-select-item-option', { hasText: templateName });
        await option.waitFor();
        expect(await option.getAttribute('aria-disabled')).toBe('true');
        expect(await option.textContent()).toContain(words.colours);
        await settled(page);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `tags-template-misfit-${lang}`);
        await page.keyboard.press('Escape');
        await dialog(page)
          .getByRole('button', { name: lang === 'en' ? /^Cancel$/ : /^取\s*消$/ })
          .click();
        await settled(page);
        await yellow.locator('.ant-checkbox-input').uncheck();

        // The red tag can: set, and its row says the template is its own.
        await red.locator('.ant-checkbox-input').check();
        await page.getByTestId('selection-bar').getByTestId('set-tag-template').click();
        await chooseOption(
          page,
          dialog(page).locator('.ant-select', { has: page.locator('#tagTemplate_templateId') }),
          templateName,
        );
        await dialog(page).getByRole('button', { name: words.save }).click();
        await toast(page, words.set).waitFor();
        await expect.poll(() => red.locator('[data-label-source]').getAttribute('data-label-source')).toBe('tag');
        expect(await red.textContent()).toContain(templateName);
        // The server holds to its refusal for the yellow tag, in the reader's language.
        const refused = await api('/mgr/tag/settemplate', { ids: [tagIds[1]], templateId }, token);
        expect(refused.code).toBe(1001);

        // The rules, from the tags page.
        await page.getByTestId('tag-template-rules').click();
        await dialog(page).getByText(words.rules).waitFor();
        await settled(page);
        await screenshot(page, `tags-template-rules-${lang}`);
        await page.keyboard.press('Escape');
        await settled(page);

        // Back to the rules for the next run.
        await api('/mgr/tag/settemplate', { ids: [tagIds[0]], templateId: null }, token);
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it('the store parameters lead to the rules of the current store (en)', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: { width: 1440, height: 900 } });
    try {
      await login(page, 'admin', { path: '/basemgr/station' });
      await waitForShell(page);
      const session = await pageToken(page);
      expect((await api('/user/setcurrshop', { curshop: storeId }, session)).code).toBe(0);
      await page.reload();
      await page.fill('#storeFilter_code', `L${suffix}`);
      await page.locator('form#storeFilter').getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1);
      await page.locator('.ant-table-row').getByRole('button', { name: WORDS.en.parameters }).click();
      const section = page.getByTestId('store-template-rules');
      await section.waitFor();
      expect(await section.textContent()).toContain(WORDS.en.storeRules);
      await section.getByRole('button').click();
      await dialog(page).getByText(WORDS.en.rules).waitFor();
      await settled(page);
      await screenshot(page, 'stores-params-template-rules-en');
    } finally {
      await context.close();
    }
  }, 120_000);
});
