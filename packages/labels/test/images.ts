import { COLOUR_SETS, type ColourType } from '../src/model/colours';
import type { IndexImage } from '../src/quantise';

/** A deterministic pseudo-random index image (xorshift) using every ink of the set. */
export function noise(width: number, height: number, colourType: ColourType, seed = 1): IndexImage {
  const inks = COLOUR_SETS[colourType].length;
  const data = new Uint8Array(width * height);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    data[i] = (s >>> 0) % inks;
  }
  return { width, height, colourType, data };
}

/** A flat RGBA image of one colour. */
export function flatRgba(width: number, height: number, rgb: readonly [number, number, number]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
  return { width, height, data };
}

/** Index of the first byte where two arrays differ, or -1 when they are equal (lengths too). */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
