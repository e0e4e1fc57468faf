import type { RgbaImage } from './canvas';
import {
  COLOUR_HASH,
  DATA_BASE,
  type Kernel,
  MAX_TABLES,
  reserve,
  TABLE_BYTES,
  TABLE_SHIFT,
  wasmKernel,
} from './kernel';
import { COLOUR_SETS, COLOUR_TYPES, type ColourType, paletteRgb } from './model/colours';
import type { DitherMode, Rotation } from './model/document';

/** One palette index a pixel, row by row; the indexes point into COLOUR_SETS[colourType]. */
export interface IndexImage {
  readonly width: number;
  readonly height: number;
  readonly colourType: ColourType;
  readonly data: Uint8Array;
}

// Distance is squared difference weighted by luma (299, 587, 114). Near-greys (anti-aliased black
// text) are matched against black and white only, so they never turn into a colour ink (orange in
// the seven-colour set is otherwise nearer to mid greys than black or white).
const WR = 299;
const WG = 587;
const WB = 114;

/** Pixels whose channels differ by less than this are greys: they take only black or white. */
export const GREY_CHROMA = 24;

function nearestIndex(palette: Uint8Array, inks: number, r: number, g: number, b: number): number {
  // Palette index 0 is white and 1 black in every colour set.
  const chroma = Math.max(r, g, b) - Math.min(r, g, b);
  const count = chroma < GREY_CHROMA ? 2 : inks;
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = 0, p = 0; i < count; i++, p += 3) {
    const dr = r - palette[p];
    const dg = g - palette[p + 1];
    const db = b - palette[p + 2];
    const d = WR * dr * dr + WG * dg * dg + WB * db * db;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  }
  return best;
}

/** 8 × 8 Bayer threshold matrix, values 0–63, built by M(2n) = [[4M, 4M+2], [4M+3, 4M+1]]. */
const BAYER8 = (() => {
  let m = [[0]];
  while (m.length < 8) {
    const n = m.length;
    const next = Array.from({ length: 2 * n }, () => new Array<number>(2 * n).fill(0));
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const v = 4 * m[y][x];
        next[y][x] = v;
        next[y][x + n] = v + 2;
        next[y + n][x] = v + 3;
        next[y + n][x + n] = v + 1;
      }
    }
    m = next;
  }
  return Uint8Array.from(m.flat());
})();

export function bayerMatrix(): Uint8Array {
  return BAYER8.slice();
}

/**
 * Maps an RGBA image to the colour set's palette. Transparent pixels are laid on white first.
 * - none: every pixel takes the nearest ink after INK_GAIN (crisp text and symbols; a flat grey
 *   becomes one ink);
 * - ordered: an 8 × 8 Bayer threshold (±half the 0–255 range) is added to each channel first;
 * - diffusion: Floyd–Steinberg, left to right on every row, error 7/16 right, 3/16 down-left,
 *   5/16 down, 1/16 down-right, working values clamped to 0–255.
 * In the dithering modes, pixels of exactly an ink's colour are that ink and are not dithered
 * (diffusion passes no error through them), so text and symbols stay crisp beside photos.
 */
export function quantise(image: RgbaImage, colourType: ColourType, dither: DitherMode = 'none'): IndexImage {
  const { width, height } = image;
  const src = image.data;
  if (src.length < width * height * 4) throw new RangeError('RGBA data is shorter than width × height × 4');
  const palette = palettes[colourType];
  const count = COLOUR_SETS[colourType].length;
  const out = new Uint8Array(width * height);
  if (dither === 'diffusion') diffuse(src, width, height, palette, count, out);
  else if (dither === 'ordered') ordered(src, width, height, palette, count, out);
  else nearest(src, width * height, palette, count, out);
  return { width, height, colourType, data: out };
}

/**
 * In `none` mode a colour that is not an ink is first pushed away from white by INK_GAIN
 * (c → 255 − 1.5 × (255 − c)), so an anti-aliased edge pixel a third covered or more becomes ink:
 * thin strokes of small text stay whole on the tag. Exact inks map to themselves.
 */
export const INK_GAIN = 1.5;

function gain(c: number): number {
  const v = 255 - INK_GAIN * (255 - c);
  return Math.max(v, 0);
}

