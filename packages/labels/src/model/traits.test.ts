import { describe, expect, test } from 'vitest';
import { ELEMENT_TYPES, Element } from './document';
import { ELEMENT_TRAITS, typesWith } from './traits';

describe('element traits', () => {
  test('every element type has its traits, and typesWith lists them in ELEMENT_TYPES order', () => {
    expect(Object.keys(ELEMENT_TRAITS).sort()).toEqual([...ELEMENT_TYPES].sort());
    expect(typesWith('binding')).toEqual(['text', 'price', 'barcode', 'qrcode', 'image']);
    expect(typesWith('font')).toEqual(['text', 'price', 'barcode']);
    expect(typesWith('alignment')).toEqual(['text', 'price', 'qrcode', 'image']);
    expect(typesWith('fill')).toEqual(['text', 'price', 'barcode', 'qrcode', 'rect', 'image']);
  });

  test.each(ELEMENT_TYPES)('the limits of %s are fields of its schema, and the schema accepts both ends', (type) => {
    for (const [field, { min, max }] of Object.entries(ELEMENT_TRAITS[type].limits)) {
      for (const value of [min, max]) {
        const parsed = Element.safeParse({ id: 'a', x: 0, y: 0, w: 10, h: 10, type, [field]: value });
        expect(parsed.success, `${type}.${field} = ${value}`).toBe(true);
        expect(parsed.data?.[field as keyof typeof parsed.data], `${type}.${field}`).toBe(value);
      }
    }
  });
});
