import { unzlibSync } from 'fflate';
import type { DecodedImage } from './raster';

/**
 * Decodes a PNG to straight RGBA with this code alone, so a template's PNG images give the same
 * pixels in the browser and on the server (a platform decoder may apply gamma or colour profiles,
 * or lose precision through premultiplied alpha). Every colour type and bit depth, non-interlaced
 * and Adam7; gamma and colour profile chunks are ignored (the pixels are taken as sRGB).
 */
export function decodePng(bytes: Uint8Array): DecodedImage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  if (bytes.length < 33 || signature.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG image');
  let width = 0;
  let height = 0;
  let depth = 0;
  let colourType = 0;
  let interlace = 0;
  let palette: Uint8Array | null = null;
  let transparency: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      depth = body[8];
      colourType = body[9];
      interlace = body[12];
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType];
  if (!width || !height || channels === undefined || ![1, 2, 4, 8, 16].includes(depth)) {
    throw new Error('unsupported or damaged PNG image');
  }
  if (width * height > MAX_IMAGE_PIXELS) throw new Error('the PNG image is too large');
  const joined = new Uint8Array(idat.reduce((n, b) => n + b.length, 0));
  let offset = 0;
  for (const part of idat) {
    joined.set(part, offset);
    offset += part.length;
  }
  const raw = unzlibSync(joined);
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const out = new Uint8ClampedArray(width * height * 4);
  const max = (1 << depth) - 1;

  let read = 0;
  const pass = (x0: number, y0: number, dx: number, dy: number) => {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) return;
    const stride = Math.ceil((w * bitsPerPixel) / 8);
    let previous = new Uint8Array(stride);
    for (let row = 0; row < h; row++) {
      if (read + 1 + stride > raw.length) throw new Error('the PNG image data is cut short');
      const filter = raw[read];
      const line = raw.slice(read + 1, read + 1 + stride);
      read += 1 + stride;
      unfilter(filter, line, previous, bpp);
      previous = line;
      for (let col = 0; col < w; col++) {
        const sample = (c: number): number => {
          if (depth === 8) return line[col * channels + c];
          if (depth === 16) return line[(col * channels + c) * 2];
          const bit = (col * channels + c) * depth;
          return (line[bit >> 3] >> (8 - depth - (bit & 7))) & max;
        };
        const raw16 = (c: number) => (line[(col * channels + c) * 2] << 8) | line[(col * channels + c) * 2 + 1];
        const scale = (v: number) => (depth >= 8 ? v : Math.round((v * 255) / max));
        const p = ((y0 + row * dy) * width + x0 + col * dx) * 4;
        let [r, g, b, a] = [0, 0, 0, 255];
        if (colourType === 3) {
          const index = sample(0);
          if (!palette || index * 3 + 2 >= palette.length) throw new Error('the PNG palette is missing an entry');
          [r, g, b] = [palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2]];
          a = transparency && index < transparency.length ? transparency[index] : 255;
        } else if (colourType === 0 || colourType === 4) {
          r = g = b = scale(sample(0));
          if (colourType === 4) a = sample(1);
          else if (transparency && transparency.length >= 2) {
            const key = (transparency[0] << 8) | transparency[1];
            if ((depth === 16 ? raw16(0) : sample(0)) === key) a = 0;
          }
        } else {
          [r, g, b] = [sample(0), sample(1), sample(2)];
          if (colourType === 6) a = sample(3);
          else if (transparency && transparency.length >= 6) {
            const v = (i: number) => (transparency ? (transparency[2 * i] << 8) | transparency[2 * i + 1] : -1);
            const same =
              depth === 16
                ? raw16(0) === v(0) && raw16(1) === v(1) && raw16(2) === v(2)
                : r === v(0) && g === v(1) && b === v(2);
            if (same) a = 0;
          }
        }
        out[p] = r;
        out[p + 1] = g;
        out[p + 2] = b;
        out[p + 3] = a;
      }
    }
  };
  if (interlace === 1) {
    const passes: [number, number, number, number][] = [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ];
    for (const [x0, y0, dx, dy] of passes) pass(x0, y0, dx, dy);
  } else {
    pass(0, 0, 1, 1);
  }
  return { width, height, data: out };
}

function unfilter(filter: number, line: Uint8Array, up: Uint8Array, bpp: number): void {
  for (let i = 0; i < line.length; i++) {
    const left = i >= bpp ? line[i - bpp] : 0;
    const above = up[i];
    const corner = i >= bpp ? up[i - bpp] : 0;
    let add = 0;
    if (filter === 1) add = left;
    else if (filter === 2) add = above;
    else if (filter === 3) add = (left + above) >> 1;
    else if (filter === 4) {
      const p = left + above - corner;
      const pa = Math.abs(p - left);
      const pb = Math.abs(p - above);
      const pc = Math.abs(p - corner);
      add = pa <= pb && pa <= pc ? left : pb <= pc ? above : corner;
    } else if (filter !== 0) throw new Error('damaged PNG image (unknown row filter)');
    line[i] = (line[i] + add) & 255;
  }
}

/** The bytes of a base64 data URL, or null when the source is not one. */
/** The most pixels an image of a template may have (a 160 MB RGBA picture). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * A JPEG's size from its first start-of-frame segment (markers C0–CF but C4, C8, CC), read before
 * anything is decoded; null when the bytes are not a JPEG or end before the frame.
 */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

export function dataUrlBytes(src: string): { type: string; bytes: Uint8Array } | null {
  const match = /^data:([^;,]*)(;[^,]*)?;base64,(.*)$/s.exec(src);
  if (!match) return null;
  const text = atob(match[3].replace(/\s+/g, ''));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return { type: match[1].toLowerCase(), bytes };
}

/**
 * A PNG data URL decoded by decodePng, or null when the source is not a PNG data URL (the caller
 * decodes other images, JPEG, with the platform's decoder). Throws on a damaged PNG.
 */
export function decodePngDataUrl(src: string): DecodedImage | null {
  const parsed = dataUrlBytes(src);
  if (!parsed) return null;
  const isPng = parsed.bytes[0] === 137 && parsed.bytes[1] === 80 && parsed.bytes[2] === 78 && parsed.bytes[3] === 71;
  return isPng ? decodePng(parsed.bytes) : null;
}
