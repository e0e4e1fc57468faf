import { describe, expect, test } from 'vitest';
import { Element } from './model/document';
import { elementText, formatValue, resolveValue, toNumber } from './values';

const text = (extra: object) => Element.parse({ type: 'text', id: 't', x: 0, y: 0, w: 10, h: 10, ...extra });

describe('bindings', () => {
  test('a bound value wins over the element text; empty data falls back to it', () => {
    const el = text({ text: 'fallback', binding: { key: 'name' } });
    expect(resolveValue(el, { name: '苹果' })).toEqual({ value: '苹果', bound: true });
    expect(resolveValue(el, { name: '' })).toEqual({ value: 'fallback', bound: false });
    expect(resolveValue(text({ binding: { key: 'name' } }), {})).toBeNull();
  });

  test('formats, prefix and suffix apply to bound text', () => {
    const b = (format: string) => ({ key: 'k', format, prefix: '<', suffix: '>' }) as const;
    expect(
      formatValue('Abc', Element.parse({ type: 'text', id: 't', x: 0, y: 0, w: 1, h: 1, binding: b('upper') }).binding),
    ).toBe('<ABC>');
    expect(formatValue('Abc', { key: 'k', format: 'lower', prefix: '', suffix: '' })).toBe('abc');
    expect(formatValue(1.23456, { key: 'k', format: 'fixed2', prefix: '¥', suffix: '' })).toBe('¥1.23');
    expect(formatValue('2.5', { key: 'k', format: 'fixed0', prefix: '', suffix: ' kg' })).toBe('3 kg');
    expect(formatValue('n/a', { key: 'k', format: 'fixed1', prefix: '', suffix: '' })).toBe('n/a');
    expect(elementText(text({ binding: { key: 'origin', prefix: '产地 ' } }), { origin: '山东' })).toBe('产地 山东');
    // Static text is not decorated by the binding.
    expect(elementText(text({ text: '—', binding: { key: 'origin', prefix: '产地 ' } }), {})).toBe('—');
  });

  test('symbols get the bare value, never prefix or suffix', () => {
    const el = Element.parse({
      type: 'barcode',
      id: 'b',
      x: 0,
      y: 0,
      w: 10,
      h: 10,
      binding: { key: 'barcode', prefix: 'EAN ' },
    });
    expect(elementText(el, { barcode: '6901234567892' })).toBe('6901234567892');
  });

  test('numbers are read from numbers and from text with a currency sign', () => {
    expect(toNumber(12.5)).toBe(12.5);
    expect(toNumber(' ¥12.50 ')).toBe(12.5);
    expect(toNumber('abc')).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
    expect(toNumber(null)).toBeNull();
  });
});
