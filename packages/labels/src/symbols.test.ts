import bwipjs from 'bwip-js/generic';
import QRCode from 'qrcode';
import { describe, expect, test } from 'vitest';
import { firstDifference } from '../test/images';
import {
  code128Codewords,
  code128Widths,
  encodeLinear,
  encodeQr,
  gs1CheckDigit,
  penalty,
  penaltyNarrow,
  SymbolError,
} from './symbols';

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

  test('Code 128: start, sets, checksum and stop of a known symbol', () => {
    // "ESL-0042": start B, E S L -, switch to C (4 digits), 00 42, check, (stop).
    const words = code128Codewords('ESL-0042');
    expect(words).toEqual([
      104,
      37,
      51,
      44,
      13,
      99,
      0,
      42,
      (104 + 37 + 2 * 51 + 3 * 44 + 4 * 13 + 5 * 99 + 0 + 7 * 42) % 103,
    ]);
    // Digits alone: set C from the start; an odd run keeps its first digit in B.
    expect(code128Codewords('123456')).toEqual([105, 12, 34, 56, expect.any(Number)]);
    expect(code128Codewords('a12345')).toEqual([104, 65, 17, 99, 23, 45, expect.any(Number)]);
    // A control character between lower case is shifted, not switched.
    expect(code128Codewords('a\tb').slice(0, 5)).toEqual([104, 65, 98, 73, 66]);
    const symbol = encodeLinear('code128', 'ESL-0042');
    expect(symbol.modules).toBe(11 * words.length + 13);
    expect(symbol.widths.slice(-7)).toEqual([2, 3, 3, 1, 1, 1, 2]);
  });

  test('Code 128 bars match bwip-js for many strings (sets A, B and C, shifts, digit runs)', () => {
    let seed = 987654;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    // Pieces that exercise the switching rules: digit runs of every parity, upper and lower case,
    // punctuation, control characters (set A only) and DEL (set B only).
    const pieces = [
      '0',
      '12',
      '345',
      '6789',
      '01234',
      '987654',
      'AB',
      'x',
      'yz',
      '-',
      ' ',
      '\t',
      '\r\n',
      '\x7f',
      '_',
      '`',
    ];
    const strings = ['A', '1', '12', '123', '1234', '12345', 'ESL-0042', 'abc', '\t', '\x00\x1f'];
    for (let n = 0; n < 400; n++) {
      strings.push(Array.from({ length: 1 + next(6) }, () => pieces[next(pieces.length)]).join(''));
    }
    for (const text of strings) {
      const [reference] = bwipjs.raw({ bcid: 'code128', text }) as { sbs: number[] }[];
      expect({ text, widths: code128Widths(code128Codewords(text)) }).toEqual({ text, widths: reference.sbs });
    }
    // encodeLinear gives the same bars for printable text.
    const [reference] = bwipjs.raw({ bcid: 'code128', text: 'Shelf 7, row 12345' }) as { sbs: number[] }[];
    expect(encodeLinear('code128', 'Shelf 7, row 12345').widths).toEqual(reference.sbs);
  });

  test('bad data is refused with a SymbolError', () => {
    expect(() => encodeLinear('ean13', '6901234567890')).toThrow(/check digit/);
    expect(() => encodeLinear('ean8', '12ab567')).toThrow(SymbolError);
    expect(() => encodeLinear('upca', '123')).toThrow(/11 or 12 digits/);
    expect(() => encodeLinear('code128', '中文')).toThrow(/ASCII/);
    expect(() => encodeLinear('code128', '')).toThrow(SymbolError);
    expect(() => code128Codewords('é')).toThrow(SymbolError);
  });

  test('QR codes are square module grids, bigger for more data', () => {
    const small = encodeQr('hi', 'M');
    expect(small.size).toBe(21);
    expect(small.modules.length).toBe(21 * 21);
    expect(encodeQr('https://shop.example.com/p/6901234567892?ref=label', 'H').size).toBeGreaterThan(21);
  });

  test('QR codes: the mask chosen here, and so every module, is what qrcode chooses itself', () => {
    const levels = ['L', 'M', 'Q', 'H'] as const;
    const inputs: string[] = [];
    for (let i = 0; i < 120; i++) {
      const n = 1 + ((i * 37) % 400); // up to 400 characters: versions 1 to past 7 (version bits)
      const kind = i % 4;
      const text =
        kind === 0
          ? `https://shop.example.com/p/${690000000000 + i * 7919}`
          : kind === 1
            ? String(7 ** (i % 20))
                .repeat(Math.ceil(n / 10))
                .slice(0, n) // digits: numeric mode
            : kind === 2
              ? '有机红富士苹果 特级 '.repeat(Math.ceil(n / 11)).slice(0, Math.ceil(n / 3)) // UTF-8 bytes
              : `SKU ${i} PRICE $${(i * 1.37).toFixed(2)} `
                  .repeat(Math.ceil(n / 20))
                  .slice(0, n)
                  .toUpperCase();
      inputs.push(text);
    }
    const masks = new Set<number>();
    inputs.forEach((text, i) => {
      const level = levels[i % levels.length];
      const reference = QRCode.create(text, { errorCorrectionLevel: level });
      masks.add(reference.maskPattern ?? -1);
      const ours = encodeQr(text, level);
      expect(ours.size).toBe(reference.modules.size);
      expect(firstDifference(ours.modules, reference.modules.data)).toBe(-1);
    });
    expect(masks.size).toBe(8); // every mask was the best one somewhere
    expect(Math.max(...inputs.map((t, i) => encodeQr(t, levels[i % levels.length]).size))).toBeGreaterThanOrEqual(45);
  });

  test('QR mask penalties: the 32-bit word count equals the module-by-module count', () => {
    // A small deterministic generator; runs, blocks and finder-like patterns all occur.
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    let finders = 0;
    for (const size of [21, 25, 29, 32]) {
      for (let trial = 0; trial < 300; trial++) {
        const bias = [0.5, 0.2, 0.8, 0.05][trial % 4];
        const m = Uint8Array.from({ length: size * size }, () => (random() < bias ? 1 : 0));
        if (trial % 5 === 0) {
          // A finder-like pattern in a row and in a column, somewhere.
          const at = Math.floor(random() * (size - 11));
          [1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0].forEach((v, k) => {
            m[3 * size + at + k] = v;
            m[(at + k) * size + 5] = v;
          });
          finders++;
        }
        expect(penaltyNarrow(m, size)).toBe(penalty(m, size));
      }
    }
    expect(finders).toBeGreaterThan(0);
  });

  test('QR codes of versions 1 to 3 (the word count) choose the mask qrcode chooses', () => {
    const levels = ['L', 'M', 'Q', 'H'] as const;
    const masks = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const text = `https://s.example.cn/${(i * 7919).toString(36)}/${'x'.repeat(i % 17)}`;
      const level = levels[i % 4];
      const reference = QRCode.create(text, { errorCorrectionLevel: level });
      if (reference.modules.size > 32) continue;
      masks.add(reference.maskPattern ?? -1);
      const ours = encodeQr(text, level);
      expect(firstDifference(ours.modules, reference.modules.data)).toBe(-1);
    }
    expect(masks.size).toBe(8);
  });
});
