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

const linearCache = new Map<string, LinearSymbol>();
const matrixCache = new Map<string, MatrixSymbol>();
const CACHE_LIMIT = 512;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/**
 * Encodes a linear barcode. EAN/UPC take the digits with or without the check digit (a wrong one
 * is refused); Code 128 takes printable ASCII. Throws SymbolError for data the symbology cannot hold.
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
