import { parseCff } from './cff';

/**
 * A reader for OpenType font files, enough to draw labels: character to glyph (cmap formats 4
 * and 12), advance widths (hmtx), and glyph outlines as closed contours of lines and quadratic
 * curves in font units, y up. Outlines come from the glyf table of TrueType fonts (.ttf: simple
 * and composite glyphs) or from the CFF table of fonts with PostScript outlines (.otf, 'OTTO':
 * cff.ts, which turns their cubic curves into quadratics within half a font unit); CFF2 (variable
 * fonts) is refused.
 *
 * Labels draw their text from these outlines with the software rasteriser (raster.ts) in the
 * browser and on the server alike: the same file and the same arithmetic give the same pixels on
 * both sides, which two different canvas libraries do not (their text anti-aliasing differs).
 * Tables are read lazily, glyph by glyph: a 10 MB CJK font costs nothing until a glyph is drawn.
 * Shaping (ligatures, marks, joining, reordering) is the shaper's (shape.ts), from `bytes`.
 */

import type { OutlinePoint } from './outline';

export type { OutlinePoint } from './outline';

export interface Glyph {
  readonly id: number;
  /** Advance width in font units. */
  readonly advance: number;
  /** Bounding box of the outline in font units (y up); all zero for an empty glyph. */
  readonly xMin: number;
  readonly yMin: number;
  readonly xMax: number;
  readonly yMax: number;
  /** Closed contours; an empty glyph (a space) has none. */
  readonly contours: readonly (readonly OutlinePoint[])[];
}

export interface FontFile {
  /** The file itself (the shaper reads its OpenType layout tables). */
  readonly bytes: Uint8Array;
  readonly unitsPerEm: number;
  readonly numGlyphs: number;
  /** The glyph a code point maps to (0, the "missing" glyph, when the font lacks it). */
  glyphIndex(codePoint: number): number;
  glyph(id: number): Glyph;
}

interface Table {
  readonly offset: number;
  readonly length: number;
}

const MAX_COMPOSITE_DEPTH = 8;

const OTTO = 0x4f54544f;

/**
 * Parses a TrueType (.ttf, glyf outlines) or OpenType CFF (.otf) font. Throws on a damaged font
 * and on one whose outlines it does not read (CFF2, WOFF).
 */
export function parseFont(bytes: Uint8Array): FontFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565 && version !== OTTO) {
    throw new Error('not a TrueType or OpenType font file (.ttf, .otf)');
  }
  const tables = new Map<string, Table>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
    const found = { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
    if (found.offset + found.length > bytes.length) throw new Error(`the font's ${tag} table lies outside the file`);
    tables.set(tag, found);
  }
  const table = (tag: string): Table => {
    const found = tables.get(tag);
    if (!found) throw new Error(`the font has no ${tag} table`);
    return found;
  };
  const head = table('head');
  const unitsPerEm = view.getUint16(head.offset + 18);
  const numGlyphs = view.getUint16(table('maxp').offset + 4);
  const numberOfHMetrics = view.getUint16(table('hhea').offset + 34);
  const hmtx = table('hmtx').offset;
  const lookup = cmapLookup(view, table('cmap').offset);
  const outlines = version === OTTO ? cffOutlines(bytes, tables, numGlyphs) : glyfOutlines(view, table, numGlyphs);

  const advance = (id: number) => view.getUint16(hmtx + 4 * Math.min(id, numberOfHMetrics - 1));
  const cache = new Map<number, Glyph>();

  return {
    bytes,
    unitsPerEm,
    numGlyphs,
    glyphIndex: lookup,
    glyph(id: number): Glyph {
      let glyph = cache.get(id);
      if (!glyph) {
        const contours = id >= 0 && id < numGlyphs ? outlines(id) : [];
        let [xMin, yMin, xMax, yMax] = [0, 0, 0, 0];
        if (contours.length > 0) {
          // The box of the points themselves (a curve stays inside its control points), also for
          // composite glyphs whose header box may be stale.
          xMin = yMin = Number.POSITIVE_INFINITY;
          xMax = yMax = Number.NEGATIVE_INFINITY;
          for (const contour of contours) {
            for (const q of contour) {
              if (q.x < xMin) xMin = q.x;
              if (q.x > xMax) xMax = q.x;
              if (q.y < yMin) yMin = q.y;
              if (q.y > yMax) yMax = q.y;
            }
          }
        }
        glyph = { id, advance: advance(id), xMin, yMin, xMax, yMax, contours };
        cache.set(id, glyph);
      }
      return glyph;
    },
  };
}

