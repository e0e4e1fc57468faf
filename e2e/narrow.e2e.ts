import { it } from 'vitest';
import {
  describeBrowser,
  eventually,
  expect,
  type Lang,
  login,
  newPage,
  settled,
  useBrowser,
  waitForShell,
} from './support/browser';

/**
 * At 400 px (a phone) the breadcrumb stays on the navbar's one line, and the dashboard's chart
 * labels do not run over each other (issue: the breadcrumb wrapped over the navbar, the labels
 * of the charts overlapped). Each chart reports how many of its drawn labels overlap.
 */
describeBrowser('a phone-sized window (400 px)', () => {
  const browser = useBrowser();

  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`keeps the breadcrumb on the navbar and the chart labels apart, in ${lang}`, { timeout: 120_000 }, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 400, height: 800 } });
      try {
        await login(page, 'admin', { path: '/dashboard' });
        for (const path of ['/basemgr/product', '/logmgr/op', '/system/conf']) {
          await page.goto(path);
          await waitForShell(page);
          const box = await page.evaluate(() => {
            const nav = document.querySelector('.navbar')?.getBoundingClientRect();
            const crumb = document.querySelector('.app-breadcrumb')?.getBoundingClientRect();
            const line = document.querySelector('.app-breadcrumb li:last-child')?.getBoundingClientRect();
            return { nav, crumb, line };
          });
          expect(box.crumb, path).toBeDefined();
          expect(box.crumb?.top, path).toBeGreaterThanOrEqual(box.nav?.top ?? 0);
          expect(box.crumb?.bottom, path).toBeLessThanOrEqual(box.nav?.bottom ?? 0);
          // One line: the breadcrumb is no taller than one of its items.
          expect(box.crumb?.height, path).toBeLessThanOrEqual((box.line?.height ?? 0) + 2);
        }
        await page.goto('/dashboard');
        await waitForShell(page);
        const charts = page.locator('[data-testid^="chart-"]');
        await eventually(() => charts.count()).toBeGreaterThanOrEqual(3);
        await settled(page);
        for (const chart of await charts.all()) {
          await chart.scrollIntoViewIfNeeded();
          await eventually(() => chart.getAttribute('data-label-overlaps')).not.toBeNull();
          const name = await chart.getAttribute('data-testid');
          expect(await chart.getAttribute('data-label-overlaps'), `${name}`).toBe('0');
        }
      } finally {
        await context.close();
      }
    });
  }

  // The lists pin their first column and their actions; on a phone those covered each other (the
  // tag ID over half of a row's actions). Below the width they need they scroll with the rest.
  for (const lang of ['en', 'zh-CN'] as Lang[]) {
    it(`shows every row action of the store lists uncovered on a 360 px phone, in ${lang}`, async () => {
      const { context, page } = await newPage(browser(), { lang, viewport: { width: 360, height: 740 } });
      try {
        await login(page, 'manager', { path: '/dashboard' });
        for (const path of ['/basemgr/esl', '/basemgr/product', '/basemgr/ap']) {
          await page.goto(path);
          await waitForShell(page);
          await page.locator('.ant-table-row [data-row-actions]').first().waitFor();
          // Scrolled to either end, what each end shows is what the point under it hits.
          const covered = (end: 'left' | 'right') =>
            page.evaluate((side) => {
              const scroller = document.querySelector<HTMLElement>('.ant-table-content, .ant-table-body');
              const rows = [...document.querySelectorAll<HTMLElement>('.ant-table-row')].slice(0, 5);
              return rows
                .flatMap((row) => {
                  row.scrollIntoView({ block: 'center', inline: 'nearest' });
                  if (scroller) scroller.scrollLeft = side === 'left' ? 0 : scroller.scrollWidth;
                  const targets =
                    side === 'right'
                      ? [...row.querySelectorAll<HTMLElement>('[data-row-actions] button')]
                      : [...row.querySelectorAll<HTMLElement>('td:not(.ant-table-selection-column)')].slice(0, 1);
                  return targets.filter((el) => {
                    const r = el.getBoundingClientRect();
                    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                    return !(hit && el.contains(hit));
                  });
                })
                .map((el) => el.getAttribute('aria-label') ?? el.textContent);
            }, end);
          expect(await covered('right'), `${path}: actions covered`).toEqual([]);
          expect(await covered('left'), `${path}: first column covered`).toEqual([]);
        }
        // On a wide screen the actions stay pinned at the right while the rest scrolls.
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto('/basemgr/esl');
        await waitForShell(page);
        const actions = page.locator('.ant-table-row td', { has: page.locator('[data-row-actions]') }).first();
        await eventually(() => actions.evaluate((td) => getComputedStyle(td).position)).toBe('sticky');
      } finally {
        await context.close();
      }
    });
  }
});
