import { describe, expect, test } from 'vitest';
import { firstDifference, noise } from '../test/images';
import { contentHash, decodePacked, decodeTagImage, encodeTagImage, HEADER_BYTES, readHeader } from './encode';
import { COLOUR_TYPES } from './model/colours';
import { pack } from './pack';
import type { IndexImage } from './quantise';

function blank(width: number, height: number): IndexImage {
  const data = new Uint8Array(width * height);
  data.fill(1, 0, width * 10); // a black band
  return { width, height, colourType: 'bwr', data };
}

describe('encodeTagImage', () => {
  test.each(COLOUR_TYPES)('%s: decode(encode(image)) is the image', (colourType) => {
    const image = noise(250, 122, colourType, 7);
    const encoded = encodeTagImage(image, { wext: 6, hexit: 6 });
    const decoded = decodeTagImage(encoded.bytes);
    expect({ ...decoded, data: null }).toEqual({ ...image, data: null });
    expect(firstDifference(decoded.data, image.data)).toBe(-1);
  });

  test('a typical label deflates and round-trips', () => {
    const image = blank(296, 152);
    const encoded = encodeTagImage(image, { wext: 0, hexit: 0 });
    expect(encoded.header.compression).toBe('deflate');
    expect(encoded.bytes.length).toBeLessThan(encoded.packedLength / 5);
    const { packed } = decodePacked(encoded.bytes);
    expect(firstDifference(packed, pack(image, { wext: 0, hexit: 0 }))).toBe(-1);
    expect(encoded.hash).toBe(contentHash(packed, encoded.header));
  });

  test('noise does not deflate smaller: the raw planes are sent', () => {
    const image = noise(296, 152, 'bw', 3);
    const encoded = encodeTagImage(image, { wext: 0, hexit: 0 });
    expect(encoded.header.compression).toBe('raw');
    expect(encoded.bytes.length).toBe(HEADER_BYTES + encoded.packedLength);
    expect(encoded.hash).toBe(contentHash(pack(image, { wext: 0, hexit: 0 }), encoded.header));
    const decoded = decodeTagImage(encoded.bytes);
    expect({ ...decoded, data: null }).toEqual({ ...image, data: null });
    expect(firstDifference(decoded.data, image.data)).toBe(-1);
  });

  test('the header names geometry, colour type and compression', () => {
    const encoded = encodeTagImage(blank(250, 122), { wext: 6, hexit: 6 });
    expect(readHeader(encoded.bytes)).toEqual({
      compression: 'deflate',
      colourType: 'bwr',
      width: 250,
      height: 122,
      wext: 6,
      hexit: 6,
      packedLength: 2 * 32 * 128,
    });
    expect([...encoded.bytes.subarray(0, 4)]).toEqual([0xe5, 1, 1, 1]);
  });

  test('the hash follows the picture, not the compression', () => {
    const a = encodeTagImage(blank(296, 152), { wext: 0, hexit: 0 });
    const b = encodeTagImage(blank(296, 152), { wext: 0, hexit: 0 });
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.hash).toBe(a.hash);
    const changed = blank(296, 152);
    changed.data[5000] = 2;
    expect(encodeTagImage(changed, { wext: 0, hexit: 0 }).hash).not.toBe(a.hash);
    // Same bytes, other geometry: a different picture.
    expect(encodeTagImage(blank(152, 296), { wext: 0, hexit: 0 }).hash).not.toBe(a.hash);
  });

  test('node:crypto and zlib give the same hash and a payload the same decoder reads', async () => {
    const { nodeDeflate, nodeSha256 } = await import('./node');
    const image = blank(296, 152);
    const browser = encodeTagImage(image, { wext: 0, hexit: 0 });
    const server = encodeTagImage(image, { wext: 0, hexit: 0 }, { deflate: nodeDeflate, sha256: nodeSha256 });
    expect(server.hash).toBe(browser.hash);
    expect(server.header.compression).toBe('deflate');
    expect(firstDifference(decodeTagImage(server.bytes).data, image.data)).toBe(-1);
  });

  test('corrupt input is refused', () => {
    const encoded = encodeTagImage(blank(64, 8), { wext: 0, hexit: 0 });
    expect(() => readHeader(Uint8Array.of(1, 2, 3))).toThrow(/not a packed/);
    const wrongLength = encoded.bytes.slice();
    wrongLength[10] += 1;
    expect(() => decodeTagImage(wrongLength)).toThrow(/header says/);
  });
});
