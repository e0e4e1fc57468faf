import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import jsQR from 'jsqr';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { ColourType } from '../src/model/colours';
import type { Symbology } from '../src/model/document';
import { registerFonts, renderToPng } from '../src/node';
import { doc, PRODUCT, priceLabel } from './fixtures';

// Rendering large labels takes a while when the machine is busy (CI runs everything at once).
vi.setConfig({ testTimeout: 30_000 });

const FORMAT: Record<Symbology, BarcodeFormat> = {
  ean13: BarcodeFormat.EAN_13,
  ean8: BarcodeFormat.EAN_8,
  upca: BarcodeFormat.UPC_A,
  code128: BarcodeFormat.CODE_128,
};

/** Reads a 1D barcode with @zxing/library from RGBA pixels; null when none is found. */
function read1d(rgba: Uint8ClampedArray, width: number, height: number, symbology: Symbology): string | null {
  const luminance = new Uint8ClampedArray(width * height);
  for (let i = 0; i < luminance.length; i++) {
    luminance[i] = Math.round(0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2]);
  }
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [FORMAT[symbology]]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  try {
    const result = reader.decode(
      new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height))),
    );
    expect(result.getBarcodeFormat()).toBe(FORMAT[symbology]);
    return result.getText();
  } catch {
    return null;
  }
}

function readQr(rgba: Uint8ClampedArray, width: number, height: number): string | null {
  return jsQR(rgba, width, height)?.data ?? null;
}

const symbolLabel = (symbology: Symbology, value: string, colourType: ColourType, moduleBox: number) =>
  doc({
    size: { w: 296, h: 152 },
    colourType,
    elements: [
      { type: 'text', id: 'name', x: 4, y: 2, w: 288, h: 30, font: { size: 24 }, text: '条码测试 Barcode test' },
      {
        type: 'barcode',
        id: 'code',
        x: 0,
        y: 40,
        w: moduleBox,
        h: 100,
        symbology,
        value,
        font: { size: 14 },
      },
    ],
  });

describe('symbols on rendered labels decode back to their data', () => {
  // Registering the two 10 MB font files is slow on a busy machine: not part of any one test.
  beforeAll(() => registerFonts(), 60_000);

  const codes: [Symbology, string, string][] = [
    ['ean13', '6901234567892', '6901234567892'],
    ['ean13', '690123456789', '6901234567892'],
    ['ean8', '90311017', '90311017'],
    ['upca', '036000291452', '036000291452'],
    ['code128', 'ESL-42', 'ESL-42'],
  ];
  test.each(codes)('%s %s (2 px modules and 1 px modules)', async (symbology, value, expected) => {
    for (const width of [296, 140]) {
      const preview = await renderToPng(symbolLabel(symbology, value, 'bwr', width), {});
      expect(preview.problems).toEqual([]);
      expect(read1d(preview.rgba, preview.image.width, preview.image.height, symbology)).toBe(expected);
    }
  });

  test('the reader is not fooled: a label without a symbol reads nothing', async () => {
    const preview = await renderToPng(doc({ size: { w: 296, h: 152 }, colourType: 'bw', elements: [] }), {});
    expect(read1d(preview.rgba, 296, 152, 'ean13')).toBeNull();
    expect(readQr(preview.rgba, 296, 152)).toBeNull();
  });

  test('a red barcode on a black/white/red tag still reads', async () => {
    const template = symbolLabel('ean13', '6901234567892', 'bwr', 296);
    const red = doc({ ...template, elements: template.elements.map((e) => ({ ...e, colour: 'red' as const })) });
    const preview = await renderToPng(red, {});
    expect(read1d(preview.rgba, 296, 152, 'ean13')).toBe('6901234567892');
  });

  test('QR codes with a URL and with Chinese text', async () => {
    for (const value of ['https://shop.example.com/p/6901234567892', '新疆阿克苏冰糖心苹果 ¥12.80']) {
      const template = doc({
        size: { w: 296, h: 152 },
        colourType: 'bwry',
        elements: [{ type: 'qrcode', id: 'qr', x: 150, y: 10, w: 132, h: 132, value, errorCorrection: 'M', margin: 2 }],
      });
      const preview = await renderToPng(template, {});
      expect(readQr(preview.rgba, 296, 152)).toBe(value);
    }
  });

  test.each([
    [296, 152, 'bwr'],
    [400, 300, 'bwy'],
    [800, 480, 'seven'],
    [250, 122, 'bwry'],
  ] as const)('the price label %i×%i %s: barcode and QR code read back', async (w, h, colourType) => {
    const preview = await renderToPng(priceLabel(w, h, colourType), PRODUCT);
    expect(read1d(preview.rgba, w, h, 'ean13')).toBe(PRODUCT.barcode);
    // Crop to the right-hand third so the reader sees the QR code alone.
    const left = Math.round(w * 0.6);
    const cropWidth = w - left;
    const crop = new Uint8ClampedArray(cropWidth * h * 4);
    for (let y = 0; y < h; y++) crop.set(preview.rgba.subarray((y * w + left) * 4, (y * w + w) * 4), y * cropWidth * 4);
    expect(readQr(crop, cropWidth, h)).toBe(PRODUCT.qrcode);
  });
});
