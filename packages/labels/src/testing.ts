// The shared test label (`@esl/labels/testing`): one price label for the tests, benches and e2e
// suites of every workspace, laid out in proportion to any size. Model only, no canvas: it is
// plain data, safe in a browser bundle. Not part of the `.` or `./model` entries.
//
// The golden documents of this package (test/fixtures.ts, test/cases.ts) are not built from it:
// their pictures are saved, so they stay frozen whatever becomes of this fixture.
import type { ColourType, Ink } from './model/colours';
import { type ElementInput, type Rotation, TEMPLATE_VERSION, type TemplateDocumentInput } from './model/document';
import { LIMITS } from './model/limits';

/** The ink of the price: red where the set has it, else black (yellow text does not read). */
const ACCENT: Record<ColourType, Ink> = { bw: 'black', bwr: 'red', bwry: 'red', bwy: 'black', seven: 'red' };

/** A font size in pixels, rounded into the model's range. */
const px = (size: number) => Math.min(LIMITS.fontSize.max, Math.max(LIMITS.fontSize.min, Math.round(size)));

export interface PriceLabelOptions {
  /** Panel pixels as driven (`size.w`, `size.h`); a rotation of 90 or 270 lays out on h × w. */
  w: number;
  h: number;
  /** Catalogue model code; null (the default) for a free size. */
  model?: string | null;
  /** Default 'bwr'. */
  colourType?: ColourType;
  /** Default 0. */
  rotation?: Rotation;
  /** The struck original price `was` (key `originalPrice`) beside the price. Default false. */
  original?: boolean;
  /** A rule `rule` and an EAN-13 `code` (key `barcode`) in the lower third. Default false. */
  barcode?: boolean;
  /** Font size of the name, px; default in proportion to the label. A test changing it changes the picture. */
  nameSize?: number;
  /** Elements drawn after (over) the label's own. */
  extra?: readonly ElementInput[];
}

/**
 * A price label: the product name `name` (key `name`) on top, the price `price` (key `price`)
 * in the accent ink below, optionally the struck original price `was` and a barcode `code` under
 * a rule; elements in that order. The element ids are stable: tests may look them up.
 * `SAMPLE_DATA` of the model has a value for every key it binds.
 */
export function priceLabel(options: PriceLabelOptions): TemplateDocumentInput {
  const { w, h, model = null, colourType = 'bwr', rotation = 0, original = false, barcode = false } = options;
  const [dw, dh] = rotation === 90 || rotation === 270 ? [h, w] : [w, h];
  const pad = Math.max(2, Math.round(Math.min(dw, dh) * 0.03));
  const inner = dw - 2 * pad;
  const nameH = Math.round(dh * (barcode ? 0.22 : 0.28));
  const priceY = pad + nameH + pad;
  const priceBottom = barcode ? Math.round(dh * 0.64) : dh - pad;
  const priceH = priceBottom - priceY;
  const priceW = original ? Math.round(inner * 0.62) : inner;
  const elements: ElementInput[] = [
    {
      type: 'text',
      id: 'name',
      x: pad,
      y: pad,
      w: inner,
      h: nameH,
      font: { size: options.nameSize ?? px(nameH * 0.75), weight: 'bold' },
      binding: { key: 'name' },
    },
    {
      type: 'price',
      id: 'price',
      x: pad,
      y: priceY,
      w: priceW,
      h: priceH,
      colour: ACCENT[colourType],
      font: { size: px(priceH * 0.8), weight: 'bold' },
      binding: { key: 'price' },
    },
  ];
  if (original) {
    const wasH = Math.round(priceH * 0.45);
    elements.push({
      type: 'price',
      id: 'was',
      x: 2 * pad + priceW,
      y: priceY + Math.round((priceH - wasH) / 2),
      w: inner - priceW - pad,
      h: wasH,
      strike: true,
      font: { size: px(wasH * 0.7) },
      binding: { key: 'originalPrice' },
    });
  }
  if (barcode) {
    const ruleY = priceBottom + pad;
    elements.push(
      {
        type: 'barcode',
        id: 'code',
        x: pad,
        y: ruleY + pad,
        // An EAN-13 needs 95 px at least, and its digits about 120: narrow labels give it the width.
        w: Math.max(Math.round(inner * 0.62), Math.min(inner, 120)),
        h: dh - ruleY - 2 * pad,
        font: { size: px(Math.min(dw, dh) * 0.09) },
        binding: { key: 'barcode' },
      },
      { type: 'line', id: 'rule', x: pad, y: ruleY, w: inner, h: 0 },
    );
  }
  elements.push(...(options.extra ?? []));
  return { version: TEMPLATE_VERSION, size: { model, w, h }, colourType, rotation, elements };
}
