import QRCode from 'qrcode';
import type { Symbology } from './document';

/** A linear barcode as module widths, bar first, alternating bar and space. */
export interface LinearSymbol {
  readonly widths: readonly number[];
  /** Total modules of the symbol without quiet zones. */
  readonly modules: number;
  /** Quiet zone the symbology asks for on each side, in modules. */
  readonly quiet: readonly [left: number, right: number];
  /** Human-readable text (with the check digit for EAN/UPC). */
  readonly text: string;
}

/** A QR code as a square of dark (1) and light (0) modules, row by row. */
export interface MatrixSymbol {
  readonly size: number;
  readonly modules: Uint8Array;
}

export class SymbolError extends Error {
  override readonly name = 'SymbolError';
}

const QUIET: Record<Symbology, readonly [number, number]> = {
  ean13: [11, 7],
  ean8: [7, 7],
  upca: [9, 9],
  code128: [10, 10],
};

const DIGITS: Partial<Record<Symbology, readonly [number, number]>> = {
  ean13: [12, 13],
  ean8: [7, 8],
  upca: [11, 12],
};

/** GS1 check digit (EAN-8, EAN-13, UPC-A) of the digits before it. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const weight = (digits.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

// EAN/UPC digit patterns (GS1 General Specifications): L (odd parity), G (even parity) and R
// (right half) codes, 7 modules each, 1 = bar. The first EAN-13 digit picks L/G for the left half.
const L_CODES = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
const R_CODES = L_CODES.map((code) => [...code].map((bit) => (bit === '1' ? '0' : '1')).join(''));
const G_CODES = R_CODES.map((code) => [...code].reverse().join(''));
const EAN13_PARITY = [
  'LLLLLL',
  'LLGLGG',
  'LLGGLG',
  'LLGGGL',
  'LGLLGG',
  'LGGLLG',
  'LGGGLL',
  'LGLGLG',
  'LGLGGL',
  'LGGLGL',
];

/** Module pattern of a complete EAN-13, EAN-8 or UPC-A number (check digit included). */
function gs1Modules(symbology: 'ean13' | 'ean8' | 'upca', digits: string): string {
  const ean13 = symbology === 'upca' ? `0${digits}` : digits;
  const half = symbology === 'ean8' ? 4 : 6;
  const left = symbology === 'ean8' ? digits.slice(0, 4) : ean13.slice(1, 7);
  const right = symbology === 'ean8' ? digits.slice(4) : ean13.slice(7);
  const parity = symbology === 'ean8' ? 'LLLL' : EAN13_PARITY[Number(ean13[0])];
  let modules = '101';
  for (let i = 0; i < half; i++) modules += (parity[i] === 'L' ? L_CODES : G_CODES)[Number(left[i])];
  modules += '01010';
  for (let i = 0; i < half; i++) modules += R_CODES[Number(right[i])];
  return `${modules}101`;
}

/** Widths of the alternating runs of a module pattern that starts with a bar. */
function runWidths(modules: string): number[] {
  const widths: number[] = [];
  let run = 1;
  for (let i = 1; i <= modules.length; i++) {
    if (modules[i] === modules[i - 1]) run++;
    else {
      widths.push(run);
      run = 1;
    }
  }
  return widths;
}

const linearCache = new Map<string, LinearSymbol>();
const matrixCache = new Map<string, MatrixSymbol>();
const CACHE_LIMIT = 4096;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/**
 * Encodes a linear barcode. EAN/UPC take the digits with or without the check digit (a wrong one
 * is refused) and are encoded here from the GS1 tables; Code 128 takes 1 to 80 printable ASCII
 * characters (code128Codewords). Throws SymbolError for data the symbology cannot hold.
 */
export function encodeLinear(symbology: Symbology, data: string): LinearSymbol {
  const key = `${symbology}\u0000${data}`;
  const cached = linearCache.get(key);
  if (cached) return cached;
  const digits = DIGITS[symbology];
  if (digits) {
    if (!/^\d+$/.test(data) || (data.length !== digits[0] && data.length !== digits[1])) {
      throw new SymbolError(`${symbology} needs ${digits[0]} or ${digits[1]} digits, got "${data}"`);
    }
    const body = data.slice(0, digits[0]);
    const check = String(gs1CheckDigit(body));
    if (data.length === digits[1] && data[digits[0]] !== check) {
      throw new SymbolError(`${symbology} "${data}" has a wrong check digit (expected ${check})`);
    }
    const text = body + check;
    const widths = runWidths(gs1Modules(symbology as 'ean13' | 'ean8' | 'upca', text));
    return remember(linearCache, key, {
      widths,
      modules: widths.reduce((sum, w) => sum + w, 0),
      quiet: QUIET[symbology],
      text,
    });
  }
  if (!/^[\x20-\x7e]{1,80}$/.test(data)) {
    throw new SymbolError(`code128 takes 1 to 80 printable ASCII characters, got "${data}"`);
  }
  const widths = code128Widths(code128Codewords(data));
  return remember(linearCache, key, {
    widths,
    modules: widths.reduce((sum, w) => sum + w, 0),
    quiet: QUIET[symbology],
    text: data,
  });
}

