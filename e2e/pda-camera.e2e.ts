import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BarcodeFormat, EncodeHintType, MultiFormatWriter } from '@zxing/library';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { api, apiLogin, CHROMIUM_ARGS, describeBrowser, expect, newPage, screenshot } from './support/browser';
import { CHROMIUM_PATH, DEMO_PASSWORD } from './support/context';

// Camera scanning on the handheld page: Chromium's fake camera plays a picture of a QR code
// holding a tag's hardware ID; the page reads it and looks the tag up. Headless Chromium on Linux
// has no BarcodeDetector, so this is the zxing-wasm path, loaded lazily under the server's CSP
// (its WebAssembly from this server) with the camera allowed to /pda only.

const suffix = randomBytes(3).toString('hex').toUpperCase();
const hw = `${suffix}CA01`;
const W = 640;
const H = 480;

/** One grey-scale Y4M video frame (4:2:0) of a QR code holding `text`, black on white. */
function qrVideo(text: string): Buffer {
  const hints = new Map([[EncodeHintType.MARGIN, 4]]);
  const matrix = new MultiFormatWriter().encode(text, BarcodeFormat.QR_CODE, 400, 400, hints);
  const y = Buffer.alloc(W * H, 235);
  const left = (W - matrix.getWidth()) / 2;
  const top = (H - matrix.getHeight()) / 2;
  for (let r = 0; r < matrix.getHeight(); r++)
    for (let c = 0; c < matrix.getWidth(); c++) if (matrix.get(c, r)) y[(top + r) * W + left + c] = 16;
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]);
}

describeBrowser('handheld page: camera scanning (zxing-wasm, fake camera)', () => {
  let browser: Browser | undefined;
  let admin = '';
  let tagId = 0;
  const dir = mkdtempSync(join(tmpdir(), 'esl-pda-camera-'));

  beforeAll(async () => {
    const clerk = await apiLogin('clerk');
    const storeId = (await api<{ curshop: { id: number } }>('/user/info', {}, clerk)).data.curshop.id;
    admin = await apiLogin('admin');
    expect((await api('/user/setcurrshop', { curshop: storeId }, admin)).code).toBe(0);
    const added = await api<{ tags: { id: number }[] }>('/mgr/tag/add', { model: '05', hardwareIds: [hw] }, admin);
    expect(added.code, added.msg).toBe(0);
    tagId = added.data.tags[0].id;
    const video = join(dir, 'qr.y4m');
    writeFileSync(video, qrVideo(hw));
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (tagId) await api('/mgr/tag/delete', { ids: [tagId] }, admin);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a tag’s QR code through the camera and looks the tag up, with no CSP violation', async () => {
    if (!browser) throw new Error('no browser');
    const { context, page } = await newPage(browser, { lang: 'en', viewport: { width: 360, height: 740 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Permissions policy/i.test(m.text())) violations.push(m.text());
    });
    try {
      await context.grantPermissions(['camera']);
      await page.goto('/pda/');
      await page.fill('input[name="username"]', 'clerk');
      await page.fill('input[name="password"]', DEMO_PASSWORD);
      await page.getByTestId('pda-login-submit').click();
      await page.getByTestId('tab-lookup').click();
      expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
      const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
      await page.getByTestId('camera-open').click();
      // The camera view may come and go within a frame or two: the code is read at once.
      const answer = await wasm;
      expect(new URL(answer.url()).origin).toBe(new URL(page.url()).origin);
      // The first frame the decoder reads closes the camera and looks the tag up.
      await page.locator(`[data-testid="tag-card"][data-hw="${hw}"]`).waitFor({ timeout: 45_000 });
      expect(await page.getByTestId('camera').count()).toBe(0);
      await screenshot(page, 'pda-camera-en');
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
