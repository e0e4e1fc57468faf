// Bundled for Chromium by browser.test.ts: draws the golden documents with the label rasteriser,
// as the editor does, from the font files the page is served (loaded per script, with HarfBuzz when
// a text needs shaping), and hands back the quantised pixels.
import { decodePngDataUrl } from '../src/decode';
import { imageSources, labelTexts } from '../src/draw';
import { ScriptFontLoader } from '../src/load';
import { previewLabel } from '../src/pipeline';
import { softCanvasFactory } from '../src/raster';
import type { HarfBuzzModule } from '../src/shape';
import { cases, portraitLabel } from './cases';
import { PRODUCT } from './fixtures';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function renderAll(): Promise<Record<string, string>> {
  // As the editor loads fonts: the base font, then each script's font and the shaper on demand.
  const loader = new ScriptFontLoader({
    file: async (name) => new Uint8Array(await (await fetch(`/fonts/${name}`)).arrayBuffer()),
    harfBuzz: async () => (await import('harfbuzzjs')) as unknown as HarfBuzzModule,
  });
  const fonts = loader.library;
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
    await loader.prepare(labelTexts(c.doc, c.data));
    const images = new Map();
    for (const src of imageSources(c.doc, c.data)) images.set(src, decodePngDataUrl(src));
    out[c.name] = base64(previewLabel(c.doc, c.data, { canvas, images, dither: c.dither }).image.data);
  }
  return out;
}

(globalThis as unknown as { renderAll: typeof renderAll }).renderAll = renderAll;
