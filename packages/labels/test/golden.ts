import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { rgbaToPng } from '../src/png';

export const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));
/** Actual images and diffs of failing comparisons; gitignored. */
export const GOLDEN_OUT = join(GOLDEN_DIR, 'out');
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

export async function readPngRgba(file: string): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(readFileSync(file));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height);
}

export interface GoldenResult {
  /** Why the image does not match its reference, or null when it matches (or was rewritten). */
  readonly failure: string | null;
}

/**
 * Compares an image with test/golden/<name>.png pixel for pixel. UPDATE_GOLDEN=1 rewrites the
 * reference instead. On a mismatch the actual image and a diff (differing pixels magenta on a
 * faded copy of the reference) are written to test/golden/out/ for inspection.
 */
export async function matchGolden(
  name: string,
  actual: { width: number; height: number; rgba: Uint8ClampedArray; png: Uint8Array },
): Promise<GoldenResult> {
  const file = join(GOLDEN_DIR, `${name}.png`);
  if (UPDATE_GOLDEN) {
    writeFileSync(file, actual.png);
    return { failure: null };
  }
  if (!existsSync(file)) return { failure: `no reference ${file}; run with UPDATE_GOLDEN=1 to create it` };
  const expected = await readPngRgba(file);
  let differing = 0;
  const diff = new Uint8ClampedArray(actual.width * actual.height * 4);
  const sameSize = expected.width === actual.width && expected.height === actual.height;
  if (sameSize) {
    for (let p = 0; p < diff.length; p += 4) {
      const same =
        expected.data[p] === actual.rgba[p] &&
        expected.data[p + 1] === actual.rgba[p + 1] &&
        expected.data[p + 2] === actual.rgba[p + 2];
      if (!same) differing++;
      const fade = (c: number) => 255 - (255 - c) / 4;
      diff.set(
        same
          ? [fade(expected.data[p]), fade(expected.data[p + 1]), fade(expected.data[p + 2]), 255]
          : [255, 0, 255, 255],
        p,
      );
    }
    if (differing === 0) return { failure: null };
  }
  mkdirSync(GOLDEN_OUT, { recursive: true });
  writeFileSync(join(GOLDEN_OUT, `${name}.actual.png`), actual.png);
  if (sameSize) writeFileSync(join(GOLDEN_OUT, `${name}.diff.png`), rgbaToPng(actual.width, actual.height, diff));
  const what = sameSize
    ? `${differing} pixels differ`
    : `size ${actual.width}×${actual.height}, reference ${expected.width}×${expected.height}`;
  return { failure: `${name}: ${what}; see ${GOLDEN_OUT}` };
}