/** The outlines of an OpenType font with PostScript outlines: its 'CFF ' table (cff.ts). */
function cffOutlines(
  bytes: Uint8Array,
  tables: ReadonlyMap<string, Table>,
  numGlyphs: number,
): (id: number) => OutlinePoint[][] {
  const cff = tables.get('CFF ');
  if (!cff) {
    if (tables.has('CFF2')) throw new Error('CFF2 outlines (variable OpenType fonts) are not supported');
    throw new Error('the font has no CFF table');
  }
  const outlines = parseCff(bytes.subarray(cff.offset, cff.offset + cff.length));
  if (outlines.numGlyphs !== numGlyphs) {
    throw new Error(`the CFF table has ${outlines.numGlyphs} glyphs, maxp ${numGlyphs}`);
  }
  return (id) => outlines.contours(id);
}

/** The outlines of a TrueType font: its glyf table, located by loca. */
function glyfOutlines(
  view: DataView,
  table: (tag: string) => Table,
  numGlyphs: number,
): (id: number) => OutlinePoint[][] {
  const longLoca = view.getInt16(table('head').offset + 50) === 1;
  const loca = table('loca').offset;
  const glyf = table('glyf').offset;
  const glyphRange = (id: number): [number, number] =>
    longLoca
      ? [view.getUint32(loca + 4 * id), view.getUint32(loca + 4 * id + 4)]
      : [view.getUint16(loca + 2 * id) * 2, view.getUint16(loca + 2 * id + 2) * 2];

  function contoursOf(id: number, depth: number): OutlinePoint[][] {
    if (id < 0 || id >= numGlyphs) return [];
    const [start, end] = glyphRange(id);
    if (end <= start) return [];
    const at = glyf + start;
    const contourCount = view.getInt16(at);
    return contourCount >= 0 ? simpleContours(view, at, contourCount) : compositeContours(at, depth);
  }

  function compositeContours(at: number, depth: number): OutlinePoint[][] {
    if (depth >= MAX_COMPOSITE_DEPTH) throw new Error('composite glyphs nest too deep');
    const out: OutlinePoint[][] = [];
    let p = at + 10;
    for (;;) {
      const flags = view.getUint16(p);
      const component = view.getUint16(p + 2);
      p += 4;
      let dx: number;
      let dy: number;
      if (flags & 0x0001) {
        dx = view.getInt16(p);
        dy = view.getInt16(p + 2);
        p += 4;
      } else {
        dx = view.getInt8(p);
        dy = view.getInt8(p + 1);
        p += 2;
      }
      // Point-matching placement (ARGS_ARE_XY_VALUES unset) is not used by the label fonts.
      if (!(flags & 0x0002)) dx = dy = 0;
      let [a, b, c, d] = [1, 0, 0, 1];
      if (flags & 0x0008) {
        a = d = view.getInt16(p) / 16384;
        p += 2;
      } else if (flags & 0x0040) {
        a = view.getInt16(p) / 16384;
        d = view.getInt16(p + 2) / 16384;
        p += 4;
      } else if (flags & 0x0080) {
        a = view.getInt16(p) / 16384;
        b = view.getInt16(p + 2) / 16384;
        c = view.getInt16(p + 4) / 16384;
        d = view.getInt16(p + 6) / 16384;
        p += 8;
      }
      for (const contour of contoursOf(component, depth + 1)) {
        out.push(contour.map((q) => ({ x: a * q.x + c * q.y + dx, y: b * q.x + d * q.y + dy, on: q.on })));
      }
      if (!(flags & 0x0020)) break;
    }
    return out;
  }

  return (id) => contoursOf(id, 0);
}

