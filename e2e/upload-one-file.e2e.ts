import { it } from 'vitest';
import { describeBrowser, expect, login, newPage, settled, toast, useBrowser, waitForShell } from './support/browser';

/**
 * The product import takes one file: dropping several says "Only one file can be selected"
 * (the spec's wording) instead of silently keeping the first.
 */
describeBrowser('the single-file upload', () => {
  const browser = useBrowser();

  it('says only one file can be selected when two are dropped, and takes none of them', async () => {
    const { context, page } = await newPage(browser(), { lang: 'en' });
    try {
      await login(page, 'admin', { path: '/basemgr/product' });
      await waitForShell(page);
      await page.getByTestId('import-products').click();
      // The drop lands on the Upload's own area inside the dragger, as a real drop would.
      const dragger = page.locator('.ant-upload-drag:visible .ant-upload-btn');
      await dragger.waitFor();
      await settled(page);
      const files = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['barcode,name,price\n1,a,1\n'], 'one.csv', { type: 'text/csv' }));
        transfer.items.add(new File(['barcode,name,price\n2,b,2\n'], 'two.csv', { type: 'text/csv' }));
        return transfer;
      });
      await dragger.dispatchEvent('drop', { dataTransfer: files });
      await toast(page, 'Only one file can be selected').waitFor();
      await settled(page);
      // Neither file was taken: nothing listed, nothing to import.
      expect(await page.locator('.ant-modal-container:visible .ant-upload-list-item').count()).toBe(0);
      expect(await page.getByTestId('import-next').isDisabled()).toBe(true);

      // One file dropped is taken.
      const one = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['barcode,name,price\n1,a,1\n'], 'one.csv', { type: 'text/csv' }));
        return transfer;
      });
      await dragger.dispatchEvent('drop', { dataTransfer: one });
      await page.locator('.ant-modal-container:visible .ant-upload-list-item', { hasText: 'one.csv' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
