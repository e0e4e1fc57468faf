import bwipjs from 'bwip-js/generic';
import { describe, expect, test } from 'vitest';
import { encodeLinear, encodeQr, gs1CheckDigit, SymbolError } from './symbols';

describe('symbols', () => {
  test('GS1 check digits', () => {
    expect(gs1CheckDigit('690123456789')).toBe(2);
    expect(gs1CheckDigit('9031101')).toBe(7);
    expect(gs1CheckDigit('03600029145')).toBe(2);
  });

  test('EAN and UPC take the digits with or without the check digit', () => {
    const short = encodeLinear('ean13', '690123456789');
    const long = encodeLinear('ean13', '6901234567892');
    expect(long.widths).toEqual(short.widths);
    expect(long.text).toBe('6901234567892');
    expect(long.modules).toBe(95);
    expect(encodeLinear('ean8', '9031101').modules).toBe(67);
    expect(encodeLinear('upca', '036000291452').modules).toBe(95);
    expect(encodeLinear('code128', 'ABC-123').widths[0]).toBeGreaterThan(0);
  });

  test('EAN-13, EAN-8 and UPC-A bars match bwip-js for many numbers', () => {
    let seed = 12345;
    const digit = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String(seed % 10);
    };
    for (const [symbology, length] of [
      ['ean13', 12],
      ['ean8', 7],
      ['upca', 11],
    ] as const) {
      for (let n = 0; n < 40; n++) {
        const body = Array.from({ length }, digit).join('');
        const ours = encodeLinear(symbology, body);
        const [reference] = bwipjs.raw({ bcid: symbology, text: body }) as { sbs: number[] }[];
        expect(ours.widths).toEqual(reference.sbs);
      }
    }
  });

  test('bad data is refused with a SymbolError', () => {
    expect(() => encodeLinear('ean13', '6901234567890')).toThrow(/check digit/);
    expect(() => encodeLinear('ean8', '12ab567')).toThrow(SymbolError);
    expect(() => encodeLinear('upca', '123')).toThrow(/11 or 12 digits/);
    expect(() => encodeLinear('code128', '中文')).toThrow(/ASCII/);
  });

  test('QR codes are square module grids, bigger for more data', () => {
    const small = encodeQr('hi', 'M');
    expect(small.size).toBe(21);
    expect(small.modules.length).toBe(21 * 21);
    expect(encodeQr('https://shop.example.com/p/6901234567892?ref=label', 'H').size).toBeGreaterThan(21);
  });
});
