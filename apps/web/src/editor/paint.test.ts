import { decodeTagImage, encodeTagImage, type IndexImage, indexToRgba } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { docWith } from './fixtures';
import { type LabelRender, tagBytes } from './paint';

function render(width: number, height: number, ink: (x: number, y: number) => number): LabelRender {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = ink(x, y);
  const image: IndexImage = { width, height, colourType: 'bwr', data };
  return { image, rgba: new Uint8ClampedArray(indexToRgba(image)), problems: [] };
}

describe('what the tag receives', () => {
  it('packs with the model padding and decodes back to the same picture', () => {
    const doc = docWith();
    const label = render(296, 152, (x, y) => (x < 100 && y < 20 ? 1 : x > 200 && y > 100 ? 2 : 0));
    const sent = tagBytes(doc, label);
    // 296 is a multiple of 8: two 1-bit planes of 37 × 152 bytes.
    expect(sent.packed).toBe(2 * 37 * 152);
    expect(sent.bytes).toBeLessThan(sent.packed);
    expect(sent.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("pads rows and adds rows as the model's wext and hexit say", () => {
    // 2.13L: 250 × 122, rows padded to 256 pixels, 6 extra rows: two planes of 32 × 128 bytes.
    const doc = { ...docWith(), size: { model: '05', w: 250, h: 122 } };
    const label = render(250, 122, (x, y) => ((x + y) % 7 === 0 ? 1 : 0));
    const sent = tagBytes(doc, label);
    expect(sent.packed).toBe(2 * 32 * 128);
    const tag = decodeTagImage(encodeTagImage(label.image, { wext: 6, hexit: 6 }).bytes);
    expect(tag.data).toEqual(label.image.data);
  });

  it('uses the plain row padding when the panel is not the model size', () => {
    const doc = { ...docWith(), size: { model: '05', w: 122, h: 250 } };
    const sent = tagBytes(
      doc,
      render(122, 250, () => 0),
    );
    // 122 → 128 pixels a row, no extra rows.
    expect(sent.packed).toBe(2 * 16 * 250);
  });
});
