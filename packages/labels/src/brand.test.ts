import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { doc } from '../test/fixtures';
import { checkBrandFont, FontRefused, fontFormat } from './brand';
import { type BrandFace, brandCanvasFactory, nodeSha256, renderToPng } from './node';

const require = createRequire(import.meta.url);
// OCR-B and Inconsolata (bwip-js ships them; a devDependency of these tests): a TrueType font and
// an OpenType one with CFF outlines, whose Latin glyphs look nothing like Noto Sans SC's.
const fonts = join(dirname(require.resolve('bwip-js')), '../fonts');
const ocrb = new Uint8Array(readFileSync(join(fonts, 'OCRB7.ttf')));
const otf = new Uint8Array(readFileSync(join(fonts, 'Inconsolata.otf')));

/** A table's entry in a font's table directory, and where the table lies. */
function tableOf(bytes: Uint8Array, tag: string) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < view.getUint16(4); i++) {
    const entry = 12 + 16 * i;
    if (String.fromCharCode(...bytes.subarray(entry, entry + 4)) === tag)
      return { entry, offset: view.getUint32(entry + 8) };
  }
  throw new Error(`no ${tag} table`);
}

const refusal = (bytes: Uint8Array) => {
  try {
    checkBrandFont(bytes);
    return null;
  } catch (error) {
    return error instanceof FontRefused ? error.reason : 'other';
  }
};

describe('a brand font file is checked by its content', () => {
  test('a TrueType font: its family and weight', () => {
    expect(fontFormat(ocrb)).toBe('ttf');
    const info = checkBrandFont(ocrb);
    expect(info).toMatchObject({ format: 'ttf', weight: 400 });
    expect(info.family).toMatch(/OCR/);
  });

  test('an OpenType font with CFF outlines: its family and weight (the same name and OS/2 tables)', () => {
    expect(fontFormat(otf)).toBe('otf');
    expect(checkBrandFont(otf)).toEqual({ format: 'otf', family: 'Inconsolata', weight: 400, glyphs: 359 });
  });

  test('not a font, a broken one, and outlines not drawn yet are refused', () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48);
    expect(refusal(png)).toBe('notFont');
    expect(refusal(new TextEncoder().encode('name,price\napple,1\n'))).toBe('notFont');
    // Right magic, cut short: its tables lie outside the file.
    expect(refusal(ocrb.slice(0, 400))).toBe('fontBroken');
    expect(refusal(otf.slice(0, 400))).toBe('fontBroken');
    // An OTF whose CFF charstrings are damaged (zeros: no operator) reads, but not every glyph does.
    const cff = tableOf(otf, 'CFF ');
    const damaged = otf.slice();
    damaged.fill(0, cff.offset + 20000, cff.offset + 20100);
    expect(refusal(damaged)).toBe('fontBroken');
    // CFF2 outlines (variable fonts) and WOFF2 are not drawn yet.
    const cff2 = otf.slice();
    cff2[cff.entry + 3] = '2'.charCodeAt(0);
    expect(refusal(cff2)).toBe('fontOutlines');
    const woff2 = otf.slice();
    woff2.set(new TextEncoder().encode('wOF2'));
    expect(refusal(woff2)).toBe('fontOutlines');
  });
});

describe("a tenant's brand font draws only on that tenant's canvases", () => {
  const label = doc({
    size: { w: 200, h: 60 },
    colourType: 'bw',
    elements: [
      {
        type: 'text',
        id: 'brand',
        x: 0,
        y: 0,
        w: 200,
        h: 60,
        text: 'SALE 1234',
        font: { family: 'Acme OCR', size: 24 },
      },
    ],
  });
  const face: BrandFace = { family: 'Acme OCR', weight: 400, hash: nodeSha256(ocrb), bytes: ocrb };

  test('drawn with the brand font, the text differs from the base font and no problem is reported', async () => {
    const brand = await renderToPng(label, {}, { canvas: brandCanvasFactory([face]) });
    const fallback = await renderToPng(label, {});
    expect(brand.problems).toEqual([]);
    let differing = 0;
    for (let i = 0; i < brand.rgba.length; i += 4) if (brand.rgba[i] !== fallback.rgba[i]) differing++;
    expect(differing).toBeGreaterThan(50);
  });

  test('an OpenType (CFF) brand font draws too, and unlike the TrueType one', async () => {
    const otfFace: BrandFace = { ...face, hash: nodeSha256(otf), bytes: otf };
    const drawn = await renderToPng(label, {}, { canvas: brandCanvasFactory([otfFace]) });
    const ocr = await renderToPng(label, {}, { canvas: brandCanvasFactory([face]) });
    const fallback = await renderToPng(label, {});
    expect(drawn.problems).toEqual([]);
    for (const other of [ocr, fallback]) {
      let differing = 0;
      for (let i = 0; i < drawn.rgba.length; i += 4) if (drawn.rgba[i] !== other.rgba[i]) differing++;
      expect(differing).toBeGreaterThan(50);
    }
  });

  test('without the face (another tenant, or deleted) it falls back to the base font and says so', async () => {
    const other = await renderToPng(label, {}, { canvas: brandCanvasFactory([]) });
    expect(other.problems).toEqual([
      expect.objectContaining({ elementId: 'brand', code: 'unknownFont', family: 'Acme OCR' }),
    ]);
    // The shared fonts were not changed by the brand canvases.
    const again = await renderToPng(label, {});
    expect(again.rgba).toEqual(other.rgba);
  });
});