/** Opaque pixels of exactly an ink's colour → that ink's index. */
function exactInks(palette: Uint8Array, count: number): Map<number, number> {
  const exact = new Map<number, number>();
  for (let i = count - 1; i >= 0; i--) {
    exact.set((palette[i * 3] << 16) | (palette[i * 3 + 1] << 8) | palette[i * 3 + 2], i);
  }
  return exact;
}

function nearest(src: RgbaImage['data'], pixels: number, palette: Uint8Array, count: number, out: Uint8Array): void {
  const k = wasmKernel();
  if (k !== null) nearestInKernel(k, src, pixels, palette, count, out);
  else nearestInScript(src, pixels, palette, count, out);
}

/** The ink of pixel i (`none` mode): what every cache remembers. */
function inkOf(bytes: RgbaImage['data'], i: number, palette: Uint8Array, count: number): number {
  const p = i * 4;
  const a = bytes[p + 3];
  const r = a === 255 ? bytes[p] : over(bytes[p], a);
  const g = a === 255 ? bytes[p + 1] : over(bytes[p + 1], a);
  const b = a === 255 ? bytes[p + 2] : over(bytes[p + 2], a);
  return nearestIndex(palette, count, gain(r), gain(g), gain(b));
}

/**
 * `none` mode in the WebAssembly kernel (kernel.ts): it walks the pixels and looks each colour up
 * in its table, and comes back here for a colour the table lacks, which `inkOf` maps and the table
 * then remembers (the table of a palette is kept from one image to the next, like colourCache).
 */
function nearestInKernel(
  k: Kernel,
  src: RgbaImage['data'],
  pixels: number,
  palette: Uint8Array,
  count: number,
  out: Uint8Array,
): void {
  // A piece at a time, so that the module's copy stays in the processor's cache (an 800 × 480
  // label is 1.5 MB of RGBA).
  const piece = Math.min(pixels, KERNEL_PIECE);
  const srcAt = DATA_BASE;
  const outAt = DATA_BASE + piece * 4;
  reserve(k, outAt + piece);
  const table = kernelTable(k, palette, count);
  const memory = new Uint8Array(k.memory.buffer);
  const words = new Int32Array(k.memory.buffer);
  const bytes = new Uint8Array(src.buffer, src.byteOffset, pixels * 4);
  for (let first = 0; first < pixels; first += piece) {
    const n = Math.min(piece, pixels - first);
    memory.set(bytes.subarray(first * 4, (first + n) * 4), srcAt);
    memory.fill(0, outAt, outAt + n);
    for (let start = 0; ; ) {
      const i = k.scan(srcAt, n, outAt, table, start);
      if (i >= n) break;
      const index = inkOf(src, first + i, palette, count);
      remember(
        memory,
        words,
        table + ((Math.imul(words[(srcAt >> 2) + i], HASH) >>> CACHE_SHIFT) << 3),
        i,
        srcAt,
        index,
      );
      memory[outAt + i] = index;
      start = i + 1;
    }
    out.set(memory.subarray(outAt, outAt + n), first);
  }
}

/** Pixels the kernel takes at a time: 64 KB of RGBA. */
const KERNEL_PIECE = 16384;

/**
 * Puts the colour of pixel i and its ink into the kernel's table at `slot` or its partner: an
 * empty one first, else one not holding an ink's own colour (a colour beside two inks is not kept).
 */
function remember(memory: Uint8Array, words: Int32Array, slot: number, i: number, srcAt: number, index: number): void {
  const partner = slot ^ 8;
  let target = -1;
  if (memory[slot + 4] === 0) target = slot;
  else if (memory[partner + 4] === 0) target = partner;
  else if (memory[slot + 4] < EXACT) target = slot;
  else if (memory[partner + 4] < EXACT) target = partner;
  if (target < 0) return;
  words[target >> 2] = words[(srcAt >> 2) + i];
  memory[target + 4] = index + 1;
}

/** Each colour set's palette, made once: the colour caches below are kept per palette object. */
const palettes = Object.fromEntries(COLOUR_TYPES.map((type) => [type, paletteRgb(type)])) as Record<
  ColourType,
  Uint8Array
>;

const kernelTables = new Map<Uint8Array, number>();

