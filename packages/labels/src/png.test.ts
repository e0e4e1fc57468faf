import { deflateRawSync, inflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, test } from 'vitest';
import { COLOUR_SETS, type ColourType } from './model/colours';
import { adler32, indexToPng } from './png';
import { type IndexImage, indexToRgba } from './quantise';

async function decode(png: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height);
}

/** The IDAT payload of a PNG (one IDAT chunk, as ours have). */
function idat(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let p = 8; p < png.length; ) {
    const length = view.getUint32(p);
    const type = String.fromCharCode(...png.subarray(p + 4, p + 8));
    if (type === 'IDAT') return png.subarray(p + 8, p + 8 + length);
    p += 12 + length;
  }
  throw new Error('no IDAT');
}

function noise(width: number, height: number, colourType: ColourType): IndexImage {
  const inks = COLOUR_SETS[colourType].length;
  let seed = 42;
  const data = Uint8Array.from({ length: width * height }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >> 8) % inks;
  });
  return { width, height, colourType, data };
}

const nodeDeflate = (data: Uint8Array) => deflateRawSync(data, { level: 6 });

describe('png', () => {
  test('Adler-32 of known inputs', () => {
    expect(adler32(new TextEncoder().encode('Wikipedia'))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
    // Long runs of 0xff pass the 5,552-byte blocks' modulo steps.
    const long = new Uint8Array(100_000).fill(255);
    let a = 1;
    let b = 0;
    for (const byte of long) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
    expect(adler32(long)).toBe(((b << 16) | a) >>> 0);
  });

  test.each([
    ['bw', 1],
    ['bwr', 2],
    ['bwry', 2],
    ['seven', 4],
  ] as const)(
    '%s index images: %i bits a pixel, decode to the same pixels with fflate and with node:zlib',
    async (colourType, depth) => {
      // Widths that end mid-byte at every depth.
      for (const width of [1, 7, 13, 296]) {
        const image = noise(width, 5, colourType);
        for (const png of [indexToPng(image), indexToPng(image, { deflate: nodeDeflate })]) {
          expect(png[24]).toBe(depth);
          const decoded = await decode(png);
          expect(decoded.width).toBe(width);
          expect(Buffer.from(decoded.data).equals(Buffer.from(indexToRgba(image)))).toBe(true);
        }
      }
    },
  );

  test('with an injected raw deflater the IDAT is a valid zlib stream (header and Adler-32 checked)', () => {
    const image = noise(296, 152, 'bwr');
    const stream = idat(indexToPng(image, { deflate: nodeDeflate }));
    expect(((stream[0] << 8) | stream[1]) % 31).toBe(0);
    const rows = inflateSync(stream); // throws on a wrong Adler-32
    expect(rows.length).toBe((Math.ceil(296 / 4) + 1) * 152);
    const broken = stream.slice();
    broken[broken.length - 1] ^= 1;
    expect(() => inflateSync(broken)).toThrow();
  });
});
