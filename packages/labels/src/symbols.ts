import QRCode from 'qrcode';
import type { Symbology } from './model/document';

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

/**
 * Encodes a QR code (byte mode carries UTF-8, so Chinese text works). The `qrcode` package lays
 * out the symbol; the mask is chosen here (`bestMask`), by the same rule and penalties as that
 * package but on typed arrays: choosing it is four fifths of the package's time.
 */
export function encodeQr(data: string, errorCorrection: 'L' | 'M' | 'Q' | 'H'): MatrixSymbol {
  const key = `${errorCorrection}\u0000${data}`;
  const cached = matrixCache.get(key);
  if (cached) return cached;
  let qr: QRCode.QRCode;
  try {
    qr = QRCode.create(data, { errorCorrectionLevel: errorCorrection, maskPattern: 0 });
  } catch (error) {
    throw new SymbolError(`QR code cannot hold "${data.slice(0, 40)}": ${(error as Error).message}`);
  }
  const { size, data: bits, reservedBit } = qr.modules as unknown as QrMatrix;
  return remember(matrixCache, key, { size, modules: bestMask(size, bits, reservedBit, EC_BITS[errorCorrection]) });
}

/** What `qrcode` keeps of a symbol: modules, and which of them are function patterns (never masked). */
interface QrMatrix {
  readonly size: number;
  readonly data: Uint8Array;
  readonly reservedBit: Uint8Array;
}

/** Format-information bits of each error correction level (ISO/IEC 18004 table 12). */
const EC_BITS = { L: 1, M: 0, Q: 3, H: 2 } as const;

/** Whether mask pattern p darkens module (i, j) (row i, column j), ISO/IEC 18004 table 10. */
function maskAt(p: number, i: number, j: number): boolean {
  switch (p) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

/** The 15 format bits (BCH(15, 5) over level and mask, XOR 0x5412). */
function formatBits(ecBits: number, mask: number): number {
  const value = (ecBits << 3) | mask;
  let d = value << 10;
  for (let bit = 14; bit >= 10; bit--) if (d & (1 << bit)) d ^= 0x537 << (bit - 10);
  return ((value << 10) | d) ^ 0x5412;
}

/** Where `qrcode` puts the format bits (both copies, and the dark module): `set(row, column, bit)`. */
function placeFormat(size: number, bits: number, set: (row: number, col: number, bit: number) => void): void {
  for (let i = 0; i < 15; i++) {
    const bit = (bits >> i) & 1;
    set(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8, bit);
    set(8, i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1, bit);
  }
  set(size - 8, 8, 1);
}

/**
 * The symbol under the mask with the lowest penalty (the first of equals), with its format bits,
 * from the symbol `qrcode` made under mask 0: the same choice and modules as `qrcode` makes itself
 * (a test compares them for many inputs).
 */
function bestMask(size: number, masked0: Uint8Array, reserved: Uint8Array, ecBits: number): Uint8Array {
  const masks = maskTables(size, reserved);
  const n = size * size;
  const plain = new Uint8Array(n);
  for (let i = 0; i < n; i++) plain[i] = masked0[i] ^ masks[0][i];
  let best = 0;
  let lowest = Number.POSITIVE_INFINITY;
  if (size <= 32) {
    // Versions 1 to 3: each candidate as 32-bit words, rows and columns (see penaltyWords).
    const plainRows = new Int32Array(size);
    const plainColumns = new Int32Array(size);
    toWords(plain, size, plainRows, plainColumns);
    const { rows: maskRows, columns: maskColumns } = maskWords(size, masks);
    const rows = new Int32Array(size);
    const columns = new Int32Array(size);
    const set = (row: number, col: number, bit: number) => {
      rows[row] = (rows[row] & ~(1 << col)) | (bit << col);
      columns[col] = (columns[col] & ~(1 << row)) | (bit << row);
    };
    for (let p = 0; p < 8; p++) {
      for (let i = 0; i < size; i++) {
        rows[i] = plainRows[i] ^ maskRows[p * size + i];
        columns[i] = plainColumns[i] ^ maskColumns[p * size + i];
      }
      placeFormat(size, formatBits(ecBits, p), set);
      const score = penaltyWords(rows, columns, size);
      if (score < lowest) {
        lowest = score;
        best = p;
      }
    }
  } else {
    const m = new Uint8Array(n);
    const set = (row: number, col: number, bit: number) => {
      m[row * size + col] = bit;
    };
    for (let p = 0; p < 8; p++) {
      const mask = masks[p];
      for (let i = 0; i < n; i++) m[i] = plain[i] ^ mask[i];
      placeFormat(size, formatBits(ecBits, p), set);
      const score = penalty(m, size);
      if (score < lowest) {
        lowest = score;
        best = p;
      }
    }
  }
  const chosen = new Uint8Array(n);
  const mask = masks[best];
  for (let i = 0; i < n; i++) chosen[i] = plain[i] ^ mask[i];
  placeFormat(size, formatBits(ecBits, best), (row, col, bit) => {
    chosen[row * size + col] = bit;
  });
  return chosen;
}

const maskCache = new Map<number, Uint8Array[]>();

/**
 * The 8 masks of a symbol size as arrays of modules to flip (1), function patterns left out. The
 * function patterns of a size are the same for every symbol of it (its version fixes them).
 */
function maskTables(size: number, reserved: Uint8Array): Uint8Array[] {
  let masks = maskCache.get(size);
  if (!masks) {
    masks = Array.from({ length: 8 }, (_, p) => {
      const mask = new Uint8Array(size * size);
      for (let i = 0; i < size; i++) {
        for (let j = 0; j < size; j++) if (reserved[i * size + j] === 0 && maskAt(p, i, j)) mask[i * size + j] = 1;
      }
      return mask;
    });
    maskCache.set(size, masks);
  }
  return masks;
}

/** The four penalties of ISO/IEC 18004 7.8.3, counted as `qrcode` counts them. Exported for tests. */
export function penalty(m: Uint8Array, size: number): number {
  let n1 = 0;
  let n3 = 0;
  for (let a = 0; a < size; a++) {
    let rowRun = 0;
    let colRun = 0;
    let rowLast = -1;
    let colLast = -1;
    let rowBits = 0;
    let colBits = 0;
    for (let b = 0; b < size; b++) {
      const r = m[a * size + b];
      const c = m[b * size + a];
      if (r === rowLast) rowRun++;
      else {
        if (rowRun >= 5) n1 += 3 + rowRun - 5;
        rowLast = r;
        rowRun = 1;
      }
      if (c === colLast) colRun++;
      else {
        if (colRun >= 5) n1 += 3 + colRun - 5;
        colLast = c;
        colRun = 1;
      }
      rowBits = ((rowBits << 1) & 0x7ff) | r;
      colBits = ((colBits << 1) & 0x7ff) | c;
      if (b >= 10) {
        if (rowBits === 0x5d0 || rowBits === 0x05d) n3++;
        if (colBits === 0x5d0 || colBits === 0x05d) n3++;
      }
    }
    if (rowRun >= 5) n1 += 3 + rowRun - 5;
    if (colRun >= 5) n1 += 3 + colRun - 5;
  }
  let n2 = 0;
  let dark = 0;
  for (let i = 0; i < size * size; i++) dark += m[i];
  for (let i = 0; i < size - 1; i++) {
    for (let j = 0; j < size - 1; j++) {
      const o = i * size + j;
      const sum = m[o] + m[o + 1] + m[o + size] + m[o + size + 1];
      if (sum === 0 || sum === 4) n2++;
    }
  }
  const k = Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10);
  return n1 + n2 * 3 + n3 * 40 + k * 10;
}