/** The kernel's colour table of a palette (its address), seeded with the inks' own colours. */
function kernelTable(k: Kernel, palette: Uint8Array, count: number): number {
  const key = palette;
  let table = kernelTables.get(key);
  if (table !== undefined) return table;
  if (kernelTables.size >= MAX_TABLES) kernelTables.clear();
  table = kernelTables.size * TABLE_BYTES;
  kernelTables.set(key, table);
  const memory = new Uint8Array(k.memory.buffer);
  const words = new Int32Array(k.memory.buffer);
  memory.fill(0, table, table + TABLE_BYTES);
  for (let i = count - 1; i >= 0; i--) {
    const word = palette[i * 3] | (palette[i * 3 + 1] << 8) | (palette[i * 3 + 2] << 16) | (255 << 24);
    const slot = table + ((Math.imul(word, HASH) >>> CACHE_SHIFT) << 3);
    words[slot >> 2] = word;
    memory[slot + 4] = EXACT | (i + 1);
  }
  return table;
}

function nearestInScript(
  src: RgbaImage['data'],
  pixels: number,
  palette: Uint8Array,
  count: number,
  out: Uint8Array,
): void {
  // Whole pixels as 32-bit words (byte order does not matter: words are only compared and hashed).
  const bytes = src.byteOffset % 4 === 0 ? src : src.slice();
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, pixels);
  const { word: cacheWord, index: cacheIndex } = colourCache(palette, count);
  // Runs of one colour (most of a label) are found by comparing words and filled at once; `out`
  // starts as zeros, which is white, so white runs need no writing at all. Opaque white is -1 in
  // either byte order. Between white runs a label alternates among a few colours (a bar and its
  // space, a glyph's edge), so the last colour met is checked before the cache.
  let lastWord = -1;
  let lastIndex = 0;
  for (let i = 0; i < pixels; ) {
    const word = words[i];
    let end = i + 1;
    while (end < pixels && words[end] === word) end++;
    if (word === -1) {
      i = end;
      continue;
    }
    let index: number;
    if (word === lastWord) {
      index = lastIndex;
    } else {
      const h = Math.imul(word, HASH) >>> CACHE_SHIFT;
      const cached = cacheIndex[h];
      if (cached !== 0 && cacheWord[h] === word) {
        index = (cached & 0x7f) - 1;
      } else {
        index = inkOf(bytes, i, palette, count);
        if (cached < EXACT) {
          cacheWord[h] = word;
          cacheIndex[h] = index + 1;
        }
      }
      lastWord = word;
      lastIndex = index;
    }
    if (index !== 0) {
      if (end - i < 16) for (let k = i; k < end; k++) out[k] = index;
      else out.fill(index, i, end);
    }
    i = end;
  }
}

const CACHE_SHIFT = TABLE_SHIFT; // 2^12 entries, as the kernel's table
const CACHE_SIZE = 1 << (32 - CACHE_SHIFT);
const HASH = COLOUR_HASH;
/** Flag of a cache slot holding an exact ink: a later colour never evicts it. */
const EXACT = 0x80;

interface ColourCache {
  /** RGBA word of the colour in each slot. */
  readonly word: Int32Array;
  /** Its ink index + 1 (0: empty slot), with EXACT for the inks themselves. */
  readonly index: Uint8Array;
}

const colourCaches = new Map<Uint8Array, ColourCache>();

/**
 * A direct-mapped cache of RGBA word → ink for `none` mode, one per palette, kept from one image to
 * the next: a label has a few hundred distinct colours (inks and anti-aliased edges), the same
 * from label to label, so after the first label almost every run is answered from it. Its answers
 * are the same as computing afresh: it only remembers nearestIndex's results.
 */
function colourCache(palette: Uint8Array, count: number): ColourCache {
  const key = palette;
  let cache = colourCaches.get(key);
  if (cache) return cache;
  cache = { word: new Int32Array(CACHE_SIZE), index: new Uint8Array(CACHE_SIZE) };
  const seed = new Uint8Array(4);
  const seedWord = new Int32Array(seed.buffer);
  for (let i = count - 1; i >= 0; i--) {
    seed.set([palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], 255]);
    const h = Math.imul(seedWord[0], HASH) >>> CACHE_SHIFT;
    cache.word[h] = seedWord[0];
    cache.index[h] = EXACT | (i + 1);
  }
  colourCaches.set(key, cache);
  return cache;
}

