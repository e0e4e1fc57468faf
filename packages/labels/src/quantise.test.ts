import { describe, expect, test } from 'vitest';
import { flatRgba } from '../test/images';
import { COLOUR_SETS, COLOUR_TYPES, INK_RGB } from './model/colours';
import { DITHER_MODES } from './model/document';
import { bayerMatrix, indexToRgba, quantise, rotateIndex } from './quantise';

const share = (data: Uint8Array, index: number) => data.filter((v) => v === index).length / data.length;

describe('quantise', () => {
  test.each(COLOUR_TYPES)('%s: every ink maps to itself in every mode', (colourType) => {
    const inks = COLOUR_SETS[colourType];
    for (const dither of DITHER_MODES) {
      inks.forEach((ink, index) => {
        const out = quantise(flatRgba(16, 16, INK_RGB[ink]), colourType, dither);
        expect(out.data.every((v) => v === index)).toBe(true);
      });
    }
  });

  test('50 % grey: all one ink with none, about half black with ordered and diffusion', () => {
    const grey = flatRgba(64, 64, [128, 128, 128]);
    const none = quantise(grey, 'bw', 'none').data;
    expect(share(none, 0) === 1 || share(none, 1) === 1).toBe(true);
    for (const dither of ['ordered', 'diffusion'] as const) {
      const black = share(quantise(grey, 'bw', dither).data, 1);
      expect(black).toBeGreaterThan(0.45);
      expect(black).toBeLessThan(0.55);
    }
  });

  test('greys never turn into a colour ink, in any set or mode', () => {
    for (const colourType of COLOUR_TYPES) {
      for (const dither of DITHER_MODES) {
        for (const level of [32, 96, 128, 160, 224]) {
          const out = quantise(flatRgba(32, 32, [level, level, level]), colourType, dither).data;
          expect(out.every((v) => v <= 1)).toBe(true);
        }
      }
    }
  });

  test('dithering follows the tone: a light grey gets fewer black pixels than a dark one', () => {
    for (const dither of ['ordered', 'diffusion'] as const) {
      const light = share(quantise(flatRgba(64, 64, [200, 200, 200]), 'bwr', dither).data, 1);
      const dark = share(quantise(flatRgba(64, 64, [60, 60, 60]), 'bwr', dither).data, 1);
      expect(light).toBeGreaterThan(0.15);
      expect(light).toBeLessThan(0.3);
      expect(dark).toBeGreaterThan(0.7);
    }
  });

  test('a pink (light red) area dithers into red and white', () => {
    const out = quantise(flatRgba(32, 32, [255, 128, 128]), 'bwr', 'diffusion').data;
    expect(share(out, 2)).toBeGreaterThan(0.3);
    expect(share(out, 0)).toBeGreaterThan(0.3);
    expect(share(out, 1)).toBeLessThan(0.05);
  });

  test('none makes anti-aliased edges a third covered or more ink', () => {
    const edge = quantise(flatRgba(1, 1, [165, 165, 165]), 'bw', 'none').data[0]; // 35 % ink
    const faint = quantise(flatRgba(1, 1, [180, 180, 180]), 'bw', 'none').data[0]; // 29 % ink
    expect([edge, faint]).toEqual([1, 0]);
  });

  test('transparent pixels are laid on white', () => {
    const image = flatRgba(2, 1, [0, 0, 0]);
    image.data[3] = 0;
    expect([...quantise(image, 'bw').data]).toEqual([0, 1]);
  });

  test('the Bayer matrix holds 0–63 once each', () => {
    expect([...bayerMatrix()].sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i));
    expect([...bayerMatrix().subarray(0, 4)]).toEqual([0, 32, 8, 40]);
  });

  test('indexToRgba paints the palette', () => {
    const rgba = indexToRgba({ width: 3, height: 1, colourType: 'bwr', data: Uint8Array.of(0, 1, 2) });
    expect([...rgba]).toEqual([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255]);
  });

  test('rotation turns clockwise and four quarter turns are the identity', () => {
    // 3 × 2:  a b c / d e f  turned 90° clockwise is 2 × 3:  d a / e b / f c
    const image = { width: 3, height: 2, colourType: 'seven' as const, data: Uint8Array.of(1, 2, 3, 4, 5, 6) };
    const turned = rotateIndex(image, 90);
    expect([turned.width, turned.height, ...turned.data]).toEqual([2, 3, 4, 1, 5, 2, 6, 3]);
    expect([...rotateIndex(image, 180).data]).toEqual([6, 5, 4, 3, 2, 1]);
    expect([...rotateIndex(image, 270).data]).toEqual([3, 6, 2, 5, 1, 4]);
    const round = rotateIndex(rotateIndex(rotateIndex(turned, 90), 90), 90);
    expect([round.width, ...round.data]).toEqual([3, ...image.data]);
  });
});
