import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, test } from 'vitest';
import { doc, PRODUCT, priceLabel } from '../test/fixtures';
import { firstDifference } from '../test/images';
import type { Canvas2D } from './canvas';
import { drawTemplate } from './draw';
import { designSize, type LabelData, type TemplateDocument } from './model/document';
import { registerFonts } from './node';

beforeAll(() => registerFonts());

/** Every call of a context counted by name, the calls themselves passed on. */
function counting(ctx: Canvas2D, counts: Map<string, number>, withoutInkBounds = false): Canvas2D {
  return new Proxy(ctx, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counts.set(String(prop), (counts.get(String(prop)) ?? 0) + 1);
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (prop !== 'measureText' || !withoutInkBounds) return result;
        // A context that does not say where the ink reaches left and right: every text is clipped.
        const m = result as ReturnType<Canvas2D['measureText']>;
        return {
          width: m.width,
          actualBoundingBoxAscent: m.actualBoundingBoxAscent,
          actualBoundingBoxDescent: m.actualBoundingBoxDescent,
        };
      };
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
}

/** Draws on a fresh opaque canvas and returns its pixels and the clips it took. */
function draw(template: TemplateDocument, data: LabelData, withoutInkBounds = false) {
  const { w, h } = designSize(template);
  const canvas = createCanvas(w, h);
  const counts = new Map<string, number>();
  const ctx = counting(canvas.getContext('2d', { alpha: false }), counts, withoutInkBounds);
  drawTemplate(ctx, template, data);
  const again = canvas.data().slice();
  return { first: again, ctx, canvas, clips: counts.get('clip') ?? 0 };
}

const overflowing = doc({
  size: { w: 250, h: 122 },
  colourType: 'bwry',
  elements: [
    { type: 'rect', id: 'band', x: 0, y: 0, w: 250, h: 30, fill: 'yellow', strokeWidth: 0 },
    // Too long for one line even at the smallest size: cut by the box.
    { type: 'text', id: 'long', x: 4, y: 2, w: 120, h: 26, font: { size: 20 }, binding: { key: 'name' } },
    // A box lower than the glyphs: cut at top and bottom.
    { type: 'text', id: 'low', x: 130, y: 4, w: 116, h: 9, font: { size: 16 }, text: 'Ågjy 国' },
    {
      type: 'price',
      id: 'big',
      x: 4,
      y: 34,
      w: 60,
      h: 40,
      font: { size: 60, weight: 'bold' },
      binding: { key: 'price' },
    },
    {
      type: 'price',
      id: 'fits',
      x: 70,
      y: 34,
      w: 176,
      h: 40,
      font: { size: 30 },
      colour: 'red',
      binding: { key: 'price' },
    },
    { type: 'text', id: 'wrap', x: 4, y: 78, w: 242, h: 40, lines: 2, font: { size: 14 }, binding: { key: 'spec' } },
  ],
});

describe('drawTemplate', () => {
  test.each([
    ['296 × 152 price label', priceLabel(296, 152, 'bwr')],
    ['250 × 122 four colours', priceLabel(250, 122, 'bwry')],
    ['texts and prices that overflow their boxes', overflowing],
  ])(
    '%s: texts inside their box are drawn unclipped, and the pixels are those of clipping every one',
    (_, template) => {
      const products: LabelData[] = [
        PRODUCT,
        { ...PRODUCT, name: '超长的商品名称超长的商品名称超长的商品名称 Extra long product name', price: 12345.67 },
        { ...PRODUCT, price: 1, originalPrice: 2, spec: '一 二 三 四 五 六 七 八 九 十 '.repeat(4) },
      ];
      for (const data of products) {
        const fast = draw(template, data);
        const clipped = draw(template, data, true);
        expect(firstDifference(fast.first, clipped.first)).toBe(-1);
        expect(fast.clips).toBeLessThan(clipped.clips);
      }
    },
  );

  test('a label drawn again from the remembered layouts has the same pixels', () => {
    const template = priceLabel(296, 152, 'bwr');
    const { first, ctx, canvas } = draw(template, PRODUCT);
    drawTemplate(ctx, template, { ...PRODUCT, name: '别的商品', price: 3.5 });
    drawTemplate(ctx, template, PRODUCT);
    expect(firstDifference(canvas.data(), first)).toBe(-1);
  });
});
