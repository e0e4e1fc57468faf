import { z } from 'zod';
import { ColourType, Ink } from './colours';
import { DATA_KEY_PATTERN, LIMITS } from './limits';

/** Version of the template document this code writes. `migrate` upgrades older ones. */
export const TEMPLATE_VERSION = 2;

export const FONT_FAMILY = 'Noto Sans SC';

/** Standard product fields a template can bind to; any other key names a custom field. */
export const DATA_KEYS = [
  'name',
  'price',
  'originalPrice',
  'barcode',
  'qrcode',
  'unit',
  'spec',
  'origin',
  'grade',
] as const;
export type StandardDataKey = (typeof DATA_KEYS)[number];

/** A data key: a standard field or a custom one (letters, digits, underscore; starts with a letter). */
export const DataKey = z.string().regex(DATA_KEY_PATTERN, 'a data key is a letter then letters, digits or _');

/** How a bound value becomes text: as is, upper/lower case, or a number with 0–2 decimals. */
export const TEXT_FORMATS = ['plain', 'upper', 'lower', 'fixed0', 'fixed1', 'fixed2'] as const;
export const TextFormat = z.enum(TEXT_FORMATS);
export type TextFormat = z.infer<typeof TextFormat>;

export const Binding = z
  .object({
    key: DataKey,
    format: TextFormat.default('plain'),
    prefix: z.string().max(LIMITS.affixChars).default(''),
    suffix: z.string().max(LIMITS.affixChars).default(''),
  })
  .readonly();
export type Binding = z.infer<typeof Binding>;

export const Font = z
  .object({
    family: z.string().min(1).max(LIMITS.fontFamilyChars).default(FONT_FAMILY),
    /** Pixel size (the em size), before any shrinking to fit. */
    size: z.number().min(LIMITS.fontSize.min).max(LIMITS.fontSize.max).default(16),
    weight: z.enum(['normal', 'bold']).default('normal'),
  })
  .readonly();
export type Font = z.infer<typeof Font>;

const Align = z.enum(['left', 'center', 'right']);
const VAlign = z.enum(['top', 'middle', 'bottom']);
const coordinate = z.number().min(LIMITS.coordinate.min).max(LIMITS.coordinate.max);
const length = z.number().min(LIMITS.length.min).max(LIMITS.length.max);

/** Fields every element has. `colour` is the foreground ink, `fill` an optional box background. */
const base = {
  id: z.string().min(1).max(LIMITS.idChars),
  x: coordinate,
  y: coordinate,
  w: length,
  h: length,
  colour: Ink.default('black'),
  fill: Ink.nullable().default(null),
  font: Font.default(Font.parse({})),
  align: Align.default('left'),
  valign: VAlign.default('middle'),
  binding: Binding.nullable().default(null),
};

export const TextElement = z
  .object({
    ...base,
    type: z.literal('text'),
    /** Shown when there is no binding, or the bound value is empty. */
    text: z.string().max(LIMITS.textChars).default(''),
    /** What happens when the text is too wide: shrink the font (down to a floor), or cut with "…". */
    fit: z.enum(['shrink', 'ellipsis']).default('shrink'),
    /** Most lines the text may wrap onto. */
    lines: z.number().int().min(LIMITS.textLines.min).max(LIMITS.textLines.max).default(1),
  })
  .readonly();

export const PriceElement = z
  .object({
    ...base,
    type: z.literal('price'),
    /** Shown when there is no binding. */
    value: z.number().nullable().default(null),
    currency: z.string().max(LIMITS.currencyChars).default('¥'),
    decimals: z.number().int().min(LIMITS.decimals.min).max(LIMITS.decimals.max).default(2),
    /** Size of the currency sign and decimals relative to the integer part. */
    minorScale: z.number().min(LIMITS.minorScale.min).max(LIMITS.minorScale.max).default(0.5),
    /** Decimals set at the top of the integer digits (shelf-label style) or on the baseline. */
    minorPosition: z.enum(['top', 'baseline']).default('top'),
    /** Draw a line through the price (an original price next to the current one). */
    strike: z.boolean().default(false),
    /** Show only when this price is above the value of that key (e.g. original above `price`). */
    onlyIfAbove: DataKey.nullable().default(null),
  })
  .readonly();

