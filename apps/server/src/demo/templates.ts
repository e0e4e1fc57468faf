import { type ElementInput, TEMPLATE_VERSION, TemplateDocument, type TemplateDocumentInput } from '@esl/labels';
import { randomHex } from '../infra/lib/random';
import { renderThumbnail } from '../infra/render';
import { insertTemplate, listDataKeys, nameTaken, saveThumb, upsertDataKey } from '../modules/templates/repository';
import { documentColumns } from '../modules/templates/service';
import type { SeedContext, SeedStep } from './step';

/** Custom data keys of the demo tenant (products may carry them; templates fall back to their text). */
export const DEMO_DATA_KEYS = [
  { name: 'promo', tField: '促销语' },
  { name: 'memberPrice', tField: '会员价' },
] as const;

const name = (x: number, y: number, w: number, h: number, size: number): ElementInput => ({
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

const small = (id: string, key: string, x: number, y: number, w: number, h: number, size: number): ElementInput => ({
  type: 'text',
  id,
  x,
  y,
  w,
  h,
  font: { size },
  binding: { key },
});

const price = (
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

const was = (x: number, y: number, w: number, h: number, size: number): ElementInput => ({
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

const barcode = (x: number, y: number, w: number, h: number, size = 12): ElementInput => ({
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

/** Ready-made shelf labels for the demo tenant's common tag models. */
export const DEMO_TEMPLATES: { name: string; doc: TemplateDocumentInput }[] = [
  {
    name: '标准价签 2.66 寸 三色',
    doc: {
      version: TEMPLATE_VERSION,
      size: { model: '0A', w: 296, h: 152 },
      colourType: 'bwr',
      elements: [
        name(6, 2, 284, 30, 24),
        small('spec', 'spec', 6, 32, 140, 18, 14),
        small('origin', 'origin', 150, 32, 140, 18, 14),
        price(4, 50, 180, 56, 50),
        was(190, 62, 100, 26, 18),
        small('unit', 'unit', 190, 88, 100, 18, 14),
        { type: 'line', id: 'rule', x: 0, y: 108, w: 296, h: 0 },
        barcode(6, 111, 170, 39),
        { type: 'qrcode', id: 'qr', x: 250, y: 110, w: 40, h: 40, margin: 0, binding: { key: 'qrcode' } },
      ],
    },
  },
  {
    name: '小价签 2.13 寸 三色',
    doc: {
      version: TEMPLATE_VERSION,
      size: { model: '05', w: 250, h: 122 },
      colourType: 'bwr',
      elements: [
        name(4, 2, 242, 26, 20),
        small('spec', 'spec', 4, 28, 242, 16, 12),
        price(2, 44, 160, 44, 40),
        was(166, 54, 80, 22, 15),
        barcode(4, 90, 150, 30, 10),
        small('unit', 'unit', 166, 90, 80, 16, 12),
      ],
    },
  },
  {
    name: '促销价签 4.2 寸 三色',
    doc: {
      version: TEMPLATE_VERSION,
      size: { model: '1C', w: 400, h: 300 },
      colourType: 'bwr',
      elements: [
        {
          type: 'text',
          id: 'promo',
          x: 0,
          y: 0,
          w: 400,
          h: 44,
          colour: 'white',
          fill: 'red',
          align: 'center',
          font: { size: 30, weight: 'bold' },
          text: '限时特惠',
          binding: { key: 'promo' },
        },
        name(10, 50, 380, 40, 32),
        small('spec', 'spec', 10, 92, 190, 22, 18),
        small('origin', 'origin', 200, 92, 190, 22, 18),
        price(6, 118, 270, 90, 84),
        was(280, 140, 114, 32, 24),
        small('unit', 'unit', 280, 176, 114, 24, 18),
        { type: 'line', id: 'rule', x: 0, y: 214, w: 400, h: 0, strokeWidth: 2 },
        barcode(10, 222, 240, 70, 16),
        { type: 'qrcode', id: 'qr', x: 318, y: 220, w: 74, h: 74, margin: 0, binding: { key: 'qrcode' } },
      ],
    },
  },
  {
    name: '四色价签 2.66 寸',
    doc: {
      version: TEMPLATE_VERSION,
      size: { model: '0C', w: 296, h: 152 },
      colourType: 'bwry',
      elements: [
        { type: 'rect', id: 'band', x: 0, y: 0, w: 296, h: 34, fill: 'yellow', strokeWidth: 0 },
        name(6, 2, 284, 30, 24),
        small('spec', 'spec', 6, 36, 284, 18, 14),
        price(4, 54, 180, 56, 50),
        was(190, 66, 100, 26, 18),
        barcode(6, 112, 170, 38),
        small('grade', 'grade', 190, 120, 100, 20, 14),
      ],
    },
  },
  {
    name: '货架大屏 7.5 寸 三色',
    doc: {
      version: TEMPLATE_VERSION,
      size: { model: '28', w: 800, h: 480 },
      colourType: 'bwr',
      elements: [
        { type: 'rect', id: 'frame', x: 0, y: 0, w: 800, h: 480, strokeWidth: 4 },
        name(24, 20, 752, 80, 64),
        small('spec', 'spec', 24, 108, 360, 40, 30),
        small('origin', 'origin', 400, 108, 376, 40, 30),
        price(16, 160, 520, 180, 170),
        was(560, 200, 220, 60, 44),
        small('grade', 'grade', 560, 270, 220, 40, 30),
        { type: 'line', id: 'rule', x: 24, y: 352, w: 752, h: 0, strokeWidth: 3 },
        barcode(24, 364, 420, 100, 24),
        { type: 'qrcode', id: 'qr', x: 660, y: 360, w: 110, h: 110, margin: 0, binding: { key: 'qrcode' } },
      ],
    },
  },
];

type Accent = 'bwr' | 'bwy' | 'bwry' | 'seven';

/**
 * A shelf label laid out by proportion for any panel size, in the inks of its colour type: red
 * price on three-colour red panels; on yellow panels (where yellow text would not read) a yellow
 * name band with black text and a black price; both on four-colour panels; and a blue band, red
 * price and orange rule on seven-colour posters.
 */
function shelfLabel(w: number, h: number, accent: Accent): ElementInput[] {
  const m = Math.max(2, Math.round(w * 0.02));
  const row = (f: number) => Math.round(h * f);
  const band = row(0.2);
  const line = row(0.12);
  const priceH = row(0.36);
  const bottom = h - band - line - priceH - row(0.02);
  const bandFill = accent === 'bwr' ? null : accent === 'seven' ? 'blue' : 'yellow';
  const priceInk = accent === 'bwy' ? 'black' : 'red';
  const out: ElementInput[] = [];
  if (bandFill) out.push({ type: 'rect', id: 'band', x: 0, y: 0, w, h: band, fill: bandFill, strokeWidth: 0 });
  out.push({
    ...(name(m, 0, w - 2 * m, band, Math.round(band * 0.78)) as object),
    ...(accent === 'seven' ? { colour: 'white' } : {}),
  } as ElementInput);
  out.push(small('spec', 'spec', m, band, Math.round((w - 2 * m) / 2), line, Math.round(line * 0.75)));
  out.push(small('origin', 'origin', Math.round(w / 2), band, Math.round(w / 2) - m, line, Math.round(line * 0.75)));
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
      Math.max(10, Math.round(bottom * 0.2)),
    ),
  );
  out.push({ type: 'qrcode', id: 'qr', x: w - m - qr, y: by + 1, w: qr, h: qr, margin: 0, binding: { key: 'qrcode' } });
  return out;
}

/** The label of a tag without a product: black and white, so it fits every panel of its size. */
function unboundLabel(w: number, h: number): ElementInput[] {
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

const made = (
  label: string,
  model: string | null,
  w: number,
  h: number,
  colourType: Accent | 'bw',
  elements: ElementInput[],
): { name: string; doc: TemplateDocumentInput } => ({
  name: label,
  doc: { version: TEMPLATE_VERSION, size: { model, w, h }, colourType, elements },
});

/**
 * Labels for every other model and colour type the demo tags come in (yellow and seven-colour
 * panels included), and the "no product" label of each demo panel size — free-size and black and
 * white, as it fits every panel of its size whatever its model: with these every demo tag has a
 * label to show (rules.ts says which).
 */
export const DEMO_MORE_TEMPLATES: { name: string; doc: TemplateDocumentInput }[] = [
  made('方形价签 1.54 寸 三色', '01', 200, 200, 'bwr', shelfLabel(200, 200, 'bwr')),
  made('方形价签 1.54 寸 黄色', '01', 200, 200, 'bwy', shelfLabel(200, 200, 'bwy')),
  made('小价签 2.13 寸 黄色', '05', 250, 122, 'bwy', shelfLabel(250, 122, 'bwy')),
  made('标准价签 2.66 寸 黄色', '0A', 296, 152, 'bwy', shelfLabel(296, 152, 'bwy')),
  made('标准价签 2.9 寸 三色', '0F', 296, 128, 'bwr', shelfLabel(296, 128, 'bwr')),
  made('标准价签 2.9 寸 黄色', '0F', 296, 128, 'bwy', shelfLabel(296, 128, 'bwy')),
  made('四色价签 2.9 寸', '12', 296, 128, 'bwry', shelfLabel(296, 128, 'bwry')),
  made('促销价签 4.2 寸 黄色', '1C', 400, 300, 'bwy', shelfLabel(400, 300, 'bwy')),
  made('货架大屏 7.5 寸 黄色', '28', 800, 480, 'bwy', shelfLabel(800, 480, 'bwy')),
  made('货架大屏 10.2 寸 三色', '2C', 960, 640, 'bwr', shelfLabel(960, 640, 'bwr')),
  made('货架大屏 10.2 寸 黄色', '2C', 960, 640, 'bwy', shelfLabel(960, 640, 'bwy')),
  made('彩色海报 7.3 寸 七色', '23', 800, 480, 'seven', shelfLabel(800, 480, 'seven')),
  ...(
    [
      ['1.54', 200, 200],
      ['2.13', 250, 122],
      ['2.66', 296, 152],
      ['2.9', 296, 128],
      ['4.2', 400, 300],
      ['7.5', 800, 480],
      ['10.2', 960, 640],
    ] as const
  ).map(([inch, w, h]) => made(`未绑定 ${inch} 寸`, null, w, h, 'bw', unboundLabel(w, h))),
];

/** Every demo template. */
export const ALL_DEMO_TEMPLATES = [...DEMO_TEMPLATES, ...DEMO_MORE_TEMPLATES];

/** Adds the demo templates that are missing (by name) and the demo tenant's custom data keys. */
export const templatesStep: SeedStep = {
  name: 'templates',
  async run(ctx: SeedContext) {
    const known = new Set((await listDataKeys(ctx.db, ctx.tenantId)).map((k) => k.name));
    for (const [position, key] of DEMO_DATA_KEYS.entries()) {
      if (!known.has(key.name)) await upsertDataKey(ctx.db, ctx.tenantId, key.name, key.tField, position + 1);
    }
    for (const demo of ALL_DEMO_TEMPLATES) {
      if (await nameTaken(ctx.db, ctx.tenantId, demo.name)) continue;
      const doc = TemplateDocument.parse(demo.doc);
      const { id } = await insertTemplate(ctx.db, {
        tenant_id: ctx.tenantId,
        name: demo.name,
        ...documentColumns(doc),
        revision: 1,
        created_at: ctx.now,
        updated_at: ctx.now,
      });
      const png = await renderThumbnail(doc);
      await saveThumb(ctx.db, { template_id: id, tenant_id: ctx.tenantId, key: randomHex(16), png, revision: 1 });
      ctx.templatesAdded?.set(demo.name, id);
    }
  },
};
