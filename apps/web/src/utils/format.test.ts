import { describe, expect, it } from 'vitest';
import { numberFormatter, sentenceCase, toThousandFilter } from './format';

describe('toThousandFilter', () => {
  it('groups digits by three', () => {
    expect(toThousandFilter(0)).toBe('0');
    expect(toThousandFilter(999)).toBe('999');
    expect(toThousandFilter(1000)).toBe('1,000');
    expect(toThousandFilter(1234567)).toBe('1,234,567');
    expect(toThousandFilter('98765')).toBe('98,765');
  });
  it('keeps the sign and the decimals', () => {
    expect(toThousandFilter(-1234567.891)).toBe('-1,234,567.891');
    expect(toThousandFilter(1234.5)).toBe('1,234.5');
  });
  it('gives 0 for what is not a number', () => {
    expect(toThousandFilter('abc')).toBe('0');
    expect(toThousandFilter(null)).toBe('0');
    expect(toThousandFilter(undefined)).toBe('0');
  });
});

describe('numberFormatter', () => {
  it('shortens large numbers', () => {
    expect(numberFormatter(999)).toBe('999');
    expect(numberFormatter(1536)).toBe('1.5k');
    expect(numberFormatter(2_000_000)).toBe('2M');
  });
});

describe('sentenceCase', () => {
  it('capitalises the first letter only', () => {
    expect(sentenceCase('original price')).toBe('Original price');
    expect(sentenceCase('QR code')).toBe('QR code');
    expect(sentenceCase('条码')).toBe('条码');
    expect(sentenceCase('')).toBe('');
  });
});
