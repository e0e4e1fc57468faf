import { beforeAll, describe, expect, it } from 'vitest';
import { decodePng, decodePngDataUrl } from './decode';
import { registerFonts } from './node';
import { indexToPng, rgbaToPng } from './png';
import { type LabelFonts, SoftCanvas } from './raster';

let fonts: LabelFonts;
beforeAll(() => {
  fonts = registerFonts();
}, 60_000);

const FONT = '24px "Noto Sans SC"';

function canvas(w = 120, h = 60): SoftCanvas {
  const c = new SoftCanvas(w, h, fonts);
  c.fillStyle = 'rgb(255,255,255)';
  c.fillRect(0, 0, w, h);
  return c;
}

/** Columns and rows holding a pixel that is not white. */
function inkBox(c: SoftCanvas) {
  let [left, top, right, bottom] = [c.width, c.height, -1, -1];
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const p = (y * c.width + x) * 4;
      if (c.data[p] !== 255 || c.data[p + 1] !== 255 || c.data[p + 2] !== 255) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
  }
  return { left, top, right, bottom };
}

describe('the label fonts', () => {
  it('map Latin, digits, ¥ and Chinese to glyphs with outlines, and unknown characters to 0', () => {
    const font = fonts.face('Noto Sans SC', false);
    if (!font) throw new Error('no regular face');
    for (const char of ['A', 'g', '8', '¥', '国', '…']) {
      const id = font.glyphIndex(char.codePointAt(0) ?? 0);
      expect(id, char).toBeGreaterThan(0);
      expect(font.glyph(id).contours.length, char).toBeGreaterThan(0);
    }
    expect(font.glyphIndex(0xe000)).toBe(0);
    expect(font.glyph(font.glyphIndex(' '.codePointAt(0) ?? 0)).contours).toEqual([]);
    expect(fonts.face('noto sans sc', true)).not.toBe(font);
  });
});

describe('the label rasteriser', () => {
  it('draws text only inside the ink box measureText gives (the renderer skips clips on that)', () => {
    for (const text of ['Hdgjy国', '¥12.80', 'fj…', '新疆阿克苏']) {
      for (const x of [10, 11]) {
        const c = canvas();
        c.font = FONT;
        c.fillStyle = 'rgb(0,0,0)';
        c.fillText(text, x, 40);
        const m = c.measureText(text);
        const ink = inkBox(c);
        expect(ink.left, text).toBeGreaterThanOrEqual(Math.floor(x - (m.actualBoundingBoxLeft ?? 0)));
        expect(ink.right + 1, text).toBeLessThanOrEqual(Math.ceil(x + (m.actualBoundingBoxRight ?? 0)));
        expect(ink.top, text).toBeGreaterThanOrEqual(Math.floor(40 - m.actualBoundingBoxAscent));
        expect(ink.bottom + 1, text).toBeLessThanOrEqual(Math.ceil(40 + m.actualBoundingBoxDescent));
      }
    }
  });

  it('measures width by the glyph advances, in proportion to the size', () => {
    const c = canvas();
    c.font = '20px "Noto Sans SC"';
    const small = c.measureText('国国').width;
    c.font = '40px "Noto Sans SC"';
    expect(c.measureText('国国').width).toBeCloseTo(2 * small, 9);
    expect(small).toBeCloseTo(40, 0);
    // Bold is another face: a different outline.
    c.font = 'bold 40px "Noto Sans SC"';
    expect(c.measureText('W').width).not.toBe(c.measureText('i').width);
  });

  it('takes a character the first family lacks from the next, and draws nothing for an unknown family alone', () => {
    const c = canvas();
    c.font = '24px "No Such Family", "Noto Sans SC"';
    c.fillStyle = '#000000';
    c.fillText('国', 10, 40);
    expect(inkBox(c).right).toBeGreaterThan(10);
  });

  it('keeps fills inside the clip and restores it', () => {
    const c = canvas(10, 10);
    c.save();
    c.beginPath();
    c.rect(2, 2, 3, 3);
    c.clip();
    c.fillStyle = 'rgb(255,0,0)';
    c.fillRect(0, 0, 10, 10);
    c.restore();
    expect(inkBox(c)).toEqual({ left: 2, top: 2, right: 4, bottom: 4 });
    // restore brought back the white fill too, as a canvas does.
    expect(c.fillStyle).toBe('rgb(255,255,255)');
    c.fillStyle = 'rgb(255,0,0)';
    c.fillRect(9, 9, 1, 1);
    expect(inkBox(c)).toEqual({ left: 2, top: 2, right: 9, bottom: 9 });
    expect(() => {
      c.beginPath();
      c.moveTo(0, 0);
      c.lineTo(5, 5);
      c.clip();
    }).toThrow(/one rectangle/);
  });

  it('covers a half pixel by half: fractional rectangles by exact area', () => {
    const c = canvas(4, 1);
    c.fillStyle = 'rgb(0,0,0)';
    c.fillRect(0.5, 0, 2, 1);
    expect([...c.getImageData(0, 0, 4, 1).data].filter((_, i) => i % 4 === 0)).toEqual([127, 0, 127, 255]);
  });

  it('strokes a diagonal line as a band of its width', () => {
    const c = canvas(20, 20);
    c.strokeStyle = 'rgb(0,0,0)';
    c.lineWidth = 2;
    c.beginPath();
    c.moveTo(0, 0);
    c.lineTo(20, 20);
    c.stroke();
    const at = (x: number, y: number) => c.data[(y * 20 + x) * 4];
    expect(at(10, 10)).toBe(0);
    expect(at(15, 3)).toBe(255);
    expect(at(3, 15)).toBe(255);
  });

  it('scales images by averaging, and refuses an image it has no pixels of', () => {
    const c = canvas(2, 1);
    // 4 × 1: black, white, red, red → 2 × 1: grey, red.
    const image = {
      width: 4,
      height: 1,
      data: Uint8ClampedArray.of(0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 255, 255, 0, 0, 255),
    };
    c.drawImage(image as never, 0, 0, 2, 1);
    expect([...c.data]).toEqual([128, 128, 128, 255, 255, 0, 0, 255]);
    expect(() => c.drawImage({ width: 1, height: 1 } as never, 0, 0, 1, 1)).toThrow(/decoded images/);
  });

  it('takes opaque CSS colours only', () => {
    const c = canvas(1, 1);
    expect(() => {
      c.fillStyle = 'red';
    }).toThrow(/rgb\(\) or #rrggbb/);
  });
});

describe('PNG decoding', () => {
  it('reads back what the encoders wrote: RGBA and palette images', () => {
    const rgba = new Uint8ClampedArray(5 * 3 * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) % 256;
    const decoded = decodePng(rgbaToPng(5, 3, rgba));
    expect(decoded.width).toBe(5);
    expect([...decoded.data]).toEqual([...rgba]);
    const index = { width: 3, height: 2, colourType: 'bwr' as const, data: Uint8Array.of(0, 1, 2, 2, 1, 0) };
    const palette = decodePng(indexToPng(index));
    expect([...palette.data.subarray(0, 12)]).toEqual([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255]);
  });

  it('leaves other images to the platform and refuses damaged ones', () => {
    expect(decodePngDataUrl('data:image/jpeg;base64,/9j/4AAQ')).toBeNull();
    expect(decodePngDataUrl('https://example.com/a.png')).toBeNull();
    expect(() => decodePng(Uint8Array.of(1, 2, 3))).toThrow(/not a PNG/);
  });
});
