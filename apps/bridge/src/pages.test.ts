import type { IndexImage } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { firstPage, toJpeg } from './oepl/jpeg';
import type { OeplTagType } from './oepl/types';

// Label pages at an OpenEPaperLink AP (docs/PAGES.md): it holds one picture per tag, so a label of
// several pages is shown as its first page; a one-page label is untouched.
const TYPE: OeplTagType = {
  version: 1,
  name: 'test 8×4',
  width: 8,
  height: 4,
  rotatebuffer: 0,
  bpp: 1,
  colortable: { white: [255, 255, 255], black: [0, 0, 0] },
};
const image = (height: number, fill: (y: number) => number): IndexImage => ({
  width: 8,
  height,
  colourType: 'bw',
  data: Uint8Array.from({ length: 8 * height }, (_, i) => fill(Math.floor(i / 8))),
});

describe('label pages at an OEPL AP', () => {
  it('keeps the first page of a stacked image', () => {
    const two = image(8, (y) => (y < 4 ? 0 : 1));
    const first = firstPage(two, TYPE);
    expect([first.width, first.height]).toEqual([8, 4]);
    expect([...first.data].every((v) => v === 0)).toBe(true);
    expect(toJpeg(two, TYPE)).toEqual(
      toJpeg(
        image(4, () => 0),
        TYPE,
      ),
    );
  });

  it('leaves a one-page image and an image it cannot split alone', () => {
    const one = image(4, () => 1);
    expect(firstPage(one, TYPE)).toBe(one);
    const odd = image(6, () => 1);
    expect(firstPage(odd, TYPE)).toBe(odd);
  });
});