export const SYMBOLOGIES = ['ean13', 'ean8', 'code128', 'upca'] as const;
export const Symbology = z.enum(SYMBOLOGIES);
export type Symbology = z.infer<typeof Symbology>;

export const BarcodeElement = z
  .object({
    ...base,
    type: z.literal('barcode'),
    symbology: Symbology.default('ean13'),
    value: z.string().max(LIMITS.barcodeChars).default(''),
    /** Print the human-readable digits under the bars, in `font`. */
    showText: z.boolean().default(true),
  })
  .readonly();

export const QrElement = z
  .object({
    ...base,
    type: z.literal('qrcode'),
    value: z.string().max(LIMITS.qrChars).default(''),
    errorCorrection: z.enum(['L', 'M', 'Q', 'H']).default('M'),
    /** Quiet zone in modules around the symbol, when the box leaves room for it. */
    margin: z.number().int().min(LIMITS.qrMargin.min).max(LIMITS.qrMargin.max).default(1),
  })
  .readonly();

export const RectElement = z
  .object({
    ...base,
    type: z.literal('rect'),
    /** Border width in pixels, drawn inside the box in `colour`; 0 for none. */
    strokeWidth: z.number().int().min(LIMITS.rectStroke.min).max(LIMITS.rectStroke.max).default(1),
  })
  .readonly();

export const LineElement = z
  .object({
    ...base,
    type: z.literal('line'),
    /**
     * The line runs from (x, y) to (x + w, y + h), or from (x, y + h) to (x + w, y) when flipped.
     * h = 0 is horizontal (rows y … y + strokeWidth − 1), w = 0 vertical; both are pixel-exact.
     */
    flip: z.boolean().default(false),
    strokeWidth: z.number().int().min(LIMITS.lineStroke.min).max(LIMITS.lineStroke.max).default(1),
  })
  .readonly();

export const ImageElement = z
  .object({
    ...base,
    type: z.literal('image'),
    /** A data URL (PNG, JPEG); a binding supplies one instead. */
    src: z.string().max(LIMITS.imageChars).default(''),
    fit: z.enum(['contain', 'cover', 'stretch']).default('contain'),
  })
  .readonly();

export const Element = z.discriminatedUnion('type', [
  TextElement,
  PriceElement,
  BarcodeElement,
  QrElement,
  RectElement,
  LineElement,
  ImageElement,
]);
export type Element = z.infer<typeof Element>;
export type ElementType = Element['type'];
export type TextElement = z.infer<typeof TextElement>;
export type PriceElement = z.infer<typeof PriceElement>;
export type BarcodeElement = z.infer<typeof BarcodeElement>;
export type QrElement = z.infer<typeof QrElement>;
export type RectElement = z.infer<typeof RectElement>;
export type LineElement = z.infer<typeof LineElement>;
export type ImageElement = z.infer<typeof ImageElement>;
/** What an editor passes in: defaults may be left out. */
export type ElementInput = z.input<typeof Element>;

export const ELEMENT_TYPES: readonly ElementType[] = ['text', 'price', 'barcode', 'qrcode', 'rect', 'line', 'image'];

export const DITHER_MODES = ['none', 'ordered', 'diffusion'] as const;
export const DitherMode = z.enum(DITHER_MODES);
export type DitherMode = z.infer<typeof DitherMode>;

export const Rotation = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);
export type Rotation = z.infer<typeof Rotation>;

export const LabelSize = z
  .object({
    /** Tag model code from the catalogue (two hex digits), when the template is made for one. */
    model: z
      .string()
      .regex(/^[0-9A-Fa-f]{2}$/)
      .transform((s) => s.toUpperCase())
      .nullable()
      .default(null),
    /** Panel pixels, width × height, as the panel is driven. */
    w: z.number().int().min(LIMITS.panel.min).max(LIMITS.panel.max),
    h: z.number().int().min(LIMITS.panel.min).max(LIMITS.panel.max),
  })
  .readonly();
export type LabelSize = z.infer<typeof LabelSize>;

