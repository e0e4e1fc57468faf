import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FONT_FILES, renderToPng } from '../src/node';
import { cases, portraitLabel } from './cases';
import { PRODUCT } from './fixtures';

// The editor draws labels in the browser, the server in Node: the same documents must give the
// same pixels in both. Chromium runs the label rasteriser (bundled as the console bundles it) on
// every golden document; Node renders them as the server does; not one pixel may differ.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const require = createRequire(import.meta.url);

describe.skipIf(!existsSync(CHROMIUM))('browser and server draw the same pixels', () => {
  let browser: Browser | undefined;
  let drawn: Record<string, string> = {};

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('./browser-entry.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      // harfbuzzjs is an ES module that awaits its WebAssembly at the top level.
      format: 'esm',
      // Only its Node branch imports this; the browser never reaches it.
      external: ['module'],
      write: false,
      logLevel: 'silent',
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const page = await browser.newPage();
    // A made-up origin answered here: the page, the bundle, the font files and HarfBuzz's WebAssembly.
    await page.route('http://labels.test/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      const font = FONT_FILES.find((f) => path === `/fonts/${basename(f)}`);
      if (font) return route.fulfill({ path: require.resolve(font) });
      if (path === '/harfbuzz.wasm') {
        return route.fulfill({
          contentType: 'application/wasm',
          path: require.resolve('harfbuzzjs/dist/harfbuzz.wasm'),
        });
      }
      if (path === '/bundle.js') {
        return route.fulfill({ contentType: 'text/javascript', body: bundle.outputFiles[0].text });
      }
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><script type="module" src="/bundle.js"></script>',
      });
    });
    await page.goto('http://labels.test/');
    await page.waitForFunction(() => 'renderAll' in globalThis);
    drawn = await page.evaluate(() =>
      (globalThis as unknown as { renderAll: () => Promise<Record<string, string>> }).renderAll(),
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  const all = [
    ...cases,
    ...([90, 180, 270] as const).map((r) => ({
      name: `rotation-${r}`,
      doc: portraitLabel(r),
      data: PRODUCT,
      dither: undefined,
    })),
  ];

  test.each(all)('$name: 0 pixels differ', async ({ name, doc, data, dither }) => {
    const server = await renderToPng(doc, data, { dither });
    const browserPixels = Buffer.from(drawn[name] ?? '', 'base64');
    expect(browserPixels.length).toBe(server.image.data.length);
    let differing = 0;
    for (let i = 0; i < browserPixels.length; i++) if (browserPixels[i] !== server.image.data[i]) differing++;
    expect(differing).toBe(0);
  });
});
