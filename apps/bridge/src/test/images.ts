import type { TagColourType } from '@esl/contract';
import { COLOUR_SETS, type IndexImage } from '@esl/labels';
import type { EmuScreen, EmuTagType } from '@esl/simulator';

/** A busy test picture: stripes, a checkerboard, single pixels and a block of every ink. */
export function testImage(width: number, height: number, colourType: TagColourType, seed = 0): IndexImage {
  const inks = COLOUR_SETS[colourType].length;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 0;
      if (x < width / 4)
        v = Math.floor((y * inks) / height); // a block of every ink
      else if (y < 8)
        v = (x + y + seed) % inks; // one-pixel stripes
      else if ((x >> 3) % 2 === (y >> 3) % 2)
        v = ((x >> 3) + seed) % inks; // checkerboard
      else if ((x * 31 + y * 17 + seed) % 97 === 0) v = 1; // lone pixels
      data[y * width + x] = v;
    }
  }
  return { width, height, colourType, data };
}

/**
 * Pixels where the emulated tag's screen (the AP's palette mapping, colour-table order) differs
 * from our image (our ink order), compared by ink name; `turn` 1 compares a screen that is our
 * image turned a quarter clockwise, 3 anticlockwise.
 */
export function differingPixels(image: IndexImage, screen: EmuScreen, type: EmuTagType, turn: 0 | 1 | 3 = 0): number {
  const ours = COLOUR_SETS[image.colourType];
  const theirs = Object.keys(type.colortable);
  let diff = 0;
  for (let y = 0; y < screen.height; y++) {
    for (let x = 0; x < screen.width; x++) {
      let sx = x;
      let sy = y;
      if (turn === 1) {
        sx = y;
        sy = image.height - 1 - x;
      } else if (turn === 3) {
        sx = image.width - 1 - y;
        sy = x;
      }
      const want = ours[image.data[sy * image.width + sx]];
      const got = theirs[screen.indices[y * screen.width + x]];
      if (want !== got) diff++;
    }
  }
  return diff;
}
