import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TEMPLATE_VERSION } from '@esl/labels/model';
import type { Page } from 'playwright-core';
import { beforeAll, it } from 'vitest';
import {
  api,
  apiLogin,
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  screenshot,
  settled,
  toast,
  useBrowser,
  waitForShell,
} from './support/browser';

// A tenant's brand fonts in the console (issue 28 item 3): from the templates page, upload one
// (a file that is not a font is refused by its content), see it listed with the templates that
// use it, be refused deleting it while one does (naming the template), delete it once unused; in
// both languages.

const require = createRequire(import.meta.url);
const OCRB = readFileSync(join(dirname(require.resolve('bwip-js')), '../fonts/OCRB7.ttf'));
const OTF = readFileSync(join(dirname(require.resolve('bwip-js')), '../fonts/Inconsolata.otf'));

const TEXT = {
  en: {
    notFont: 'Invalid file: not a font file (TTF, OTF and WOFF2 are supported)',
    uploaded: (f: string) => `Font ${f} uploaded`,
    inUse: (tpl: string) => `Still in use, cannot delete: used by template "${tpl}"`,
    deleted: 'Font deleted',
  },
  'zh-CN': {
    notFont: '文件无效：不是字体文件（支持 TTF、OTF 和 WOFF2）',
    uploaded: (f: string) => `字体 ${f} 已上传`,
    inUse: (tpl: string) => `仍在使用中，无法删除：模板 “${tpl}” 使用该字体`,
    deleted: '字体已删除',
  },
} as const;

describeBrowser('brand fonts (/tmpl/index)', () => {
  const browser = useBrowser();
  let token = '';

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  async function chooseFile(page: Page, name: string, bytes: Uint8Array) {
    await page
      .getByTestId('fonts-modal')
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  }

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`an administrator uploads, lists and deletes a brand font (${lang})`, async () => {
      const text = TEXT[lang];
      const family = `Acme OCR ${lang}`;
      const tplName = `Promo fonts ${lang} ${Date.now() % 100000}`;
      const { context, page } = await newPage(browser(), { lang });
      let templateId = 0;
      try {
        await login(page, 'admin', { path: '/tmpl/index' });
        await waitForShell(page);
        await page.getByTestId('tmpl-fonts').click();
        const modal = page.getByTestId('fonts-modal');
        await modal.waitFor();
        await chooseFile(page, 'notes.ttf', new TextEncoder().encode('not a font at all'));
        await toast(page, text.notFont).waitFor();
        await page.getByTestId('fonts-family').fill(family);
        await chooseFile(page, 'ocrb.ttf', OCRB);
        await toast(page, text.uploaded(family)).waitFor();
        const row = page.getByTestId('fonts-table').locator('tr', { hasText: family });
        await row.waitFor();

        // A template names the family: listed with it, and the font cannot be deleted.
        const fonts = await api<{ id: number; family: string }[]>('/mgr/templ/fontlist', {}, token);
        const font = fonts.data.find((f) => f.family === family);
        expect(font).toBeTruthy();
        const added = await api<{ id: number }>('/mgr/templ/addtemple', { name: tplName, model: '05' }, token);
        templateId = added.data.id;
        const doc = {
          version: TEMPLATE_VERSION,
          size: { model: '05', w: 250, h: 122 },
          colourType: 'bwr',
          elements: [
            { type: 'text', id: 'brand', x: 4, y: 4, w: 240, h: 50, text: 'SALE', font: { family, size: 32 } },
          ],
        };
        expect((await api('/mgr/templ/alerttempData', { id: templateId, doc }, token)).code).toBe(0);
        await page.keyboard.press('Escape');
        await modal.waitFor({ state: 'detached' });
        await page.getByTestId('tmpl-fonts').click();
        await expect.poll(() => row.textContent()).toContain(tplName);
        await settled(page);
        await screenshot(page, `brand-fonts-${lang}`);
        await page.getByTestId(`fonts-delete-${font?.id}`).click();
        await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
        await toast(page, text.inUse(tplName)).waitFor();
        // A refused confirmation stays open: dismiss it before asking again.
        const open = page.locator('.ant-popconfirm:visible');
        if (await open.count()) await open.locator('.ant-btn').first().click();
        await open.waitFor({ state: 'hidden' });

        // Unused again: deleted.
        expect((await api('/mgr/templ/delete', { ids: [templateId] }, token)).code).toBe(0);
        templateId = 0;
        await page.getByTestId(`fonts-delete-${font?.id}`).click();
        await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
        await toast(page, text.deleted).waitFor();
        await row.waitFor({ state: 'detached' });

        // An OpenType (CFF) font is taken too.
        const mono = `Mono ${lang}`;
        await page.getByTestId('fonts-family').fill(mono);
        await chooseFile(page, 'mono.otf', OTF);
        await toast(page, text.uploaded(mono)).waitFor();
        await page.getByTestId('fonts-table').locator('tr', { hasText: mono }).waitFor();
        const monoId = (await api<{ id: number; family: string }[]>('/mgr/templ/fontlist', {}, token)).data.find(
          (f) => f.family === mono,
        )?.id;
        expect((await api('/mgr/templ/fontdelete', { id: monoId }, token)).code).toBe(0);
      } finally {
        if (templateId) await api('/mgr/templ/delete', { ids: [templateId] }, token);
        await context.close();
      }
    });
  }
});
