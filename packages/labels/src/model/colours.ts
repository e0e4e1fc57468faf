import { z } from 'zod';

/**
 * Colour types of tag panels. @esl/contract answers these as TagColourType and COLOUR_SETS (it
 * imports this model; this package imports nothing of ours).
 */
export const COLOUR_TYPES = ['bw', 'bwr', 'bwry', 'bwy', 'seven'] as const;
export const ColourType = z.enum(COLOUR_TYPES);
export type ColourType = z.infer<typeof ColourType>;

export const INK_NAMES = ['white', 'black', 'red', 'yellow', 'green', 'blue', 'orange'] as const;
export const Ink = z.enum(INK_NAMES);
export type Ink = z.infer<typeof Ink>;

/** Inks of each colour type; the position of an ink is its palette index in index images. */
export const COLOUR_SETS: Readonly<Record<ColourType, readonly Ink[]>> = {
  bw: ['white', 'black'],
  bwr: ['white', 'black', 'red'],
  bwry: ['white', 'black', 'red', 'yellow'],
  bwy: ['white', 'black', 'yellow'],
  seven: ['white', 'black', 'green', 'blue', 'red', 'yellow', 'orange'],
};

/** The sRGB value each ink is drawn with and quantised against. */
export const INK_RGB: Readonly<Record<Ink, readonly [number, number, number]>> = {
  white: [255, 255, 255],
  black: [0, 0, 0],
  red: [255, 0, 0],
  yellow: [255, 255, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  orange: [255, 128, 0],
};

export function inkCss(ink: Ink): string {
  const [r, g, b] = INK_RGB[ink];
  return `rgb(${r},${g},${b})`;
}

/** RGB triples of a colour type's palette, flattened: [r0, g0, b0, r1, ...]. */
export function paletteRgb(colourType: ColourType): Uint8Array {
  const inks = COLOUR_SETS[colourType];
  const out = new Uint8Array(inks.length * 3);
  inks.forEach((ink, i) => {
    out.set(INK_RGB[ink], i * 3);
  });
  return out;
}

/**
 * The ink a colour set uses in place of one it lacks: the nearest non-white ink by the quantiser's
 * distance (never white, so yellow text on a black/white/red tag turns red, not invisible).
 */
export function inkInSet(ink: Ink, colourType: ColourType): Ink {
  const inks = COLOUR_SETS[colourType];
  if (inks.includes(ink)) return ink;
  const [r, g, b] = INK_RGB[ink];
  let best: Ink = 'black';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of inks) {
    if (candidate === 'white') continue;
    const [cr, cg, cb] = INK_RGB[candidate];
    const d = 299 * (r - cr) ** 2 + 587 * (g - cg) ** 2 + 114 * (b - cb) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}