function simpleContours(view: DataView, at: number, contourCount: number): OutlinePoint[][] {
  let p = at + 10;
  const ends: number[] = [];
  for (let i = 0; i < contourCount; i++, p += 2) ends.push(view.getUint16(p));
  const points = contourCount === 0 ? 0 : ends[contourCount - 1] + 1;
  p += 2 + view.getUint16(p);
  const flags = new Uint8Array(points);
  for (let i = 0; i < points; ) {
    const flag = view.getUint8(p++);
    flags[i++] = flag;
    if (flag & 0x08) {
      let repeat = view.getUint8(p++);
      while (repeat-- > 0 && i < points) flags[i++] = flag;
    }
  }
  const xs = new Int32Array(points);
  const ys = new Int32Array(points);
  let value = 0;
  for (let i = 0; i < points; i++) {
    const flag = flags[i];
    if (flag & 0x02) {
      const delta = view.getUint8(p++);
      value += flag & 0x10 ? delta : -delta;
    } else if (!(flag & 0x10)) {
      value += view.getInt16(p);
      p += 2;
    }
    xs[i] = value;
  }
  value = 0;
  for (let i = 0; i < points; i++) {
    const flag = flags[i];
    if (flag & 0x04) {
      const delta = view.getUint8(p++);
      value += flag & 0x20 ? delta : -delta;
    } else if (!(flag & 0x20)) {
      value += view.getInt16(p);
      p += 2;
    }
    ys[i] = value;
  }
  const contours: OutlinePoint[][] = [];
  let first = 0;
  for (const last of ends) {
    const contour: OutlinePoint[] = [];
    for (let i = first; i <= last; i++) contour.push({ x: xs[i], y: ys[i], on: (flags[i] & 0x01) !== 0 });
    if (contour.length > 1) contours.push(contour);
    first = last + 1;
  }
  return contours;
}

/** The cmap subtable for Unicode: full repertoire (format 12) preferred, else the BMP (format 4). */
function cmapLookup(view: DataView, cmap: number): (codePoint: number) => number {
  const count = view.getUint16(cmap + 2);
  let format4 = -1;
  let format12 = -1;
  for (let i = 0; i < count; i++) {
    const platform = view.getUint16(cmap + 4 + 8 * i);
    const encoding = view.getUint16(cmap + 6 + 8 * i);
    const at = cmap + view.getUint32(cmap + 8 + 8 * i);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = view.getUint16(at);
    if (format === 12 && format12 < 0) format12 = at;
    if (format === 4 && format4 < 0) format4 = at;
  }
  if (format12 >= 0) {
    const groups = view.getUint32(format12 + 12);
    return (code) => {
      let lo = 0;
      let hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const at = format12 + 16 + 12 * mid;
        if (code < view.getUint32(at)) hi = mid - 1;
        else if (code > view.getUint32(at + 4)) lo = mid + 1;
        else return view.getUint32(at + 8) + code - view.getUint32(at);
      }
      return 0;
    };
  }
  if (format4 < 0) throw new Error('the font has no Unicode character map');
  const segments = view.getUint16(format4 + 6) / 2;
  const endCodes = format4 + 14;
  const startCodes = endCodes + 2 * segments + 2;
  const deltas = startCodes + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (code) => {
    if (code > 0xffff) return 0;
    let lo = 0;
    let hi = segments - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (view.getUint16(endCodes + 2 * mid) < code) lo = mid + 1;
      else hi = mid;
    }
    const start = view.getUint16(startCodes + 2 * lo);
    if (code < start || code > view.getUint16(endCodes + 2 * lo)) return 0;
    const delta = view.getUint16(deltas + 2 * lo);
    const rangeOffset = view.getUint16(rangeOffsets + 2 * lo);
    if (rangeOffset === 0) return (code + delta) & 0xffff;
    const glyph = view.getUint16(rangeOffsets + 2 * lo + rangeOffset + 2 * (code - start));
    return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
  };
}
