import type { ColourType } from '../src/model/colours';
import type { DitherMode, LabelData, Rotation, TemplateDocument } from '../src/model/document';
import { doc, PRODUCT, photoDataUrl, priceLabel } from './fixtures';

// The golden documents (test/golden/*.png): also drawn in Chromium by browser.test.ts, which
// imports this module into a browser bundle, so nothing here may need Node.

export interface Case {
  readonly name: string;
  readonly doc: TemplateDocument;
  readonly data: LabelData;
  readonly dither?: DitherMode;
}

const models: [code: string, w: number, h: number, colourType: ColourType][] = [
  ['02', 200, 200, 'bw'],
  ['0B', 296, 152, 'bw'],
  ['05', 250, 122, 'bwr'],
  ['0A', 296, 152, 'bwr'],
  ['1C', 400, 300, 'bwr'],
  ['28', 800, 480, 'bwr'],
  ['08', 250, 122, 'bwry'],
  ['1B', 400, 300, 'bwry'],
  ['0D', 296, 152, 'bwy'],
  ['1A', 400, 300, 'bwy'],
  ['23', 800, 480, 'seven'],
  ['3D', 600, 448, 'seven'],
];

const photoLabel = (w: number, h: number, colourType: ColourType) =>
  doc({
    size: { w, h },
    colourType,
    elements: [
      { type: 'image', id: 'photo', x: 0, y: 0, w: Math.round(w * 0.6), h, src: photoDataUrl(), fit: 'stretch' },
      {
        type: 'price',
        id: 'price',
        x: Math.round(w * 0.6),
        y: 0,
        w: Math.round(w * 0.4),
        h,
        colour: colourType === 'bw' ? 'black' : 'red',
        align: 'center',
        font: { size: 48, weight: 'bold' },
        binding: { key: 'price' },
      },
    ],
  });

const textLabel = doc({
  size: { w: 400, h: 300 },
  colourType: 'bwr',
  elements: [
    { type: 'rect', id: 'frame', x: 0, y: 0, w: 400, h: 300, strokeWidth: 2 },
    {
      type: 'text',
      id: 'wrap',
      x: 10,
      y: 10,
      w: 380,
      h: 90,
      font: { size: 28 },
      lines: 3,
      text: '有机红富士苹果 Organic Fuji apples from Shandong, hand picked and sorted by size 特级',
    },
    { type: 'rect', id: 'b1', x: 10, y: 10, w: 380, h: 90, strokeWidth: 1, colour: 'red' },
    {
      type: 'text',
      id: 'ellipsis',
      x: 10,
      y: 110,
      w: 380,
      h: 60,
      font: { size: 24 },
      lines: 2,
      fit: 'ellipsis',
      text: '一行放不下的很长很长的商品描述文字会在第二行的末尾用省略号截断，而不是缩小字号或者溢出到框外',
    },
    { type: 'rect', id: 'b2', x: 10, y: 110, w: 380, h: 60, strokeWidth: 1, colour: 'red' },
    { type: 'text', id: 'shrink', x: 10, y: 180, w: 180, h: 40, font: { size: 36 }, text: 'Shrinks to fit 缩小' },
    { type: 'rect', id: 'b3', x: 10, y: 180, w: 180, h: 40, strokeWidth: 1, colour: 'red' },
    {
      type: 'text',
      id: 'right',
      x: 200,
      y: 180,
      w: 190,
      h: 40,
      align: 'right',
      valign: 'bottom',
      font: { size: 18, weight: 'bold' },
      binding: { key: 'unit', prefix: '规格 ', format: 'upper' },
    },
    { type: 'line', id: 'diag', x: 10, y: 230, w: 180, h: 60, strokeWidth: 3 },
    { type: 'line', id: 'diag2', x: 10, y: 230, w: 180, h: 60, strokeWidth: 1, flip: true, colour: 'red' },
    {
      type: 'barcode',
      id: 'c128',
      x: 200,
      y: 230,
      w: 190,
      h: 60,
      symbology: 'code128',
      value: 'ESL-0042',
      font: { size: 12 },
    },
  ],
});

