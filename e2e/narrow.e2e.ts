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
});
