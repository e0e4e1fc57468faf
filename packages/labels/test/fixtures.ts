import type { ColourType, Ink } from '../src/model/colours';
import {
  type ElementInput,
  type LabelData,
  type Rotation,
  TEMPLATE_VERSION,
  TemplateDocument,
  type TemplateDocumentInput,
} from '../src/model/document';
import { rgbaToPng } from '../src/png';

/** A product as the server would pass it: Chinese name, discounted price, EAN-13, QR link. */
export const PRODUCT: LabelData = {
  name: '新疆阿克苏冰糖心苹果（特级大果）',
  price: 12.8,
  originalPrice: 15.9,
  barcode: '6901234567892',
  qrcode: 'https://shop.example.com/p/6901234567892',
  unit: '500g',
  spec: '特级 约4个',
  origin: '新疆阿克苏',
  grade: '一级',
};

export function doc(input: Omit<TemplateDocumentInput, 'version'>): TemplateDocument {
  return TemplateDocument.parse({ version: TEMPLATE_VERSION, ...input });
}

const ACCENT: Record<ColourType, Ink> = { bw: 'black', bwr: 'red', bwry: 'red', bwy: 'black', seven: 'red' };
const BAND: Record<ColourType, Ink | null> = { bw: null, bwr: null, bwry: 'yellow', bwy: 'yellow', seven: 'yellow' };

/**
 * A typical shelf label laid out in proportion to its size: product name (Chinese) on a band,
 * origin and spec, the price in the accent ink with the struck original price, an EAN-13 and a QR code.
 */
export function priceLabel(
  w: number,
  h: number,
  colourType: ColourType,
  options: { model?: string; rotation?: Rotation } = {},
): TemplateDocument {
  const rotation = options.rotation ?? 0;
  const [dw, dh] = rotation === 90 || rotation === 270 ? [h, w] : [w, h];
  const pad = Math.max(3, Math.round(Math.min(dw, dh) * 0.03));
  const band = Math.round(dh * 0.2);
  const small = Math.max(10, Math.round(dh * 0.08));
  const codeTop = Math.round(dh * 0.58);
  const codeHeight = dh - codeTop - pad;
  const qrSide = Math.min(codeHeight, Math.round(dw * 0.3));
  const elements: ElementInput[] = [
    { type: 'rect', id: 'band', x: 0, y: 0, w: dw, h: band, fill: BAND[colourType], strokeWidth: 0 },
    {
      type: 'text',
      id: 'name',
      x: pad,
      y: 0,
      w: dw - 2 * pad,
      h: band,
      font: { size: Math.round(band * 0.62), weight: 'bold' },
      binding: { key: 'name' },
      fit: 'ellipsis',
    },
    {
      type: 'line',
      id: 'rule',
      x: pad,
      y: band + Math.round(pad / 2),
      w: dw - 2 * pad,
      h: 0,
      strokeWidth: Math.max(1, Math.round(dh / 150)),
    },
    {
      type: 'text',
      id: 'origin',
      x: pad,
      y: band + pad,
      w: Math.round(dw * 0.42),
      h: small + 4,
      font: { size: small },
      binding: { key: 'origin', prefix: '产地 ' },
    },
    {
      type: 'text',
      id: 'spec',
      x: pad,
      y: band + pad + small + 6,
      w: Math.round(dw * 0.42),
      h: small + 4,
      font: { size: small },
      binding: { key: 'spec', prefix: '规格 ' },
    },
    {
      type: 'price',
      id: 'price',
      x: Math.round(dw * 0.45),
      y: band + pad,
      w: Math.round(dw * 0.55) - pad,
      h: Math.round(dh * 0.26),
      colour: ACCENT[colourType],
      align: 'right',
      font: { size: Math.round(dh * 0.26), weight: 'bold' },
      binding: { key: 'price' },
    },
    {
      type: 'price',
      id: 'original',
      x: Math.round(dw * 0.45),
      y: band + pad + Math.round(dh * 0.26) + 2,
      w: Math.round(dw * 0.55) - pad - qrSide - pad,
      h: small + 2,
      align: 'right',
      minorPosition: 'baseline',
      minorScale: 1,
      strike: true,
      onlyIfAbove: 'price',
      font: { size: small },
      binding: { key: 'originalPrice' },
    },
    {
      type: 'barcode',
      id: 'barcode',
      x: pad,
      y: codeTop,
      w: dw - qrSide - 3 * pad,
      h: codeHeight,
      symbology: 'ean13',
      font: { size: small },
      binding: { key: 'barcode' },
    },
    {
      type: 'qrcode',
      id: 'qr',
      x: dw - pad - qrSide,
      y: codeTop,
      w: qrSide,
      h: qrSide,
      binding: { key: 'qrcode' },
    },
  ];
  if (colourType === 'seven') {
    const inks: Ink[] = ['black', 'green', 'blue', 'red', 'yellow', 'orange'];
    const side = Math.round(dh * 0.05);
    inks.forEach((ink, i) => {
      elements.push({
        type: 'rect',
        id: `swatch-${ink}`,
        x: pad + i * (side + 2),
        y: codeTop - side - 2,
        w: side,
        h: side,
        fill: ink,
        strokeWidth: 0,
      });
    });
  }
  return doc({ size: { model: options.model ?? null, w, h }, colourType, rotation, elements });
}

let photo: string | undefined;

/**
 * A 96 × 64 synthetic "photo" as a PNG data URL: a grey ramp left to right over a colour ramp top
 * to bottom, so dithering has tones and hues to work on.
 */
export function photoDataUrl(): string {
  if (photo) return photo;
  const w = 96;
  const h = 64;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const grey = Math.round((x / (w - 1)) * 255);
      const t = y / (h - 1);
      const p = (y * w + x) * 4;
      if (y < h / 2) rgba.set([grey, grey, grey, 255], p);
      else rgba.set([Math.round(255 * t), Math.round(grey * (1 - t)), Math.round(255 * (1 - t) * (x / w)), 255], p);
    }
  }
  // btoa, not Buffer: browser.test.ts draws this document in Chromium too.
  const png = rgbaToPng(w, h, rgba);
  let text = '';
  for (let i = 0; i < png.length; i += 0x8000) text += String.fromCharCode(...png.subarray(i, i + 0x8000));
  photo = `data:image/png;base64,${btoa(text)}`;
  return photo;
}
