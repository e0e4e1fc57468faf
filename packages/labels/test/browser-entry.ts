// Bundled for Chromium by browser.test.ts: draws the golden documents with the label rasteriser,
// as the editor does, from the font files the page is served, and hands back the quantised pixels.
import { decodePngDataUrl } from '../src/decode';
import { imageSources } from '../src/draw';
import { parseFont } from '../src/font';
import { FONT_FAMILY } from '../src/model/document';
import { previewLabel } from '../src/pipeline';
import { labelFonts, softCanvasFactory } from '../src/raster';
import { cases, portraitLabel } from './cases';
import { PRODUCT } from './fixtures';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function font(url: string) {
  return parseFont(new Uint8Array(await (await fetch(url)).arrayBuffer()));
}

async function renderAll(): Promise<Record<string, string>> {
  const fonts = labelFonts([
    { family: FONT_FAMILY, weight: 400, font: await font('/fonts/regular.ttf') },
    { family: FONT_FAMILY, weight: 700, font: await font('/fonts/bold.ttf') },
  ]);
  const canvas = softCanvasFactory(fonts);
  const all = [
    ...cases,
    ...([90, 180, 270] as const).map((r) => ({
      name: `rotation-${r}`,
      doc: portraitLabel(r),
      data: PRODUCT,
      dither: undefined,
    })),
  ];
  const out: Record<string, string> = {};
  for (const c of all) {
    const images = new Map();
    for (const src of imageSources(c.doc, c.data)) images.set(src, decodePngDataUrl(src));
    out[c.name] = base64(previewLabel(c.doc, c.data, { canvas, images, dither: c.dither }).image.data);
  }
  return out;
}

(globalThis as unknown as { renderAll: typeof renderAll }).renderAll = renderAll;
