/**
 * One point of a glyph's contour, as the rasteriser takes it: on the curve, or the control point
 * of a quadratic curve (TrueType's convention; CFF's cubics are converted to it, cff.ts). Its own
 * file so that the font readers (font.ts, cff.ts) share it without importing each other.
 */
export interface OutlinePoint {
  readonly x: number;
  readonly y: number;
  readonly on: boolean;
}
