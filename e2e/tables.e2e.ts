import type { Page } from 'playwright-core';
import { it } from 'vitest';
import {
  describeBrowser,
  expect,
  type Lang,
  login,
  newPage,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/**
 * Every list at 1280 px, in both languages, shows its cells whole: no cell or button runs out of
 * its cell (the English store list clipped its Delete action: 220 px of column, 263 px of
 * buttons), and no column header breaks inside a word (a Chinese term counts as one word). A cell
 * that ends in an ellipsis is allowed only when it carries the whole text as its title.
 */
const PATHS = [
  '/basemgr/station',
  '/basemgr/ap',
  '/basemgr/esl',
  '/basemgr/product',
  '/logmgr/sys',
  '/logmgr/op',
  '/tmpl/index',
  '/system/index',
];

/** What is clipped on the page's tables, one line each (empty when nothing is). */
export function clippedCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const where = (cell: Element) => `"${(cell.textContent ?? '').trim().slice(0, 40)}"`;
    for (const cell of document.querySelectorAll('.ant-table-wrapper .ant-table-cell')) {
      if (cell.closest('.ant-table-measure-row, .ant-table-placeholder')) continue;
      const titled =
        cell.classList.contains('ant-table-cell-ellipsis') &&
        Boolean(cell.getAttribute('title') || cell.querySelector('[title]'));
      if (titled) continue;
      for (const el of [cell, ...cell.querySelectorAll('*')]) {
        // Text for screen readers only is clipped to 1 px on purpose.
        if (el.closest('.sr-only')) continue;
        if (getComputedStyle(el).overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
          found.push(
            `${el.tagName.toLowerCase()} overflows (${el.scrollWidth} > ${el.clientWidth} px) in ${where(cell)}`,
          );
      }
      const box = cell.getBoundingClientRect();
      for (const el of cell.querySelectorAll('button, a, .ant-tag, .ant-typography')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1))
          found.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim()}" runs out of ${where(cell)}`);
      }
    }
    for (const th of document.querySelectorAll('.ant-table-thead th')) {
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        let at = 0;
        for (const word of text.split(' ')) {
          if (word) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) found.push(`header word "${word}" breaks over ${lines.size} lines`);
          }
          at += word.length + 1;
        }
      }
    }
    // Hardware addresses are one word.
    for (const el of document.querySelectorAll('.ant-table-tbody .nowrap')) {
      const rects = new Set([...el.getClientRects()].map((r) => Math.round(r.top)));
      if (rects.size > 1) found.push(`"${el.textContent}" breaks over lines`);
    }
    return [...new Set(found)];
  });
}

describeBrowser('tables at 1280 px show every cell whole', () => {
  const browser = useBrowser();

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`every list, in ${lang}`, { timeout: 240_000 }, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 1280, height: 800 } });
      const found: Record<string, string[]> = {};
      try {
        await login(page, 'admin', { path: '/dashboard' });
        for (const path of PATHS) {
          await page.goto(path);
          await waitForShell(page);
          await page.locator('.ant-table-wrapper').first().waitFor();
          await settled(page);
          const clipped = await clippedCells(page);
          if (clipped.length > 0) found[path] = clipped;
        }
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
    });
  }

  it('the measure sees a clipped button and a broken header word', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en', viewport: { width: 1280, height: 800 } });
    try {
      await login(page, 'admin', { path: '/basemgr/station' });
      await waitForShell(page);
      await page.locator('.ant-table-tbody .ant-table-row').first().waitFor();
      expect(await clippedCells(page)).toEqual([]);
      // A table as antd draws one, with a column too narrow for its button and its header.
      await page.evaluate(() => {
        const box = document.createElement('div');
        box.className = 'ant-table-wrapper';
        box.innerHTML = `<table style="table-layout: fixed; width: 120px">
          <thead class="ant-table-thead"><tr>
            <th class="ant-table-cell" style="width: 60px; word-break: break-all">Extraordinarily</th>
            <th class="ant-table-cell" style="width: 60px">Actions</th>
          </tr></thead>
          <tbody class="ant-table-tbody"><tr>
            <td class="ant-table-cell">1</td>
            <td class="ant-table-cell" style="overflow: hidden; white-space: nowrap"><button>Delete this row</button></td>
          </tr></tbody></table>`;
        document.querySelector('main')?.prepend(box);
      });
      const found = (await clippedCells(page)).join('\n');
      expect(found).toMatch(/runs out of|overflows/);
      expect(found).toContain('header word "Extraordinarily"');
    } finally {
      await context.close();
    }
  });
});
