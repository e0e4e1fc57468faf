/*
 * The AP's palette mapping with dither=0 (../shared/OEPL.md §1.3, §1.7): each pixel goes to the
 * colour-table entry at the smallest weighted RGB distance, and a grey input pixel only ever to
 * a grey entry (black, white), never to a colour.
 */

const WR = 3;
const WG = 6;
const WB = 1;

const isGrey = (r: number, g: number, b: number) => Math.max(r, g, b) - Math.min(r, g, b) < 16;

/** RGBA pixels → palette indices (the colour table's order). */
export function mapToPalette(rgba: Uint8Array, palette: readonly (readonly [number, number, number])[]): Uint8Array {
  const greys = palette.map(([r, g, b]) => isGrey(r, g, b));
  const out = new Uint8Array(rgba.length / 4);
  for (let i = 0; i < out.length; i++) {
    const r = rgba[i * 4];
    const g = rgba[i * 4 + 1];
    const b = rgba[i * 4 + 2];
    const grey = isGrey(r, g, b);
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    for (let p = 0; p < palette.length; p++) {
      if (grey && !greys[p]) continue;
      const [pr, pg, pb] = palette[p];
      const d = WR * (r - pr) ** 2 + WG * (g - pg) ** 2 + WB * (b - pb) ** 2;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    out[i] = best;
  }
  return out;
}
