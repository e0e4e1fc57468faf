import { type ElementInput, TEMPLATE_VERSION, type TemplateDocumentInput } from '@esl/labels';
import { type Accent, barcode, name, price, shelfLabel, small, unboundLabel, was } from './elements';

// The starter labels: what the demo tenant shows and what every new tenant starts with (one
// source; install.ts adds them to a tenant, rules.ts says which tag shows which).

/** A ready-made template: its name in the tenant's list and its document. */
export interface StarterTemplate {
  name: string;
  doc: TemplateDocumentInput;
  /** The "no product" label of its panel size (a tag without a product shows it). */
  unbound?: true;
}

/** Custom data keys of the starter labels (products may carry them; templates fall back to their text). */
export const STARTER_DATA_KEYS = [
  { name: 'promo', tField: '促销语' },
  { name: 'memberPrice', tField: '会员价' },
] as const;

/** Shelf labels drawn by hand for the common tag models. */
export const DRAWN_TEMPLATES: StarterTemplate[] = [
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
        barcode(4, 90, 150, 30, 12),
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
      // Page 2 (docs/PAGES.md): the product's details, for *Show page*, the tag's button and page
      // schedules to switch to; the demo's one label with two pages.
      pages: [
        {
          elements: [
            { type: 'rect', id: 'p2frame', x: 0, y: 0, w: 800, h: 480, strokeWidth: 4 },
            { type: 'rect', id: 'p2band', x: 0, y: 0, w: 800, h: 96, fill: 'red', strokeWidth: 0 },
            { ...name(24, 16, 752, 64, 52), id: 'p2name', colour: 'white' },
            detail('p2origin', 'origin', '产地 ', 120),
            detail('p2spec', 'spec', '规格 ', 184),
            detail('p2grade', 'grade', '等级 ', 248),
            detail('p2unit', 'unit', '单位 ', 312),
            { type: 'line', id: 'p2rule', x: 24, y: 372, w: 752, h: 0, strokeWidth: 3 },
            { ...barcode(24, 384, 420, 84, 22), id: 'p2barcode' },
          ],
        },
      ],
    },
  },
];

/** A line of page 2's details: a label and the product's field. */
function detail(id: string, key: string, prefix: string, y: number): ElementInput {
  return { type: 'text', id, x: 24, y, w: 752, h: 56, font: { size: 40 }, binding: { key, prefix } };
}

const made = (
  label: string,
  model: string | null,
  w: number,
  h: number,
  colourType: Accent | 'bw',
  elements: ElementInput[],
): StarterTemplate => ({
  name: label,
  doc: { version: TEMPLATE_VERSION, size: { model, w, h }, colourType, elements },
});

const unbound = (inch: string, w: number, h: number): StarterTemplate => ({
  ...made(`未绑定 ${inch} 寸`, null, w, h, 'bw', unboundLabel(w, h)),
  unbound: true,
});

/**
 * Labels for the other models and colour types of the common sizes (yellow, seven-colour and
 * black and white panels included), laid out by proportion, and the "no product" label of each of those sizes —
 * free-size and black and white, as it fits every panel of its size whatever its model.
 */
export const MORE_TEMPLATES: StarterTemplate[] = [
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
  made('方形价签 1.54 寸 黑白', '02', 200, 200, 'bw', shelfLabel(200, 200, 'bw')),
  made('小价签 2.13 寸 黑白', '06', 250, 122, 'bw', shelfLabel(250, 122, 'bw')),
  made('标准价签 2.66 寸 黑白', '0B', 296, 152, 'bw', shelfLabel(296, 152, 'bw')),
  made('标准价签 2.9 寸 黑白', '10', 296, 128, 'bw', shelfLabel(296, 128, 'bw')),
  made('促销价签 4.2 寸 黑白', '19', 400, 300, 'bw', shelfLabel(400, 300, 'bw')),
  made('货架大屏 7.5 寸 黑白', '24', 800, 480, 'bw', shelfLabel(800, 480, 'bw')),
  made('货架大屏 10.2 寸 黑白', '2B', 960, 640, 'bw', shelfLabel(960, 640, 'bw')),
  unbound('1.54', 200, 200),
  unbound('2.13', 250, 122),
  unbound('2.66', 296, 152),
  unbound('2.9', 296, 128),
  unbound('4.2', 400, 300),
  unbound('7.5', 800, 480),
  unbound('10.2', 960, 640),
];

/** Every starter template, in the order they are added. */
export const STARTER_TEMPLATES: readonly StarterTemplate[] = [...DRAWN_TEMPLATES, ...MORE_TEMPLATES];