function ordered(
  src: RgbaImage['data'],
  width: number,
  height: number,
  palette: Uint8Array,
  count: number,
  out: Uint8Array,
): void {
  const offsets = new Float64Array(64);
  for (let i = 0; i < 64; i++) offsets[i] = ((BAYER8[i] + 0.5) / 64 - 0.5) * 255;
  const exact = exactInks(palette, count);
  for (let y = 0, i = 0; y < height; y++) {
    const row = (y & 7) * 8;
    for (let x = 0; x < width; x++, i++) {
      const p = i * 4;
      const a = src[p + 3];
      const ink = a === 255 ? exact.get((src[p] << 16) | (src[p + 1] << 8) | src[p + 2]) : undefined;
      if (ink !== undefined) {
        out[i] = ink;
        continue;
      }
      const o = offsets[row + (x & 7)];
      const r = (a === 255 ? src[p] : over(src[p], a)) + o;
      const g = (a === 255 ? src[p + 1] : over(src[p + 1], a)) + o;
      const b = (a === 255 ? src[p + 2] : over(src[p + 2], a)) + o;
      out[i] = nearestIndex(palette, count, r, g, b);
    }
  }
}

function diffuse(
  src: RgbaImage['data'],
  width: number,
  height: number,
  palette: Uint8Array,
  count: number,
  out: Uint8Array,
): void {
  // Error of the current and the next row, 3 channels, one pixel of margin each side.
  const stride = (width + 2) * 3;
  let current = new Float32Array(stride);
  let next = new Float32Array(stride);
  const exact = exactInks(palette, count);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const p = i * 4;
      const a = src[p + 3];
      const e = (x + 1) * 3;
      const ink = a === 255 ? exact.get((src[p] << 16) | (src[p + 1] << 8) | src[p + 2]) : undefined;
      if (ink !== undefined) {
        // Flat ink (text, symbols, shapes) stays clean: it takes no error and passes none on.
        out[i] = ink;
        continue;
      }
      const r = clamp((a === 255 ? src[p] : over(src[p], a)) + current[e]);
      const g = clamp((a === 255 ? src[p + 1] : over(src[p + 1], a)) + current[e + 1]);
      const b = clamp((a === 255 ? src[p + 2] : over(src[p + 2], a)) + current[e + 2]);
      const index = nearestIndex(palette, count, r, g, b);
      out[i] = index;
      const er = r - palette[index * 3];
      const eg = g - palette[index * 3 + 1];
      const eb = b - palette[index * 3 + 2];
      current[e + 3] += (er * 7) / 16;
      current[e + 4] += (eg * 7) / 16;
      current[e + 5] += (eb * 7) / 16;
      next[e - 3] += (er * 3) / 16;
      next[e - 2] += (eg * 3) / 16;
      next[e - 1] += (eb * 3) / 16;
      next[e] += (er * 5) / 16;
      next[e + 1] += (eg * 5) / 16;
      next[e + 2] += (eb * 5) / 16;
      next[e + 3] += er / 16;
      next[e + 4] += eg / 16;
      next[e + 5] += eb / 16;
    }
    const done = current;
    current = next;
    next = done;
    next.fill(0);
  }
}

function over(channel: number, alpha: number): number {
  return Math.round((channel * alpha + 255 * (255 - alpha)) / 255);
}

function clamp(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

/** The RGBA picture of an index image: what the tag shows. */
export function indexToRgba(image: IndexImage): Uint8ClampedArray {
  const palette = paletteRgb(image.colourType);
  const out = new Uint8ClampedArray(image.width * image.height * 4);
  const { data } = image;
  for (let i = 0, p = 0; i < data.length; i++, p += 4) {
    const c = data[i] * 3;
    out[p] = palette[c];
    out[p + 1] = palette[c + 1];
    out[p + 2] = palette[c + 2];
    out[p + 3] = 255;
  }
  return out;
}

/** Turns an index image clockwise by 0, 90, 180 or 270 degrees (design → panel orientation). */
export function rotateIndex(image: IndexImage, rotation: Rotation): IndexImage {
  if (rotation === 0) return image;
  const { width: w, height: h, data } = image;
  const turned = rotation === 180 ? { width: w, height: h } : { width: h, height: w };
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let tx: number;
      let ty: number;
      if (rotation === 90) {
        tx = h - 1 - y;
        ty = x;
      } else if (rotation === 180) {
        tx = w - 1 - x;
        ty = h - 1 - y;
      } else {
        tx = y;
        ty = w - 1 - x;
      }
      out[ty * turned.width + tx] = data[y * w + x];
    }
  }
  return { ...turned, colourType: image.colourType, data: out };
}