/** NFC content types (docs/PROTOCOL.md §5.16): an NDEF URI record or a text record. */
export const NFC_TYPES = ['uri', 'text'] as const;
export const NfcType = z.enum(NFC_TYPES);
export type NfcType = z.infer<typeof NfcType>;

/**
 * What a tag with an NFC chip gives a phone (docs/SHELF.md): the value of data field `key` (a
 * product field such as `qrcode`, or a custom field), written as a URI or a text record.
 */
export const NfcBinding = z.object({ key: DataKey, type: NfcType.default('uri') }).readonly();
export type NfcBinding = z.infer<typeof NfcBinding>;

export const TemplateDocument = z
  .object({
    version: z.literal(TEMPLATE_VERSION),
    size: LabelSize,
    colourType: ColourType,
    /** Clockwise turn from the design (what a reader sees) to the panel; 90/270 swap width and height. */
    rotation: Rotation.default(0),
    background: Ink.default('white'),
    dither: DitherMode.default('none'),
    elements: z.array(Element).max(LIMITS.elements).default([]),
    /**
     * Pages after the first (docs/PAGES.md): each a list of elements drawn like `elements`, at the
     * same size and in the same inks. Left out (or empty): a label of one page.
     */
    pages: z
      .array(z.object({ elements: z.array(Element).max(LIMITS.elements).default([]) }).readonly())
      .max(LIMITS.pages - 1)
      .optional(),
    /** The data field written to the tag's NFC chip; left out: the tag's NFC is not written. */
    nfc: NfcBinding.optional(),
  })
  .readonly();
export type TemplateDocument = z.infer<typeof TemplateDocument>;

/** How many pages a label has (1 when the document has no `pages`). */
export function pageCount(doc: Pick<TemplateDocument, 'pages'>): number {
  return 1 + (doc.pages?.length ?? 0);
}

/**
 * Page `page` (1-based) of a document as a one-page document: page 1 is `elements`, page k the
 * elements of `pages[k − 2]`. A page past the last gives page 1.
 */
export function pageDoc(doc: TemplateDocument, page: number): TemplateDocument {
  const extra = page > 1 ? doc.pages?.[page - 2] : undefined;
  const { pages: _pages, ...rest } = doc;
  return { ...rest, elements: extra ? extra.elements : doc.elements };
}

/**
 * Page `page` (1-based) brought to the front: its elements and page 1's change places, so an
 * editor that draws and edits `elements` works on that page. Its own inverse: swapping the same
 * page again gives the document back. Page 1 (or a page past the last) leaves it as it is.
 */
export function swapPage(doc: TemplateDocument, page: number): TemplateDocument {
  const other = page > 1 ? doc.pages?.[page - 2] : undefined;
  if (!other || !doc.pages) return doc;
  const pages = doc.pages.map((p, i) => (i === page - 2 ? { elements: doc.elements } : p));
  return { ...doc, elements: other.elements, pages };
}

/** Every element of every page, for what a whole label needs loaded (fonts, images). */
export function allPagesDoc(doc: TemplateDocument): TemplateDocument {
  if (!doc.pages?.length) return doc;
  return { ...doc, elements: [...doc.elements, ...doc.pages.flatMap((p) => p.elements)] };
}
export type TemplateDocumentInput = z.input<typeof TemplateDocument>;

/** The drawing area a designer works in: the panel turned back by the rotation. */
export function designSize(doc: Pick<TemplateDocument, 'size' | 'rotation'>): { w: number; h: number } {
  const { w, h } = doc.size;
  return doc.rotation === 90 || doc.rotation === 270 ? { w: h, h: w } : { w, h };
}

/** Product data a label is drawn from: field key → value. */
export type LabelData = Readonly<Record<string, string | number | null | undefined>>;

/** Values shown when a template is previewed without a product. */
export const SAMPLE_DATA: LabelData = {
  name: '有机红富士苹果',
  price: 12.8,
  originalPrice: 15.9,
  barcode: '6901234567892',
  qrcode: 'https://example.com/p/6901234567892',
  unit: '500g',
  spec: '特级 · 约 4 个',
  origin: '山东烟台',
  grade: '一级',
};
