import { describe, expect, test } from 'vitest';
import { Element, Font, LabelSize } from './document';
import { LIMITS, type Range } from './limits';

// Each range of LIMITS is what the schema accepts: both ends pass, one step beyond either fails.
const box = { id: 'a', x: 0, y: 0, w: 10, h: 10 };
const ranges: [name: string, range: Range, parse: (v: number) => boolean, step: number][] = [
  ['panel', LIMITS.panel, (v) => LabelSize.safeParse({ w: v, h: v }).success, 1],
  ['coordinate', LIMITS.coordinate, (v) => Element.safeParse({ ...box, type: 'rect', x: v, y: v }).success, 1],
  ['length', LIMITS.length, (v) => Element.safeParse({ ...box, type: 'rect', w: v, h: v }).success, 1],
  ['fontSize', LIMITS.fontSize, (v) => Font.safeParse({ size: v }).success, 1],
  ['textLines', LIMITS.textLines, (v) => Element.safeParse({ ...box, type: 'text', lines: v }).success, 1],
  ['decimals', LIMITS.decimals, (v) => Element.safeParse({ ...box, type: 'price', decimals: v }).success, 1],
  ['minorScale', LIMITS.minorScale, (v) => Element.safeParse({ ...box, type: 'price', minorScale: v }).success, 0.01],
  ['qrMargin', LIMITS.qrMargin, (v) => Element.safeParse({ ...box, type: 'qrcode', margin: v }).success, 1],
  ['rectStroke', LIMITS.rectStroke, (v) => Element.safeParse({ ...box, type: 'rect', strokeWidth: v }).success, 1],
  ['lineStroke', LIMITS.lineStroke, (v) => Element.safeParse({ ...box, type: 'line', strokeWidth: v }).success, 1],
];

const chars: [name: string, max: number, parse: (s: string) => boolean][] = [
  ['idChars', LIMITS.idChars, (s) => Element.safeParse({ ...box, type: 'rect', id: s }).success],
  ['fontFamilyChars', LIMITS.fontFamilyChars, (s) => Font.safeParse({ family: s }).success],
  ['textChars', LIMITS.textChars, (s) => Element.safeParse({ ...box, type: 'text', text: s }).success],
  ['currencyChars', LIMITS.currencyChars, (s) => Element.safeParse({ ...box, type: 'price', currency: s }).success],
  ['barcodeChars', LIMITS.barcodeChars, (s) => Element.safeParse({ ...box, type: 'barcode', value: s }).success],
  ['qrChars', LIMITS.qrChars, (s) => Element.safeParse({ ...box, type: 'qrcode', value: s }).success],
  ['imageChars', LIMITS.imageChars, (s) => Element.safeParse({ ...box, type: 'image', src: s }).success],
  [
    'affixChars',
    LIMITS.affixChars,
    (s) => Element.safeParse({ ...box, type: 'text', binding: { key: 'name', prefix: s, suffix: s } }).success,
  ],
  [
    'dataKeyChars',
    LIMITS.dataKeyChars,
    (s) => Element.safeParse({ ...box, type: 'text', binding: { key: `k${s.slice(1)}` } }).success,
  ],
];

describe('LIMITS', () => {
  test.each(ranges)('%s is the range the schema accepts', (_name, { min, max }, parse, step) => {
    expect([parse(min), parse(max)]).toEqual([true, true]);
    expect([parse(min - step), parse(max + step)]).toEqual([false, false]);
  });

  test.each(chars)('%s is the longest text the schema accepts', (_name, max, parse) => {
    expect(parse('x'.repeat(max))).toBe(true);
    expect(parse('x'.repeat(max + 1))).toBe(false);
  });
});
