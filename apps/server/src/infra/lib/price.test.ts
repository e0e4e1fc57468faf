import { describe, expect, it } from 'vitest';
import { formatCents, toCents } from './price';

describe('prices in cents', () => {
  it('reads decimal text without floating-point loss and writes two fraction digits', () => {
    expect(toCents('0.1')).toBe(10);
    expect(toCents('0.29')).toBe(29);
    expect(toCents('19.99')).toBe(1999);
    expect(toCents('12.5')).toBe(1250);
    expect(toCents('7')).toBe(700);
    expect(toCents('0')).toBe(0);
    expect(toCents('1234567890.5')).toBe(123456789050);
    expect(toCents('9999999999.99')).toBe(999999999999);
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(999999999999)).toBe('9999999999.99');
    // 1.15 * 100 is 114.99999999999999 in binary floating point.
    expect(toCents('1.15')).toBe(115);
  });

  it('refuses what is not a price', () => {
    for (const bad of ['', '1.234', '-1', '1e3', '¥5', '1,5', '.5', '1.', '1..2', '12345678901', ' 1'])
      expect(() => toCents(bad), bad).toThrow();
  });
});