// Code 128 (ISO/IEC 15417): bar/space widths of the 107 symbol characters, six digits each (bar
// first, 11 modules); value 106 is the stop, which has a final 2-module bar (13 modules in all).
const CODE128_PATTERNS =
  '212222222122222221121223121322131222122213122312132212221213221312231212112232122132122231113222' +
  '123122123221223211221132221231213212223112312131311222321122321221312212322112322211212123212321' +
  '232121111323131123131321112313132113132311211313231113231311112133112331132131113123113321133121' +
  '313121211331231131213113213311213131311123311321331121312113312311332111314111221411431111111224' +
  '111422121124121421141122141221112214112412122114122411142112142211241211221114413111241112134111' +
  '111242121142121241114212124112124211411212421112421211212141214121412121111143111341131141114113' +
  '1143114111134113111131411141313111414111312114122112142112322331112';

const SHIFT = 98;
const CODE_C = 99;
const CODE_B = 100;
const CODE_A = 101;
const START = { A: 103, B: 104, C: 105 } as const;
const STOP = 106;

type CodeSet = 'A' | 'B' | 'C';

/** Value of an ASCII character in code set A (0–95: space … _, then NUL … US) or B (space … DEL). */
function code128Value(set: 'A' | 'B', c: number): number {
  return set === 'A' ? (c < 32 ? c + 64 : c - 32) : c - 32;
}

/**
 * Code 128 symbol characters (start, data, check; without the stop) for ASCII text (0–127).
 * Code set C takes digit pairs, A control characters, B lower case; the switching rules are the
 * usual shortest ones (ISO/IEC 15417 Annex E), with the same choices as BWIPP/bwip-js where two
 * encodings are equally short: start in C for 2 digits alone or a run of 4 or more; go to C
 * before a run of 4 or more digits (after its first digit when the run is odd); leave C when
 * fewer than 2 digits follow; a character of the other set A/B is shifted when the next one
 * needing a set is back in the current set, else the set is switched; between A and B, whichever
 * set's own character comes first wins.
 */
export function code128Codewords(text: string): number[] {
  const n = text.length;
  const codes = Array.from(text, (ch) => {
    const c = ch.charCodeAt(0);
    if (c > 127) throw new SymbolError(`code128 takes ASCII only, got "${text}"`);
    return c;
  });
  // Run of digits from each position; distance to the next A-only (control) and B-only (` … DEL) character.
  const digits = new Int32Array(n + 1);
  const nextAOnly = new Int32Array(n + 1).fill(9999);
  const nextBOnly = new Int32Array(n + 1).fill(9999);
  for (let i = n - 1; i >= 0; i--) {
    const c = codes[i];
    digits[i] = c >= 48 && c <= 57 ? digits[i + 1] + 1 : 0;
    nextAOnly[i] = c < 32 ? 0 : nextAOnly[i + 1] + 1;
    nextBOnly[i] = c >= 96 ? 0 : nextBOnly[i + 1] + 1;
  }
  const aBeforeB = (i: number) => nextAOnly[i] < nextBOnly[i];
  const bBeforeA = (i: number) => nextBOnly[i] < nextAOnly[i];

  let set: CodeSet;
  if ((n === 2 && digits[0] === 2) || digits[0] >= 4) set = 'C';
  else set = n > 0 && aBeforeB(0) ? 'A' : 'B';
  const out: number[] = [START[set]];
  let i = 0;
  while (i < n) {
    const c = codes[i];
    if (set !== 'C' && digits[i] >= 4) {
      // Odd run: its first digit stays in A/B, so C takes whole pairs.
      if (digits[i] % 2 === 1) out.push(code128Value(set, codes[i++]));
      out.push(CODE_C);
      set = 'C';
    } else if (set === 'B' && c < 32) {
      if (i < n - 1 && bBeforeA(i + 1)) {
        out.push(SHIFT, code128Value('A', c));
        i++;
      } else {
        out.push(CODE_A);
        set = 'A';
      }
    } else if (set === 'A' && c >= 96) {
      if (i < n - 1 && aBeforeB(i + 1)) {
        out.push(SHIFT, code128Value('B', c));
        i++;
      } else {
        out.push(CODE_B);
        set = 'B';
      }
    } else if (set === 'C' && digits[i] < 2) {
      set = aBeforeB(i) ? 'A' : 'B';
      out.push(set === 'A' ? CODE_A : CODE_B);
    } else if (set === 'C') {
      out.push((c - 48) * 10 + codes[i + 1] - 48);
      i += 2;
    } else {
      out.push(code128Value(set, c));
      i++;
    }
  }
  let sum = out[0];
  for (let k = 1; k < out.length; k++) sum += k * out[k];
  out.push(sum % 103);
  return out;
}

/** Bar/space widths of Code 128 symbol characters (code128Codewords), with the stop appended. */
export function code128Widths(codewords: readonly number[]): number[] {
  const widths: number[] = [];
  for (const value of [...codewords, STOP]) {
    const end = value === STOP ? 7 : 6;
    for (let k = 0; k < end; k++) widths.push(CODE128_PATTERNS.charCodeAt(value * 6 + k) - 48);
  }
  return widths;
}

/** Encodes a QR code (byte mode carries UTF-8, so Chinese text works). */
export function encodeQr(data: string, errorCorrection: 'L' | 'M' | 'Q' | 'H'): MatrixSymbol {
  const key = `${errorCorrection}\u0000${data}`;
  const cached = matrixCache.get(key);
  if (cached) return cached;
  let qr: QRCode.QRCode;
  try {
    qr = QRCode.create(data, { errorCorrectionLevel: errorCorrection });
  } catch (error) {
    throw new SymbolError(`QR code cannot hold "${data.slice(0, 40)}": ${(error as Error).message}`);
  }
  const { size, data: bits } = qr.modules;
  return remember(matrixCache, key, { size, modules: Uint8Array.from(bits) });
}
