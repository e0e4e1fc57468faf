import bwipjs from 'bwip-js/generic';
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
 * is refused) and are encoded here from the GS1 tables; Code 128 takes printable ASCII and is
 * encoded by bwip-js. Throws SymbolError for data the symbology cannot hold.
 */
export function encodeLinear(symbology: Symbology, data: string): LinearSymbol {
  const key = `${symbology}\u0000${data}`;
  const cached = linearCache.get(key);
  if (cached) return cached;
  let text = data;
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
    text = body + check;
    const widths = runWidths(gs1Modules(symbology as 'ean13' | 'ean8' | 'upca', text));
    return remember(linearCache, key, {
      widths,
      modules: widths.reduce((sum, w) => sum + w, 0),
      quiet: QUIET[symbology],
      text,
    });
  } else if (!/^[\x20-\x7e]{1,80}$/.test(data)) {
    throw new SymbolError(`code128 takes 1 to 80 printable ASCII characters, got "${data}"`);
  }
  let encoded: ReadonlyArray<{ sbs: number[] } | { pixs: number[] }>;
  try {
    encoded = bwipjs.raw({ bcid: symbology, text });
  } catch (error) {
    throw new SymbolError(`${symbology} "${data}" cannot be encoded: ${(error as Error).message}`);
  }
  const first = encoded[0];
  if (!first || !('sbs' in first)) throw new SymbolError(`${symbology} gave no bars`);
  const widths = first.sbs;
  const modules = widths.reduce((sum, w) => sum + w, 0);
  return remember(linearCache, key, { widths, modules, quiet: QUIET[symbology], text });
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
