import { beforeAll, describe, expect, test, vi } from 'vitest';
import { decodeTagImage } from '../src/encode';
import type { Rotation } from '../src/model/document';
import { registerFonts, renderTagImage, renderToPng } from '../src/node';
import { indexToPng } from '../src/png';
import { indexToRgba, rotateIndex } from '../src/quantise';
import { cases, portraitLabel } from './cases';
import { PRODUCT } from './fixtures';
import { matchGolden } from './golden';
import { firstDifference } from './images';

// Rendering large labels takes a while when the machine is busy (CI runs everything at once).
vi.setConfig({ testTimeout: 30_000 });

/** Catalogue padding (see @esl/contract models.ts): rows to a multiple of 8; 122-row panels have 6 more. */
const padding = (w: number, h: number) => ({ wext: (8 - (w % 8)) % 8, hexit: h === 122 ? 6 : 0 });

describe('golden images: template + data → quantised label, pixel for pixel', () => {
  // Registering the two 10 MB font files is slow on a busy machine: not part of any one test.
  beforeAll(() => registerFonts(), 60_000);

  test.each(cases)('$name', async ({ name, doc, data, dither }) => {
    const preview = await renderToPng(doc, data, { dither });
    expect(preview.problems).toEqual([]);
    const { width, height } = preview.image;
    const result = await matchGolden(name, { width, height, rgba: preview.rgba, png: preview.png });
    expect(result.failure).toBeNull();

    // What goes to the tag decodes back to exactly this picture.
    const { tag, panel } = await renderTagImage(doc, data, padding(doc.size.w, doc.size.h), { dither });
    const decoded = decodeTagImage(tag.bytes);
    expect(firstDifference(decoded.data, panel.data)).toBe(-1);
    expect(firstDifference(decoded.data, preview.image.data)).toBe(-1);
  });

  test.each([90, 180, 270] as Rotation[])(
    'rotation %i: designed turned, sent in panel orientation',
    async (rotation) => {
      const rotated = portraitLabel(rotation);
      const preview = await renderToPng(rotated, PRODUCT);
      expect(preview.problems).toEqual([]);
      const { tag, panel } = await renderTagImage(rotated, PRODUCT);
      expect([panel.width, panel.height]).toEqual([296, 152]);
      expect(tag.header).toMatchObject({ width: 296, height: 152 });
      const back = rotateIndex(decodeTagImage(tag.bytes), ((360 - rotation) % 360) as Rotation);
      expect(firstDifference(back.data, preview.image.data)).toBe(-1);
      if (rotation === 90) {
        const result = await matchGolden('price-bwr-296x152-rot90-panel', {
          width: panel.width,
          height: panel.height,
          rgba: indexToRgba(panel),
          png: indexToPng(panel),
        });
        expect(result.failure).toBeNull();
      }
    },
  );
});