/** A 296 × 152 panel mounted upright: designed 152 wide, 296 high. */
export const portraitLabel = (rotation: Rotation) =>
  doc({
    size: { model: '0A', w: 296, h: 152 },
    colourType: 'bwr',
    rotation,
    elements: [
      { type: 'rect', id: 'band', x: 0, y: 0, w: 152, h: 6, fill: 'red', strokeWidth: 0 },
      {
        type: 'text',
        id: 'name',
        x: 6,
        y: 10,
        w: 140,
        h: 56,
        lines: 2,
        font: { size: 22, weight: 'bold' },
        binding: { key: 'name' },
        fit: 'ellipsis',
      },
      { type: 'text', id: 'spec', x: 6, y: 70, w: 140, h: 18, font: { size: 14 }, binding: { key: 'spec' } },
      {
        type: 'price',
        id: 'price',
        x: 6,
        y: 92,
        w: 140,
        h: 56,
        colour: 'red',
        align: 'center',
        font: { size: 52, weight: 'bold' },
        binding: { key: 'price' },
      },
      { type: 'qrcode', id: 'qr', x: 46, y: 152, w: 60, h: 60, align: 'center', binding: { key: 'qrcode' } },
      {
        type: 'barcode',
        id: 'barcode',
        x: 0,
        y: 220,
        w: 152,
        h: 70,
        symbology: 'ean13',
        font: { size: 14 },
        binding: { key: 'barcode' },
      },
    ],
  });

/**
 * Product names in the scripts of the markets labels are sold in (issue 28): each needs its own
 * font of the fallback chain, and all but Korean and Japanese need the shaper (joining, marks,
 * reordering, right to left with numbers inside).
 */
export const SCRIPT_NAMES: Record<string, string> = {
  korean: '농심 신라면 멀티팩 120g×5',
  japanese: '伊藤園 お〜いお茶 緑茶 ペットボトル 525ml',
  thai: 'ข้าวหอมมะลิ ตราฉัตร 5 กก.',
  arabic: 'حليب طازج كامل الدسم 2 لتر 3%',
  hebrew: 'חלב טרי 3% שומן 1 ליטר',
  devanagari: 'टाटा चाय प्रीमियम 250 ग्राम',
};

/** The price label of the 2.9" (296 × 152) and 7.5" (800 × 480) black/white/red tags, names in each script. */
export const scriptCases: Case[] = Object.entries(SCRIPT_NAMES).flatMap(([script, name]) =>
  (
    [
      ['0A', 296, 152],
      ['28', 800, 480],
    ] as const
  ).map(([model, w, h]) => ({
    name: `script-${script}-${w}x${h}`,
    doc: priceLabel(w, h, 'bwr', { model }),
    data: { ...PRODUCT, name },
  })),
);

/**
 * Japanese glyph forms and explicit bidi controls: a Japanese name wrapped by its own line breaks,
 * its second line kanji only (still drawn in Noto Sans JP: the whole text has kana), the same kanji
 * without kana (Chinese forms, the base font); a Hebrew name with a Latin product code in an LRI
 * and Latin with digits under RLO (drawn right to left: "cba 21").
 */
const formsAndBidiLabel = doc({
  size: { w: 400, h: 300 },
  colourType: 'bwr',
  elements: [
    {
      type: 'text',
      id: 'japanese',
      x: 10,
      y: 10,
      w: 380,
      h: 110,
      font: { size: 28 },
      lines: 3,
      text: 'おいしい ほうじ茶\n静岡県産 骨角直写 緑\n限定品 500ml',
    },
    { type: 'text', id: 'chinese', x: 10, y: 125, w: 380, h: 40, font: { size: 28 }, text: '静岡県産 骨角直写 緑' },
    {
      type: 'text',
      id: 'hebrew',
      x: 10,
      y: 180,
      w: 380,
      h: 50,
      align: 'right',
      font: { size: 28, weight: 'bold' },
      text: 'קוד \u2066123 ABC\u2069 מבצע',
    },
    {
      type: 'text',
      id: 'override',
      x: 10,
      y: 240,
      w: 380,
      h: 50,
      font: { size: 28 },
      text: 'Sale \u202e12 abc\u202c ok',
    },
  ],
});

export const cases: Case[] = [
  ...models.map(([code, w, h, colourType]) => ({
    name: `price-${colourType}-${w}x${h}`,
    doc: priceLabel(w, h, colourType, { model: code }),
    data: PRODUCT,
  })),
  {
    name: 'price-bwr-296x152-no-discount',
    doc: priceLabel(296, 152, 'bwr'),
    data: { ...PRODUCT, originalPrice: 12.8 },
  },
  ...(['ordered', 'diffusion'] as const).flatMap((dither) =>
    (['bw', 'bwr', 'seven'] as const).map((colourType) => ({
      name: `photo-${colourType}-${dither}`,
      doc: photoLabel(296, 152, colourType),
      data: PRODUCT,
      dither,
    })),
  ),
  { name: 'text-fit-bwr-400x300', doc: textLabel, data: { unit: '500g' } },
  ...scriptCases,
  { name: 'script-forms-bidi-bwr-400x300', doc: formsAndBidiLabel, data: {} },
];
