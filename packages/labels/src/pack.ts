import { COLOUR_SETS, type ColourType } from './colours';
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
  const { width, height, data, colourType } = image;
  const layout = packLayout(colourType, width, height, padding);
  const out = new Uint8Array(layout.byteLength);
  const { rowBytes } = layout;
  if (layout.bitsPerPixel === 1) {
    // Both planes in one pass: plane 0 gets ink 1 (black), plane 1 ink 2 (the colour).
    const second = layout.planes === 2 ? layout.rows * rowBytes : -1;
    // Most of a label is white (index 0): skip 8 white pixels at a time as two zero words.
    const words =
      width % 4 === 0 && data.byteOffset % 4 === 0
        ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2)
        : null;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      const o = y * rowBytes;
      for (let x = 0; x < width; x += 8) {
        if (words !== null && x + 8 <= width) {
          const w = (row + x) >> 2;
          if (words[w] === 0 && words[w + 1] === 0) continue;
        }
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
    return out;
  }
  const perByte = 8 / layout.bitsPerPixel;
  const bits = layout.bitsPerPixel;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const o = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const shift = 8 - bits * ((x % perByte) + 1);
      out[o + Math.floor(x / perByte)] |= data[row + x] << shift;
    }
  }
  return out;
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
