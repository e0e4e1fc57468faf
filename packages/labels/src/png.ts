import { zlibSync } from 'fflate';
import { paletteRgb } from './model/colours';
import type { IndexImage } from './quantise';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** Adler-32 (RFC 1950) of bytes, the zlib stream's trailer. */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = bytes.length;
  // 5,552 bytes is the most that can be summed before b could pass 2^32 (zlib's NMAX).
  for (let start = 0; start < n; start += 5552) {
    const end = Math.min(start + 5552, n);
    for (let i = start; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib stream (RFC 1950) of `data`: fflate's by default, or the given raw deflater (node:zlib's
 * deflateRawSync on a server, several times faster) wrapped in the zlib header and Adler-32.
 */
function zlibStream(data: Uint8Array, deflate: PngOptions['deflate']): Uint8Array {
  if (!deflate) return zlibSync(data, { level: 6 });
  const raw = deflate(data);
  const out = new Uint8Array(raw.length + 6);
  out[0] = 0x78; // deflate, 32 KB window
  out[1] = 0x9c; // default level; (0x78 << 8 | 0x9c) is a multiple of 31
  out.set(raw, 2);
  new DataView(out.buffer).setUint32(raw.length + 2, adler32(data));
  return out;
}

export interface PngOptions {
  /**
   * Raw deflate (RFC 1951) to compress with instead of fflate, as in EncodeOptions:
   * `@esl/labels/node` passes node:zlib's deflateRawSync.
   */
  readonly deflate?: (data: Uint8Array) => Uint8Array;
}

function png(
  width: number,
  height: number,
  colourType: 2 | 3 | 6,
  depth: 1 | 2 | 4 | 8,
  rows: Uint8Array,
  options: PngOptions,
  palette?: Uint8Array,
): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = depth;
  ihdr[9] = colourType;
  const parts = [
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', ihdr),
    ...(palette ? [chunk('PLTE', palette)] : []),
    chunk('IDAT', zlibStream(rows, options.deflate)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A palette PNG of an index image (the picture the tag shows), made without a canvas: 1 bit a
 * pixel for two inks, 2 for up to four, 4 for the seven-colour set (a quarter of the bytes to
 * compress for black/white/red).
 */
export function indexToPng(image: IndexImage, options: PngOptions = {}): Uint8Array {
  const { width, height, data } = image;
  const palette = paletteRgb(image.colourType);
  const inks = palette.length / 3;
  const depth = inks <= 2 ? 1 : inks <= 4 ? 2 : 4;
  const perByte = 8 / depth;
  const rowBytes = Math.ceil(width / perByte) + 1; // filter byte (0, none) first
  const rows = new Uint8Array(rowBytes * height);
  const whole = width - (width % perByte);
  for (let y = 0, i = 0; y < height; y++) {
    let o = y * rowBytes + 1;
    let x = 0;
    // Whole bytes, then the last partial one (its low bits stay 0).
    if (depth === 2) {
      for (; x < whole; x += 4, i += 4)
        rows[o++] = (data[i] << 6) | (data[i + 1] << 4) | (data[i + 2] << 2) | data[i + 3];
    } else {
      for (; x < whole; o++) {
        let byte = 0;
        for (let k = 0; k < perByte; k++, x++, i++) byte = (byte << depth) | data[i];
        rows[o] = byte;
      }
    }
    if (x < width) {
      let byte = 0;
      let k = 0;
      for (; x < width; k++, x++, i++) byte = (byte << depth) | data[i];
      rows[o] = byte << (depth * (perByte - k));
    }
  }
  return png(width, height, 3, depth, rows, options, palette);
}

/** An RGBA PNG (8 bits a channel), made without a canvas. */
export function rgbaToPng(
  width: number,
  height: number,
  rgba: Uint8Array | Uint8ClampedArray,
  options: PngOptions = {},
): Uint8Array {
  const rows = new Uint8Array((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  return png(width, height, 6, 8, rows, options);
}
