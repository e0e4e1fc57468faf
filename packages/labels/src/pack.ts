import { DATA_BASE, type Kernel, LITTLE_ENDIAN, reserve, wasmKernel } from './kernel';
import { COLOUR_SETS, type ColourType } from './model/colours';
import type { IndexImage } from './quantise';

/** Extra white pixels per row (wext) and extra white rows (hexit), from the tag model. */
export interface Padding {
  readonly wext: number;
  readonly hexit: number;
}

export interface PackLayout {
  /** Bit-planes one after another (2- and 3-colour tags), or one plane of 2 or 4 bits per pixel. */
  readonly planes: number;
  readonly bitsPerPixel: 1 | 2 | 4;
  readonly rowPixels: number;
  readonly rowBytes: number;
  readonly rows: number;
  readonly byteLength: number;
}

/** The catalogue's rule when a model is not known: pad rows to a multiple of 8 pixels, no extra rows. */
export function defaultPadding(width: number): Padding {
  return { wext: (8 - (width % 8)) % 8, hexit: 0 };
}

export function packLayout(colourType: ColourType, width: number, height: number, padding: Padding): PackLayout {
  if (!Number.isInteger(padding.wext) || padding.wext < 0 || !Number.isInteger(padding.hexit) || padding.hexit < 0) {
    throw new RangeError('wext and hexit are whole numbers ≥ 0');
  }
  const colours = COLOUR_SETS[colourType].length;
  const bitsPerPixel = colours <= 3 ? 1 : colours === 4 ? 2 : 4;
  const planes = colours <= 3 ? colours - 1 : 1;
  const rowPixels = width + padding.wext;
  const rowBytes = Math.ceil((rowPixels * bitsPerPixel) / 8);
  const rows = height + padding.hexit;
  return { planes, bitsPerPixel, rowPixels, rowBytes, rows, byteLength: planes * rows * rowBytes };
}

/**
 * Packs an index image for the tag. Black/white and three-colour: one bit-plane per ink beyond
 * white (plane 0 black, plane 1 the colour), bit 1 = ink, first pixel in the top bit. Four colours:
 * 2 bits a pixel holding the palette index. Seven colours: 4 bits a pixel. Rows are `width + wext`
 * pixels (padding white), then `hexit` white rows; all zero bits are white.
 */
export function pack(image: IndexImage, padding: Padding = defaultPadding(image.width)): Uint8Array {
  const layout = packLayout(image.colourType, image.width, image.height, padding);
  return packInto(image, padding, new Uint8Array(layout.byteLength));
}

/** `pack` into `out`, which must be zeros and exactly packLayout's byteLength long (e.g. part of a larger buffer). */
export function packInto(image: IndexImage, padding: Padding, out: Uint8Array): Uint8Array {
  const { width, height, data, colourType } = image;
  const layout = packLayout(colourType, width, height, padding);
  if (out.length !== layout.byteLength)
    throw new RangeError(`packInto needs ${layout.byteLength} bytes, got ${out.length}`);
  if (layout.bitsPerPixel === 1) packPlanes(data, width, height, layout, out);
  else packDeep(data, width, height, layout, out);
  return out;
}

/**
 * The 4 low bits of the 4 bytes of a word (each 0 or 1) as one nibble, the first byte (lowest
 * address, little-endian) in the top bit: the multiply moves byte k's bit to bit 27 − k and leaves
 * every other product below bit 24.
 */
function nibble(bits: number): number {
  return Math.imul(bits, 0x08040201) >>> 24;
}

/**
 * One bit-plane per ink beyond white, both in one pass. Rows that start on a 4-byte boundary are
 * read 8 pixels (two words) at a time: all-white blocks (the most of a label) are skipped, the rest
 * turned into the two plane bytes with a few word operations. Index 1 (black) has only bit 0 set,
 * index 2 (the colour) only bit 1.
 */
