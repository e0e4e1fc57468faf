import { afterEach, describe, expect, test } from 'vitest';
import { firstDifference, noise } from '../test/images';
import { kernelBytes, setKernelEnabled, wasmKernel } from './kernel';
import { COLOUR_SETS, COLOUR_TYPES, INK_RGB } from './model/colours';
import { defaultPadding, pack } from './pack';
import { quantise } from './quantise';

afterEach(() => setKernelEnabled(true));

/** Both ways of computing something: with the WebAssembly kernel, then with the JavaScript loops. */
function bothWays<T>(run: () => T): [kernel: T, script: T] {
  setKernelEnabled(true);
  const kernel = run();
  setKernelEnabled(false);
  const script = run();
  setKernelEnabled(true);
  return [kernel, script];
}

/**
 * A label-like RGBA image: runs of white, of inks and of anti-aliased greys and tints, single
 * odd pixels, some transparent ones, and more distinct colours than the kernel's table holds.
 */
function labelLike(width: number, height: number, seed: number): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(width * height * 4);
  let s = seed;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const inks = Object.values(INK_RGB);
  for (let i = 0; i < width * height; ) {
    const kind = next() % 8;
    const run = 1 + (next() % (kind < 3 ? 40 : 4));
    let rgba: number[];
    if (kind < 3) rgba = [255, 255, 255, 255];
    else if (kind < 5) rgba = [...inks[next() % inks.length], 255];
    else if (kind === 5) {
      const grey = next() % 256;
      rgba = [grey, grey, grey, 255];
    } else if (kind === 6) rgba = [next() % 256, next() % 256, next() % 256, 255];
    else rgba = [next() % 256, next() % 256, next() % 256, next() % 256];
    for (let k = 0; k < run && i < width * height; k++, i++) data.set(rgba, i * 4);
  }
  return { width, height, data };
}

describe('WebAssembly kernel', () => {
  test('compiles here (Node has WebAssembly), and is small', () => {
    expect(wasmKernel()).not.toBeNull();
    expect(kernelBytes().length).toBeLessThan(1024);
  });

  test.each(COLOUR_TYPES)('%s: quantise (none) gives the same inks with and without it', (colourType) => {
    // 300 × 70 is more than one piece of the kernel's work (16,384 pixels); the second image finds
    // the table filled by the first.
    for (const [width, height, seed] of [
      [300, 70, 1],
      [300, 70, 2],
      [37, 11, 3],
      [1, 1, 4],
    ]) {
      const image = labelLike(width, height, seed);
      const [kernel, script] = bothWays(() => quantise(image, colourType, 'none'));
      expect(firstDifference(kernel.data, script.data)).toBe(-1);
    }
  });

  test('an image that starts off a 4-byte boundary, and a clamped array, quantise the same', () => {
    const image = labelLike(64, 16, 9);
    const shifted = new Uint8Array(image.data.length + 1).subarray(1);
    shifted.set(image.data);
    const clamped = new Uint8ClampedArray(image.data);
    const [kernel, script] = bothWays(() => quantise({ ...image, data: shifted }, 'bwr'));
    expect(firstDifference(kernel.data, script.data)).toBe(-1);
    expect(firstDifference(quantise({ ...image, data: clamped }, 'bwr').data, script.data)).toBe(-1);
  });

  test.each(['bw', 'bwr', 'bwy'] as const)('%s: bit-planes are the same with and without it', (colourType) => {
    for (const [width, height] of [
      [296, 152],
      [250, 122],
      [9, 3],
      [800, 40],
    ]) {
      const image = noise(width, height, colourType, width * height);
      image.data.forEach((_, i) => {
        if ((i >> 3) % 4 !== 0) image.data[i] = 0; // white groups of 8 as well
      });
      const padding = defaultPadding(width);
      const [kernel, script] = bothWays(() => pack(image, padding));
      expect(firstDifference(kernel, script)).toBe(-1);
    }
  });

  test('a colour the table cannot keep (its slots hold inks) is still mapped right', () => {
    // Every ink of the seven-colour set, then many colours: some land on the inks' slots.
    const colours = COLOUR_SETS.seven.length;
    const image = labelLike(128, 128, 77);
    for (let i = 0; i < colours; i++) image.data.set([...INK_RGB[COLOUR_SETS.seven[i]], 255], i * 4);
    const [kernel, script] = bothWays(() => quantise(image, 'seven', 'none'));
    expect(firstDifference(kernel.data, script.data)).toBe(-1);
  });
});