/** Set bits of a 32-bit word. */
function ones(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Penalties 1 and 3 of one line of `size` modules held as bits (bit j: module j). Runs: each j where modules j..j+4 are alike counts 1, each run of 5 or more
 * 2 more (a run of L ≥ 5 counts L − 2). Finder-like patterns: every window of 11 modules that
 * reads 1011101 0000 one way or the other.
 */
function linePenalty(line: number, size: number): number {
  const alike = ~(line ^ (line >>> 1)) & ((1 << (size - 1)) - 1);
  const five = alike & (alike >>> 1) & (alike >>> 2) & (alike >>> 3);
  let finder = 0;
  for (let j = 0; j + 11 <= size; j++) {
    const w = (line >>> j) & 0x7ff;
    if (w === 0x05d || w === 0x5d0) finder++;
  }
  return ones(five) + 2 * ones(five & ~(five << 1)) + finder * 40;
}

/** A symbol's modules as 32-bit words (up to 32 modules wide): rows[i] bit j and columns[j] bit i are module (i, j). */
function toWords(m: Uint8Array, size: number, rows: Int32Array, columns: Int32Array): void {
  columns.fill(0);
  for (let i = 0, o = 0; i < size; i++) {
    let row = 0;
    for (let j = 0; j < size; j++, o++) {
      const v = m[o];
      row |= v << j;
      columns[j] |= v << i;
    }
    rows[i] = row;
  }
}

const maskWordCache = new Map<number, { rows: Int32Array; columns: Int32Array }>();

/** The 8 masks of a size as words: mask p's rows at [p × size, (p + 1) × size), its columns likewise. */
function maskWords(size: number, masks: Uint8Array[]): { rows: Int32Array; columns: Int32Array } {
  let words = maskWordCache.get(size);
  if (!words) {
    words = { rows: new Int32Array(8 * size), columns: new Int32Array(8 * size) };
    for (let p = 0; p < 8; p++) {
      toWords(masks[p], size, words.rows.subarray(p * size), words.columns.subarray(p * size, (p + 1) * size));
    }
    maskWordCache.set(size, words);
  }
  return words;
}

/**
 * `penalty` for symbols up to 32 modules wide (versions 1 to 3, what shelf labels' links need),
 * on rows and columns held as 32-bit words: the same count in a fraction of the time (a test
 * compares both).
 */
function penaltyWords(rows: Int32Array, columns: Int32Array, size: number): number {
  let score = 0;
  let dark = 0;
  for (let i = 0; i < size; i++) {
    score += linePenalty(rows[i], size) + linePenalty(columns[i], size);
    dark += ones(rows[i]);
  }
  // Penalty 2: 2 × 2 blocks of one colour (columns j and j + 1 of rows i and i + 1).
  const pairs = (1 << (size - 1)) - 1;
  let blocks = 0;
  for (let i = 0; i + 1 < size; i++) {
    const a = rows[i];
    const same = ~(a ^ rows[i + 1]);
    blocks += ones(same & (same >>> 1) & ~(a ^ (a >>> 1)) & pairs);
  }
  const k = Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10);
  return score + blocks * 3 + k * 10;
}

/** `penaltyWords` from modules, for tests. */
export function penaltyNarrow(m: Uint8Array, size: number): number {
  const rows = new Int32Array(size);
  const columns = new Int32Array(size);
  toWords(m, size, rows, columns);
  return penaltyWords(rows, columns, size);
}