function packPlanes(data: Uint8Array, width: number, height: number, layout: PackLayout, out: Uint8Array): void {
  const { rowBytes } = layout;
  const second = layout.planes === 2 ? layout.rows * rowBytes : -1;
  const k = width >= 8 ? wasmKernel() : null;
  // In the kernel, whole groups of 8 pixels; the rest of each row below.
  const packed = k === null ? 0 : packInKernel(k, data, width, height, rowBytes, second, out);
  const words =
    k === null && LITTLE_ENDIAN && data.byteOffset % 4 === 0
      ? new Int32Array(data.buffer, data.byteOffset, data.length >> 2)
      : null;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const o = y * rowBytes;
    let x = packed;
    if (words !== null && row % 4 === 0) {
      for (let k = row >> 2; x + 8 <= width; x += 8, k += 2) {
        const lo = words[k];
        const hi = words[k + 1];
        if ((lo | hi) === 0) continue;
        // Bit 0 alone: index 1; bit 1 alone: index 2 (3 and up name no ink of these sets).
        const loUp = lo >>> 1;
        const hiUp = hi >>> 1;
        out[o + (x >> 3)] = (nibble(lo & ~loUp & 0x01010101) << 4) | nibble(hi & ~hiUp & 0x01010101);
        if (second >= 0) {
          out[second + o + (x >> 3)] = (nibble(loUp & ~lo & 0x01010101) << 4) | nibble(hiUp & ~hi & 0x01010101);
        }
      }
    }
    for (; x < width; x += 8) {
      let black = 0;
      let colour = 0;
      const end = Math.min(8, width - x);
      for (let b = 0; b < end; b++) {
        const v = data[row + x + b];
        if (v === 1) black |= 0x80 >> b;
        else if (v === 2) colour |= 0x80 >> b;
      }
      out[o + (x >> 3)] = black;
      if (second >= 0) out[second + o + (x >> 3)] = colour;
    }
  }
}

/** packPlanes's groups of 8 pixels in the kernel (kernel.ts); returns how many pixels of each row it packed. */
function packInKernel(
  k: Kernel,
  data: Uint8Array,
  width: number,
  height: number,
  rowBytes: number,
  second: number,
  out: Uint8Array,
): number {
  const pixels = width * height;
  const indexAt = DATA_BASE;
  const outAt = DATA_BASE + pixels;
  reserve(k, outAt + out.length);
  const memory = new Uint8Array(k.memory.buffer);
  memory.set(data.subarray(0, pixels), indexAt);
  memory.fill(0, outAt, outAt + out.length);
  k.pack(indexAt, width, height, rowBytes, second, outAt);
  out.set(memory.subarray(outAt, outAt + out.length));
  return width & ~7;
}

/** 2 or 4 bits a pixel holding the palette index, first pixel in the top bits. */
function packDeep(data: Uint8Array, width: number, height: number, layout: PackLayout, out: Uint8Array): void {
  const { rowBytes, bitsPerPixel: bits } = layout;
  const perByte = 8 / bits;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const o = y * rowBytes;
    for (let x = 0; x < width; x += perByte) {
      let byte = 0;
      const end = Math.min(perByte, width - x);
      for (let k = 0; k < end; k++) byte |= data[row + x + k] << (8 - bits * (k + 1));
      out[o + x / perByte] = byte;
    }
  }
}

/** Exact inverse of `pack`. Throws when the length does not match or a pixel names no ink. */
export function unpack(
  bytes: Uint8Array,
  shape: { readonly width: number; readonly height: number; readonly colourType: ColourType },
  padding: Padding = defaultPadding(shape.width),
): IndexImage {
  const { width, height, colourType } = shape;
  const layout = packLayout(colourType, width, height, padding);
  if (bytes.length !== layout.byteLength) {
    throw new RangeError(
      `packed image is ${bytes.length} bytes; ${width}×${height} ${colourType} needs ${layout.byteLength}`,
    );
  }
  const data = new Uint8Array(width * height);
  const { rowBytes } = layout;
  if (layout.bitsPerPixel === 1) {
    const planeBytes = layout.rows * rowBytes;
    // Later planes win, so a pixel with both bits set shows the colour (as three-colour panels do).
    for (let plane = 0; plane < layout.planes; plane++) {
      const base = plane * planeBytes;
      for (let y = 0; y < height; y++) {
        const o = base + y * rowBytes;
        for (let x = 0; x < width; x++) {
          if (bytes[o + (x >> 3)] & (0x80 >> (x & 7))) data[y * width + x] = plane + 1;
        }
      }
    }
    return { width, height, colourType, data };
  }
  const bits = layout.bitsPerPixel;
  const perByte = 8 / bits;
  const mask = (1 << bits) - 1;
  const colours = COLOUR_SETS[colourType].length;
  for (let y = 0; y < height; y++) {
    const o = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const shift = 8 - bits * ((x % perByte) + 1);
      const index = (bytes[o + Math.floor(x / perByte)] >> shift) & mask;
      if (index >= colours)
        throw new RangeError(`pixel ${x},${y} has index ${index}; ${colourType} has ${colours} inks`);
      data[y * width + x] = index;
    }
  }
  return { width, height, colourType, data };
}
