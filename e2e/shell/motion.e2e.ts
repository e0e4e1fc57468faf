import { it } from 'vitest';
import { describeBrowser, expect, login, newPage, useBrowser, waitForShell } from '../support/browser';

/**
 * The console follows the user's "reduce motion" setting (apps/web/src/platform/motion.ts):
 * dialogs open without zooming and the sidebar does not slide. Every other browser test runs with
 * the setting on (support/browser.ts, newPage); this file checks both.
 */
describeBrowser('shell: reduced motion', () => {
  const browser = useBrowser();

  for (const motion of [true, false]) {
    it(`${motion ? 'animates' : 'does not animate'} a dialog and the sidebar when the user ${motion ? 'has no preference' : 'prefers reduced motion'}`, async () => {
      const { context, page } = await newPage(browser(), { lang: 'en', motion });
      try {
        await login(page, 'admin', { path: '/basemgr/ap' });
        await waitForShell(page);
        const sidebar = await page
          .locator('.sidebar-container')
          .evaluate((el) => getComputedStyle(el).transitionDuration);
        expect(sidebar === '0s').toBe(!motion);

        // Count the animations that start inside the dialog while it opens.
        await page.evaluate(() => {
          const w = window as unknown as { dialogAnimations: number };
          w.dialogAnimations = 0;
          document.addEventListener(
            'animationstart',
            (e) => {
              if ((e.target as Element).closest?.('.ant-modal-root, .ant-modal-wrap, .ant-modal')) w.dialogAnimations++;
            },
            true,
          );
        });
        await page.getByTestId('add-station').click();
        await page.locator('.ant-modal-container:visible').waitFor();
        const started = () => page.evaluate(() => (window as unknown as { dialogAnimations: number }).dialogAnimations);
        if (motion) await expect.poll(started).toBeGreaterThan(0);
        else {
          // Given the time an animation would have needed to start and run out.
          await page.waitForTimeout(500);
          expect(await started()).toBe(0);
        }
      } finally {
        await context.close();
      }
    });
  }
});
