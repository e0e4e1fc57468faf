import { type ElementInput, LEGIBLE_PX } from '@esl/labels';

// The pieces the starter labels (documents.ts) are drawn with: text, prices, a barcode, and two
// whole layouts made by proportion for any panel size.

export const name = (x: number, y: number, w: number, h: number, size: number): ElementInput => ({
  type: 'text',
  id: 'name',
  x,
  y,
  w,
  h,
  font: { size, weight: 'bold' },
  text: '商品名称',
  binding: { key: 'name' },
});

export const small = (
  id: string,
  key: string,
  x: number,
  y: number,
  w: number,
  h: number,
  size: number,
): ElementInput => ({
  type: 'text',
  id,
  x,
  y,
  w,
  h,
  font: { size },
  binding: { key },
});

export const price = (
  x: number,
  y: number,
  w: number,
  h: number,
  size: number,
  colour: 'red' | 'black' = 'red',
): ElementInput => ({
  type: 'price',
  id: 'price',
  x,
  y,
  w,
  h,
  colour,
  font: { size, weight: 'bold' },
  binding: { key: 'price' },
});

export const was = (x: number, y: number, w: number, h: number, size: number): ElementInput => ({
  type: 'price',
  id: 'originalPrice',
  x,
  y,
  w,
  h,
  strike: true,
  minorPosition: 'baseline',
  minorScale: 1,
  onlyIfAbove: 'price',
  font: { size },
  binding: { key: 'originalPrice' },
});

export const barcode = (x: number, y: number, w: number, h: number, size = 12): ElementInput => ({
  type: 'barcode',
  id: 'barcode',
  x,
  y,
  w,
  h,
  symbology: 'ean13',
  font: { size },
  binding: { key: 'barcode' },
});

export type Accent = 'bw' | 'bwr' | 'bwy' | 'bwry' | 'seven';

/** A secondary text's size: by proportion, but never below the legible size (the editor flags smaller). */
const legible = (size: number) => Math.max(LEGIBLE_PX, Math.round(size));

/**
 * A shelf label laid out by proportion for any panel size, in the inks of its colour type: red
 * price on three-colour red panels; on yellow panels (where yellow text would not read) a yellow
 * name band with black text and a black price; both on four-colour panels; and a blue band, red
 * price and orange rule on seven-colour posters; black only on black and white panels.
 */
export function shelfLabel(w: number, h: number, accent: Accent): ElementInput[] {
  const m = Math.max(2, Math.round(w * 0.02));
  const row = (f: number) => Math.round(h * f);
  const band = row(0.2);
  const line = row(0.12);
  const priceH = row(0.36);
  const bottom = h - band - line - priceH - row(0.02);
  const bandFill = accent === 'bw' || accent === 'bwr' ? null : accent === 'seven' ? 'blue' : 'yellow';
  const priceInk = accent === 'bw' || accent === 'bwy' ? 'black' : 'red';
  const out: ElementInput[] = [];
  if (bandFill) out.push({ type: 'rect', id: 'band', x: 0, y: 0, w, h: band, fill: bandFill, strokeWidth: 0 });
  out.push({
    ...(name(m, 0, w - 2 * m, band, Math.round(band * 0.78)) as object),
    ...(accent === 'seven' ? { colour: 'white' } : {}),
  } as ElementInput);
  out.push(small('spec', 'spec', m, band, Math.round((w - 2 * m) / 2), line, legible(line * 0.75)));
  out.push(small('origin', 'origin', Math.round(w / 2), band, Math.round(w / 2) - m, line, legible(line * 0.75)));
  const py = band + line;
  const pw = Math.round(w * 0.6);
  out.push(price(m, py, pw, priceH, Math.round(priceH * 0.9), priceInk));
  out.push(
    was(
      pw + 2 * m,
      py + Math.round(priceH * 0.1),
      w - pw - 3 * m,
      Math.round(priceH * 0.45),
      Math.round(priceH * 0.33),
    ),
  );
  out.push(
    small(
      'unit',
      'unit',
      pw + 2 * m,
      py + Math.round(priceH * 0.58),
      w - pw - 3 * m,
      Math.round(priceH * 0.38),
      Math.round(priceH * 0.27),
    ),
  );
  const by = py + priceH + row(0.02);
  out.push({
    type: 'line',
    id: 'rule',
    x: 0,
    y: by - 1,
    w,
    h: 0,
    strokeWidth: Math.max(1, Math.round(h / 200)),
    ...(accent === 'seven' ? { colour: 'orange' } : {}),
  } as ElementInput);
  const qr = bottom - 2;
  out.push(
    barcode(
      m,
      by + 1,
      Math.min(Math.round(w * 0.58), w - qr - 3 * m),
      bottom - 2,
      Math.max(LEGIBLE_PX, Math.round(bottom * 0.2)),
    ),
  );
  out.push({ type: 'qrcode', id: 'qr', x: w - m - qr, y: by + 1, w: qr, h: qr, margin: 0, binding: { key: 'qrcode' } });
  return out;
}

/** The label of a tag without a product: black and white, so it fits every panel of its size. */
export function unboundLabel(w: number, h: number): ElementInput[] {
  const m = Math.max(2, Math.round(w * 0.04));
  return [
    { type: 'rect', id: 'frame', x: 0, y: 0, w, h, strokeWidth: Math.max(1, Math.round(h / 120)) },
    {
      type: 'text',
      id: 'title',
      x: m,
      y: Math.round(h * 0.18),
      w: w - 2 * m,
      h: Math.round(h * 0.36),
      align: 'center',
      font: { size: Math.round(h * 0.26), weight: 'bold' },
      text: '暂无商品',
    },
    {
      type: 'text',
      id: 'subtitle',
      x: m,
      y: Math.round(h * 0.58),
      w: w - 2 * m,
      h: Math.round(h * 0.22),
      align: 'center',
      font: { size: Math.round(h * 0.14) },
      text: 'No product',
    },
  ];
}
