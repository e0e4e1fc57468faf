import { describe, expect, test } from 'vitest';
import { firstDifference, noise } from '../test/images';
import { COLOUR_TYPES } from './model/colours';
import { defaultPadding, pack, packLayout, unpack } from './pack';
import type { IndexImage } from './quantise';

describe('pack', () => {
  test.each(COLOUR_TYPES)('%s: pack → unpack → pack is exact for odd widths and padding', (colourType) => {
    for (const [width, height, wext, hexit] of [
      [1, 1, 7, 0],
      [13, 7, 3, 0],
      [250, 122, 6, 6],
      [296, 152, 0, 0],
      [37, 5, 11, 2],
    ]) {
      const image = noise(width, height, colourType, width * 31 + height);
      const padding = { wext, hexit };
      const packed = pack(image, padding);
      expect(packed.length).toBe(packLayout(colourType, width, height, padding).byteLength);
      const back = unpack(packed, image, padding);
      expect(firstDifference(back.data, image.data)).toBe(-1);
      expect(firstDifference(pack(back, padding), packed)).toBe(-1);
    }
  });

  test.each(COLOUR_TYPES)('%s: a mostly white image (the white-run shortcut) round-trips', (colourType) => {
    const image = noise(296, 152, colourType, 99);
    // Keep one pixel in 50: long white runs with scattered ink, as on a label.
    image.data.forEach((_, i) => {
      if (i % 50 !== 0) image.data[i] = 0;
    });
    const packed = pack(image);
    expect(firstDifference(unpack(packed, image).data, image.data)).toBe(-1);
  });

  test.each(COLOUR_TYPES)('%s: the word-at-a-time path packs as pixel by pixel does', (colourType) => {
    // Widths that leave rows on and off 4-byte boundaries, and data that starts off one.
    for (const [width, height] of [
      [296, 152],
      [250, 122],
      [21, 9],
    ]) {
      const image = noise(width, height, colourType, width + height);
      image.data.forEach((_, i) => {
        if ((i >> 4) % 3 === 0) image.data[i] = 0; // white blocks too
      });
      const padding = defaultPadding(width);
      const expected = referencePack(image, padding);
      expect(firstDifference(pack(image, padding), expected)).toBe(-1);
      const shifted = new Uint8Array(image.data.length + 1).subarray(1);
      shifted.set(image.data);
      expect(firstDifference(pack({ ...image, data: shifted }, padding), expected)).toBe(-1);
    }
  });

  test('sizes per colour depth: 1 plane, 2 planes, 2 and 4 bits a pixel', () => {
    const pad = { wext: 6, hexit: 6 }; // 250 × 122 panel: rows of 256 pixels, 128 rows
    expect(packLayout('bw', 250, 122, pad).byteLength).toBe(32 * 128);
    expect(packLayout('bwr', 250, 122, pad).byteLength).toBe(2 * 32 * 128);
    expect(packLayout('bwy', 250, 122, pad).byteLength).toBe(2 * 32 * 128);
    expect(packLayout('bwry', 250, 122, pad).byteLength).toBe(64 * 128);
    expect(packLayout('seven', 250, 122, pad).byteLength).toBe(128 * 128);
  });

  test('bit layout: first pixel in the top bit, black plane then colour plane, padding white', () => {
    // 3 × 2, bwr: row 0 = black red white, row 1 = white white black; wext 5 → one byte a row; hexit 1.
    const image: IndexImage = { width: 3, height: 2, colourType: 'bwr', data: Uint8Array.of(1, 2, 0, 0, 0, 1) };
    expect([...pack(image, { wext: 5, hexit: 1 })]).toEqual([0b1000_0000, 0b0010_0000, 0, 0b0100_0000, 0, 0]);
    const four: IndexImage = { width: 3, height: 1, colourType: 'bwry', data: Uint8Array.of(3, 1, 2) };
    expect([...pack(four, { wext: 1, hexit: 0 })]).toEqual([0b11_01_10_00]);
    const seven: IndexImage = { width: 3, height: 1, colourType: 'seven', data: Uint8Array.of(6, 1, 4) };
    expect([...pack(seven, { wext: 1, hexit: 0 })]).toEqual([0x61, 0x40]);
  });

  test('default padding rounds rows up to 8 pixels', () => {
    expect(defaultPadding(250)).toEqual({ wext: 6, hexit: 0 });
    expect(defaultPadding(296)).toEqual({ wext: 0, hexit: 0 });
  });

  test('unpack refuses a wrong length and a pixel that names no ink', () => {
    const image = noise(16, 4, 'seven');
    const packed = pack(image);
    expect(() => unpack(packed.subarray(1), image)).toThrow(/bytes/);
    const bad = packed.slice();
    bad[0] = 0x70; // index 7: the seven-colour set has 0–6
    expect(() => unpack(bad, image)).toThrow(/index 7/);
  });

  test('a pixel with both plane bits set reads as the colour', () => {
    const bytes = Uint8Array.of(0x80, 0x80);
    expect(unpack(bytes, { width: 1, height: 1, colourType: 'bwr' }, { wext: 7, hexit: 0 }).data[0]).toBe(2);
  });
});

/** The format written out pixel by pixel, as the packing rule says (for comparison). */
function referencePack(image: IndexImage, padding: { wext: number; hexit: number }): Uint8Array {
  const layout = packLayout(image.colourType, image.width, image.height, padding);
  const out = new Uint8Array(layout.byteLength);
  const planeBytes = layout.rows * layout.rowBytes;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const v = image.data[y * image.width + x];
      if (layout.bitsPerPixel === 1) {
        if (v > 0) out[(v - 1) * planeBytes + y * layout.rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
      } else {
        const perByte = 8 / layout.bitsPerPixel;
        const shift = 8 - layout.bitsPerPixel * ((x % perByte) + 1);
        out[y * layout.rowBytes + Math.floor(x / perByte)] |= v << shift;
      }
    }
  }
  return out;
}
