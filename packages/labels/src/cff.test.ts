import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, test } from 'vitest';
import { CUBIC_TOLERANCE, cubicPieces, cubicToQuadratics, parseCff } from './cff';
import { type OutlinePoint, parseFont } from './font';
import { FontLibrary, SoftCanvas } from './raster';

const require = createRequire(import.meta.url);
// Inconsolata (bwip-js ships it; a devDependency of these tests): an OpenType font with CFF outlines.
const otf = new Uint8Array(readFileSync(join(dirname(require.resolve('bwip-js')), '../fonts/Inconsolata.otf')));
const view = new DataView(otf.buffer, otf.byteOffset, otf.byteLength);

/** A table of the test font (and its entry in the table directory), found here rather than by the code under test. */
function table(tag: string): { entry: number; offset: number; length: number } {
  for (let i = 0; i < view.getUint16(4); i++) {
    const entry = 12 + 16 * i;
    if (String.fromCharCode(...otf.subarray(entry, entry + 4)) === tag) {
      return { entry, offset: view.getUint32(entry + 8), length: view.getUint32(entry + 12) };
    }
  }
  throw new Error(`no ${tag}`);
}

type Box = [xMin: number, yMin: number, xMax: number, yMax: number];

/** The box of the outline itself: on-curve points and each quadratic's extremes (not its control points). */
function outlineBox(contours: readonly (readonly OutlinePoint[])[]): Box {
  const box: Box = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  const add = (x: number, y: number) => {
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  };
  for (const contour of contours) {
    const n = contour.length;
    contour.forEach((q, i) => {
      if (q.on) {
        add(q.x, q.y);
        return;
      }
      const [before, after] = [contour[(i + n - 1) % n], contour[(i + 1) % n]];
      const a = before.on ? before : { x: (before.x + q.x) / 2, y: (before.y + q.y) / 2 };
      const b = after.on ? after : { x: (after.x + q.x) / 2, y: (after.y + q.y) / 2 };
      for (const t of [(a.x - q.x) / (a.x - 2 * q.x + b.x), (a.y - q.y) / (a.y - 2 * q.y + b.y)]) {
        if (!(t > 0 && t < 1)) continue;
        const u = 1 - t;
        add(u * u * a.x + 2 * u * t * q.x + t * t * b.x, u * u * a.y + 2 * u * t * q.y + t * t * b.y);
      }
    });
  }
  return box;
}

describe('an OpenType font with CFF outlines (Inconsolata.otf)', () => {
  const font = parseFont(otf);
  const numGlyphs = view.getUint16(table('maxp').offset + 4);

  test('reads: its glyph count, its character map, and every glyph outline', () => {
    expect(numGlyphs).toBe(359);
    expect(font.numGlyphs).toBe(numGlyphs);
    const cff = table('CFF ');
    expect(parseCff(otf.subarray(cff.offset, cff.offset + cff.length)).numGlyphs).toBe(numGlyphs);
    expect(font.unitsPerEm).toBe(1000);
    for (let id = 0; id < numGlyphs; id++) expect(() => font.glyph(id), `glyph ${id}`).not.toThrow();
    for (const char of 'AZaz09@&gO') {
      const glyph = font.glyph(font.glyphIndex(char.codePointAt(0) ?? 0));
      expect(glyph.id, char).toBeGreaterThan(0);
      expect(glyph.contours.length, char).toBeGreaterThan(0);
      // A monospaced font: every advance is half an em.
      expect(glyph.advance, char).toBe(500);
    }
    expect(font.glyphIndex('A'.codePointAt(0) ?? 0)).not.toBe(font.glyphIndex('B'.codePointAt(0) ?? 0));
    expect(font.glyph(font.glyphIndex(0x20)).contours).toEqual([]);
    expect(font.glyphIndex(0x4e00)).toBe(0);
    // 'O' is two closed rings; 'i' a stem and a dot.
    expect(font.glyph(font.glyphIndex(0x4f)).contours).toHaveLength(2);
    expect(font.glyph(font.glyphIndex(0x69)).contours).toHaveLength(2);
  });

  test("every glyph's outline box is the one the font's own tables give, within a unit", () => {
    // hmtx's left side bearing is the glyph's xMin (floored by the tool that made the font); the
    // head table's box is all glyphs' together.
    const numberOfHMetrics = view.getUint16(table('hhea').offset + 34);
    const hmtx = table('hmtx').offset;
    const lsb = (id: number) =>
      id < numberOfHMetrics
        ? view.getInt16(hmtx + 4 * id + 2)
        : view.getInt16(hmtx + 4 * numberOfHMetrics + 2 * (id - numberOfHMetrics));
    const all: Box = [
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    let drawn = 0;
    for (let id = 0; id < numGlyphs; id++) {
      const glyph = font.glyph(id);
      if (glyph.contours.length === 0) continue;
      drawn++;
      const box = outlineBox(glyph.contours);
      expect(Math.abs(box[0] - lsb(id)), `glyph ${id}`).toBeLessThanOrEqual(1);
      // The glyph's box (of its points, control points too) holds the whole outline.
      expect(glyph.xMin).toBeLessThanOrEqual(box[0]);
      expect(glyph.yMin).toBeLessThanOrEqual(box[1]);
      expect(glyph.xMax).toBeGreaterThanOrEqual(box[2]);
      expect(glyph.yMax).toBeGreaterThanOrEqual(box[3]);
      for (let k = 0; k < 4; k++) all[k] = (k < 2 ? Math.min : Math.max)(all[k], box[k]);
    }
    expect(drawn).toBeGreaterThan(250);
    const head = table('head').offset;
    const headBox = [36, 38, 40, 42].map((at) => view.getInt16(head + at));
    for (let k = 0; k < 4; k++) expect(Math.abs(all[k] - headBox[k]), `head box ${k}`).toBeLessThanOrEqual(1);
  });

  GlobalFonts.register(Buffer.from(otf), 'Inconsolata by Skia');
  const library = new FontLibrary([{ family: 'Inconsolata by us', weight: 400, font }]);

  /** A glyph drawn black on white at `size` px, its pen at (x, baseline), by our rasteriser. */
  function drawOurs(char: string, size: number, w: number, h: number, x: number, baseline: number) {
    const ours = new SoftCanvas(w, h, library);
    ours.fillStyle = '#ffffff';
    ours.fillRect(0, 0, w, h);
    ours.fillStyle = '#000000';
    ours.font = `${size}px "Inconsolata by us"`;
    ours.fillText(char, x, baseline);
    return ours.data;
  }

  /** The same by Skia (@napi-rs/canvas), from the same file. */
  function drawSkia(char: string, size: number, w: number, h: number, x: number, baseline: number) {
    const skia = createCanvas(w, h).getContext('2d');
    skia.fillStyle = '#ffffff';
    skia.fillRect(0, 0, w, h);
    skia.fillStyle = '#000000';
    skia.font = `${size}px "Inconsolata by Skia"`;
    skia.fillText(char, x, baseline);
    return skia.getImageData(0, 0, w, h).data;
  }

  test('glyphs drawn by the label rasteriser cover what Skia draws of the same file (IoU ≥ 0.97)', () => {
    const [w, h] = [170, 260];
    for (const char of 'AOgS@&8Q%R{e?k$') {
      const ours = drawOurs(char, 200, w, h, 30, 200);
      const skia = drawSkia(char, 200, w, h, 30, 200);
      let both = 0;
      let either = 0;
      for (let p = 0; p < w * h * 4; p += 4) {
        // Ours is exact area coverage: ink where half a pixel or more is covered. Skia draws text
        // through a gamma table that lightens edges: a pixel half covered comes out at about a
        // third (88 of 255 on this font's straight edges), so its cut is there.
        const a = ours[p] < 128;
        const b = skia[p] < 170;
        if (a && b) both++;
        if (a || b) either++;
      }
      expect(either, char).toBeGreaterThan(1000);
      expect(both / either, char).toBeGreaterThanOrEqual(0.97);
    }
  });

  test("Skia's drawing at 1000 px (a pixel a font unit) has the outline's box, within Skia's hinting", () => {
    const [w, h, x, baseline] = [640, 1200, 70, 1000];
    for (const char of 'AOgS@Q') {
      const skia = drawSkia(char, 1000, w, h, x, baseline);
      // Each edge to a fraction of a pixel: the outermost row or column with ink, less what its
      // most covered pixel leaves uncovered.
      const ink = (col: number, row: number) => 1 - skia[(row * w + col) * 4] / 255;
      const columns = new Float64Array(w);
      const rows = new Float64Array(h);
      for (let row = 0; row < h; row++) {
        for (let col = 0; col < w; col++) {
          const v = ink(col, row);
          if (v > columns[col]) columns[col] = v;
          if (v > rows[row]) rows[row] = v;
        }
      }
      const first = (a: Float64Array) => a.findIndex((v) => v > 0);
      const last = (a: Float64Array) => a.length - 1 - [...a].reverse().findIndex((v) => v > 0);
      const [left, right, top, bottom] = [first(columns), last(columns), first(rows), last(rows)];
      const skiaBox = [
        left + 1 - columns[left] - x,
        baseline - (bottom + rows[bottom]),
        right + columns[right] - x,
        baseline - (top + 1 - rows[top]),
      ];
      const box = outlineBox(font.glyph(font.glyphIndex(char.codePointAt(0) ?? 0)).contours);
      // Skia's hinting snaps some edges to whole pixels, and its gamma lightens them: 1.5 units.
      for (let k = 0; k < 4; k++) {
        expect(Math.abs(box[k] - skiaBox[k]), `${char} edge ${k}`).toBeLessThanOrEqual(1.5);
      }
    }
  });
});

describe('cubic curves as quadratics', () => {
  /** The largest distance between a cubic and the quadratics made of it, at matching parameters. */
  function worstError(c: readonly number[]): { pieces: number; error: number } {
    const out: OutlinePoint[] = [{ x: c[0], y: c[1], on: true }];
    cubicToQuadratics(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], out);
    const pieces = (out.length - 1) / 2;
    let error = 0;
    for (let i = 0; i < pieces; i++) {
      const [a, q, b] = [out[2 * i], out[2 * i + 1], out[2 * i + 2]];
      expect([a.on, q.on, b.on]).toEqual([true, false, true]);
      for (let k = 0; k <= 50; k++) {
        const s = k / 50;
        const t = (i + s) / pieces;
        const [u, v] = [1 - t, 1 - s];
        const cx = u * u * u * c[0] + 3 * u * u * t * c[2] + 3 * u * t * t * c[4] + t * t * t * c[6];
        const cy = u * u * u * c[1] + 3 * u * u * t * c[3] + 3 * u * t * t * c[5] + t * t * t * c[7];
        const qx = v * v * a.x + 2 * v * s * q.x + s * s * b.x;
        const qy = v * v * a.y + 2 * v * s * q.y + s * s * b.y;
        error = Math.max(error, Math.hypot(cx - qx, cy - qy));
      }
    }
    expect(out[out.length - 1]).toEqual({ x: c[6], y: c[7], on: true });
    return { pieces, error };
  }

  test.each([
    ['a quarter circle of radius 500', [500, 0, 500, 276.1, 276.1, 500, 0, 500]],
    ['an S', [0, 0, 600, 0, -100, 700, 500, 700]],
    ['a loop', [0, 0, 1000, 1000, -1000, 1000, 0, 0]],
    ['a small bowl', [0, 0, 0, 40, 60, 40, 60, 0]],
    ['a straight line', [0, 0, 100, 50, 200, 100, 300, 150]],
  ])('%s: within the tolerance, in the fewest equal pieces that bound allows', (_, c) => {
    const { pieces, error } = worstError(c);
    expect(error).toBeLessThanOrEqual(CUBIC_TOLERANCE);
    // √3/36 · |third difference| / n³ bounds each piece's error: the least n that keeps it within.
    const third = Math.hypot(c[6] - 3 * c[4] + 3 * c[2] - c[0], c[7] - 3 * c[5] + 3 * c[3] - c[1]);
    const least = Math.max(1, Math.ceil(Math.cbrt((Math.sqrt(3) / 36) * (third / CUBIC_TOLERANCE)) - 1e-9));
    expect(pieces).toBe(least);
  });

  test('the bound is tight: the error reaches it, and a piece fewer would stray past the tolerance', () => {
    // From (0, 0) out and back with controls (0, 300), (0, −300): third difference (0, 1800), and
    // each piece's quadratic strays by exactly √3/36 · 1800 / n³.
    const { pieces, error } = worstError([0, 0, 0, 300, 0, -300, 0, 0]);
    expect(pieces).toBe(6);
    expect(error).toBeCloseTo(((Math.sqrt(3) / 36) * 1800) / pieces ** 3, 2);
    expect(error * (pieces / (pieces - 1)) ** 3).toBeGreaterThan(CUBIC_TOLERANCE);
    expect(cubicPieces(0, 0)).toBe(1);
    expect(cubicPieces(0, 1e12)).toBe(64);
  });
});

/** A Type 2 charstring: numbers are operands, strings operators, arrays raw bytes (hint masks). */
type Program = readonly (number | string | readonly number[])[];

const OPERATORS: Record<string, number[]> = {
  hstem: [1],
  vstem: [3],
  vmoveto: [4],
  rlineto: [5],
  hlineto: [6],
  vlineto: [7],
  rrcurveto: [8],
  callsubr: [10],
  return: [11],
  endchar: [14],
  hstemhm: [18],
  hintmask: [19],
  cntrmask: [20],
  rmoveto: [21],
  hmoveto: [22],
  vstemhm: [23],
  rcurveline: [24],
  rlinecurve: [25],
  vvcurveto: [26],
  hhcurveto: [27],
  callgsubr: [29],
  vhcurveto: [30],
  hvcurveto: [31],
  add: [12, 10],
  hflex: [12, 34],
  flex: [12, 35],
  hflex1: [12, 36],
  flex1: [12, 37],
};

/** A number in each of Type 2's encodings: one byte, two bytes (±108–1131), 28 int16, 255 16.16 fixed. */
function operand(v: number): number[] {
  if (!Number.isInteger(v)) {
    const fixed = Math.round(v * 65536) >>> 0;
    return [255, fixed >>> 24, (fixed >> 16) & 255, (fixed >> 8) & 255, fixed & 255];
  }
  if (v >= -107 && v <= 107) return [v + 139];
  if (v >= 108 && v <= 1131) return [247 + ((v - 108) >> 8), (v - 108) & 255];
  if (v >= -1131 && v <= -108) return [251 + ((-v - 108) >> 8), (-v - 108) & 255];
  return [28, (v >> 8) & 255, v & 255];
}

function charstring(program: Program): number[] {
  return program.flatMap((item) => {
    if (typeof item === 'number') return operand(item);
    if (typeof item === 'string') return OPERATORS[item];
    return [...item];
  });
}

function index(items: readonly number[][]): number[] {
  if (items.length === 0) return [0, 0];
  const out = [items.length >> 8, items.length & 255, 4];
  let offset = 1;
  for (const item of [[], ...items]) {
    offset += item.length;
    out.push(offset >>> 24, (offset >> 16) & 255, (offset >> 8) & 255, offset & 255);
  }
  return out.concat(...items);
}

/** A DICT integer of fixed size (operand 29), so offsets can be written before they are known. */
const int = (v: number) => [29, (v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];

interface TestFont {
  readonly glyphs: readonly Program[];
  readonly globalSubrs?: readonly Program[];
  /** A name-keyed font's local subroutines. */
  readonly subrs?: readonly Program[];
  /** A CID-keyed font: each Font DICT's local subroutines, and the FDSelect (its format first). */
  readonly cid?: { readonly fds: readonly (readonly Program[])[]; readonly fdSelect: readonly number[] };
  readonly charstringType?: number;
}

/** Private DICT with its local subroutines right after it (Subrs counts from the Private DICT). */
function privateDict(subrs: readonly Program[]): number[] {
  return subrs.length === 0 ? [] : [...int(6), 19, ...index(subrs.map(charstring))];
}

/** A CFF table, laid out: header, INDEXes, CharStrings, Private DICTs and subroutines, FDArray, FDSelect. */
function cffTable(font: TestFont): Uint8Array {
  const start = [1, 0, 4, 4, ...index([[0x54]])];
  const rest = [...index([]), ...index((font.globalSubrs ?? []).map(charstring))];
  const top = (charStrings: number, a: number, b: number) => [
    ...(font.charstringType === undefined ? [] : [...int(font.charstringType), 12, 6]),
    ...int(charStrings),
    17,
    ...(font.cid ? [...int(0), ...int(0), ...int(0), 12, 30, ...int(a), 12, 36, ...int(b), 12, 37] : []),
    ...(font.cid ? [] : [...int(a), ...int(b), 18]),
  ];
  const charStringsAt = start.length + index([top(0, 0, 0)]).length + rest.length;
  const charStrings = index(font.glyphs.map(charstring));
  let at = charStringsAt + charStrings.length;
  if (!font.cid) {
    const priv = privateDict(font.subrs ?? []);
    const size = priv.length === 0 ? 0 : 6;
    return Uint8Array.from([...start, ...index([top(charStringsAt, size, at)]), ...rest, ...charStrings, ...priv]);
  }
  const privates: number[] = [];
  const fontDicts: number[][] = [];
  for (const subrs of font.cid.fds) {
    const priv = privateDict(subrs);
    fontDicts.push([...int(priv.length === 0 ? 0 : 6), ...int(at + privates.length), 18]);
    privates.push(...priv);
  }
  at += privates.length;
  const fdArray = index(fontDicts);
  const fdSelectAt = at + fdArray.length;
  return Uint8Array.from([
    ...start,
    ...index([top(charStringsAt, at, fdSelectAt)]),
    ...rest,
    ...charStrings,
    ...privates,
    ...fdArray,
    ...font.cid.fdSelect,
  ]);
}

/** A glyph's contours as [x, y] of its on-curve points (curves made of lines here have no others). */
function onPoints(font: TestFont, id = 0): number[][][] {
  return parseCff(cffTable(font))
    .contours(id)
    .map((contour) => contour.filter((q) => q.on).map((q) => [q.x, q.y]));
}

const square: Program = [100, 'hlineto', 100, 'vlineto', -100, 'hlineto'];

describe('Type 2 charstrings', () => {
  test('moves, lines, the width operand, and a contour closed back on its first point', () => {
    expect(onPoints({ glyphs: [[500, 10, 20, 'rmoveto', ...square, 'endchar']] })).toEqual([
      [
        [10, 20],
        [110, 20],
        [110, 120],
        [10, 120],
      ],
    ]);
    // A width before hmoveto; two contours; a contour ended on its start loses the repeat.
    expect(
      onPoints({
        glyphs: [
          [
            300,
            5,
            'hmoveto',
            1000,
            -40,
            'rlineto',
            -1000,
            40,
            'rlineto',
            2000,
            'vmoveto',
            0.5,
            -1.5,
            'rlineto',
            'endchar',
          ],
        ],
      }),
    ).toEqual([
      [
        [5, 0],
        [1005, -40],
      ],
      [
        [5, 2000],
        [5.5, 1998.5],
      ],
    ]);
    // A width alone, and a glyph that draws nothing.
    expect(onPoints({ glyphs: [[500, 'endchar']] })).toEqual([]);
  });

  test('every curve operator ends its curves where TN 5177 says', () => {
    const curves: Program = [
      ...[0, 0, 'rmoveto'],
      ...[10, 0, 10, 10, 0, 10, 'rrcurveto'], // → (20, 20)
      ...[5, 10, 0, 10, 10, 'hhcurveto'], // dy1 first: → (40, 35)
      ...[3, 10, 0, 10, 10, 'vvcurveto'], // dx1 first: → (43, 65)
      ...[10, 10, 10, 10, 10, 10, 10, 10, 7, 'hvcurveto'], // h then v, the last ending aslant: → (63, 85), (83, 112)
      ...[10, 10, 10, 10, 'vhcurveto'], // → (103, 132)
      ...[10, 0, 10, 0, 10, 0, 5, 5, 'rcurveline'], // → (133, 132) then (138, 137)
      ...[5, 5, 10, 0, 10, 0, 10, 0, 'rlinecurve'], // → (143, 142) then (173, 142)
      ...[5, 5, 5, 5, 5, 5, 5, -5, 5, -5, 5, -5, 50, 'flex'], // → (188, 157), (203, 142)
      ...[10, 10, 5, 10, 10, 10, 10, 'hflex'], // → (233, 147), (263, 142)
      ...[10, 5, 10, 5, 10, 10, 10, -20, 10, 'hflex1'], // back to its start's y: → (293, 152), (323, 142)
      ...[10, 5, 10, 5, 10, 5, 10, 5, 10, 5, 10, 'flex1'], // more across: → (353, 157), (383, 142)
      ...[5, 10, 5, 10, 5, 10, 5, 10, 5, 10, 7, 'flex1'], // more up: → (398, 172), (383, 199)
      'endchar',
    ];
    const contour = parseCff(cffTable({ glyphs: [curves] })).contours(0)[0];
    const ends = [
      [20, 20],
      [40, 35],
      [43, 65],
      [63, 85],
      [83, 112],
      [103, 132],
      [133, 132],
      [138, 137],
      [143, 142],
      [173, 142],
      [188, 157],
      [203, 142],
      [233, 147],
      [263, 142],
      [293, 152],
      [323, 142],
      [353, 157],
      [383, 142],
      [398, 172],
      [383, 199],
    ];
    // Each end is an on-curve point, in order (a curve cut in pieces has more between them).
    const on = contour.filter((q) => q.on).map((q) => [q.x, q.y]);
    let from = 0;
    for (const end of ends) {
      const found = on.findIndex((p, i) => i >= from && p[0] === end[0] && p[1] === end[1]);
      expect(found, `end ${end}`).toBeGreaterThanOrEqual(0);
      from = found + 1;
    }
  });

  test('hint masks are skipped by the stem count, stems given just before the mask counted too', () => {
    // 5 hstems and 4 vstems (given before hintmask): 9 stems, two mask bytes. The second (2) would
    // be an unknown operator were only one skipped.
    const hinted: Program = [
      ...[500, 0, 10, 20, 10, 40, 10, 60, 10, 80, 10, 'hstemhm'],
      ...[0, 10, 20, 10, 40, 10, 60, 10, 'hintmask', [0xff, 0x02]],
      ...[0, 0, 'rmoveto', ...square, 'cntrmask', [0xff, 0x02], 'endchar'],
    ];
    expect(onPoints({ glyphs: [hinted] })).toEqual([
      [
        [0, 0],
        [100, 0],
        [100, 100],
        [0, 100],
      ],
    ]);
    expect(() => onPoints({ glyphs: [[0, 10, 'hstem', 'hintmask']] })).toThrow(/inside a hint mask/);
  });

  test('local and global subroutines, numbered less their bias', () => {
    const glyph: Program = [0, 0, 'rmoveto', -107, 'callsubr', -107, 'callgsubr', 'endchar'];
    expect(
      onPoints({
        glyphs: [glyph],
        subrs: [[100, 0, 'rlineto', 'return']],
        globalSubrs: [[0, 100, 'rlineto', 'return']],
      }),
    ).toEqual([
      [
        [0, 0],
        [100, 0],
        [100, 100],
      ],
    ]);
    // 1240 subroutines or more: the bias is 1131. The last one ends the glyph itself.
    const many: Program[] = Array.from({ length: 1240 }, () => ['return']);
    many[1239] = [50, 50, 'rlineto', 'endchar'];
    expect(onPoints({ glyphs: [[0, 0, 'rmoveto', 1239 - 1131, 'callsubr']], subrs: many })).toEqual([
      [
        [0, 0],
        [50, 50],
      ],
    ]);
  });

  test("a CID-keyed font: each glyph calls its own Font DICT's subroutines (FDSelect formats 0 and 3)", () => {
    const glyph: Program = [0, 0, 'rmoveto', -107, 'callsubr', 'endchar'];
    const fds = [[[0, 100, 'rlineto', 'return']], [[100, 0, 'rlineto', 'return']]] as const;
    for (const fdSelect of [
      [0, 0, 1, 0, 1],
      [3, 0, 4, 0, 0, 0, 0, 1, 1, 0, 2, 0, 0, 3, 1, 0, 4],
    ]) {
      const font: TestFont = { glyphs: [glyph, glyph, glyph, glyph], cid: { fds, fdSelect } };
      expect([0, 1, 2, 3].map((id) => onPoints(font, id)[0][1])).toEqual([
        [0, 100],
        [100, 0],
        [0, 100],
        [100, 0],
      ]);
    }
    const short = { glyphs: [glyph, glyph], cid: { fds, fdSelect: [3, 0, 1, 0, 0, 0, 0, 1] } };
    expect(() => onPoints(short)).toThrow(/FDSelect ranges do not cover the glyphs/);
    const unordered = { glyphs: [glyph, glyph], cid: { fds, fdSelect: [3, 0, 2, 0, 0, 0, 0, 0, 1, 0, 2] } };
    expect(() => onPoints(unordered)).toThrow(/FDSelect ranges are out of order/);
    expect(() => onPoints({ glyphs: [glyph], cid: { fds, fdSelect: [0, 2] } })).toThrow(/Font DICT 2/);
  });
});

describe('malformed CFF data throws', () => {
  const glyphThrows =
    (glyph: Program, more: Omit<TestFont, 'glyphs'> = {}) =>
    () =>
      onPoints({ ...more, glyphs: [glyph] });

  test('an unknown or unsupported operator', () => {
    expect(glyphThrows([0, 0, 'rmoveto', [2], 'endchar'])).toThrow(/CFF glyph 0: unknown charstring operator 2\b/);
    expect(glyphThrows([0, 0, 'rmoveto', [12, 99], 'endchar'])).toThrow(/unknown charstring operator 12 99/);
    expect(glyphThrows([1, 2, 'add', 'rmoveto', 'endchar'])).toThrow(/arithmetic operator 12 10 is not supported/);
    expect(glyphThrows([0, 0, 0, 65, 66, 'endchar'])).toThrow(/seac/);
    expect(glyphThrows([0, 0, 'rmoveto', 1, 2, 3, 'rlineto', 'endchar'])).toThrow(/operator 5 with 3 operands/);
  });

  test('a subroutine out of range, or nested too deep', () => {
    expect(glyphThrows([0, 0, 'rmoveto', 0, 'callsubr', 'endchar'])).toThrow(/subroutine 0 is out of range \(0 /);
    const one = { subrs: [['return']] as Program[] };
    expect(glyphThrows([-106, 'callsubr', 'endchar'], one)).toThrow(/subroutine -106 is out of range \(1 /);
    expect(glyphThrows([-107, 'callgsubr', 'endchar'], one)).toThrow(/out of range/);
    // Subroutine i calls i + 1: ten deep is allowed, eleven is not.
    const chain = (depth: number): Program[] =>
      Array.from({ length: depth }, (_, i) => (i + 1 < depth ? [i + 1 - 107, 'callsubr', 'return'] : ['return']));
    const glyph: Program = [-107, 'callsubr', 'endchar'];
    expect(glyphThrows(glyph, { subrs: chain(10) })).not.toThrow();
    expect(glyphThrows(glyph, { subrs: chain(11) })).toThrow(/nest deeper than 10/);
    expect(glyphThrows(glyph, { subrs: [[-107, 'callsubr', 'return']] })).toThrow(/nest deeper than 10/);
  });

  test('subroutines that call each other over and over, and outlines of too many points', () => {
    const repeat = (n: number, items: Program): Program => Array.from({ length: n }, () => items).flat();
    // Subroutine i calls i + 1 `n` times; the last one draws.
    const calling = (n: number, last: Program) =>
      Array.from(
        { length: 10 },
        (_, i): Program => (i < 9 ? [...repeat(n, [i + 1 - 107, 'callsubr']), 'return'] : last),
      );
    const lines = calling(20, [1, 1, 'rlineto', 'return']);
    // From the first, 20⁹ calls: stopped after 2¹⁸ steps. From the seventh, 20³ lines: drawn.
    expect(glyphThrows([0, 0, 'rmoveto', -107, 'callsubr', 'endchar'], { subrs: lines })).toThrow(/past 262144 steps/);
    expect(glyphThrows([0, 0, 'rmoveto', -107 + 6, 'callsubr', 'endchar'], { subrs: lines })).not.toThrow();
    // A curve cut in 21 pieces (42 points) 4⁶ times: few steps, too many points.
    const curves = calling(4, [0, 30000, 0, -30000, 0, 0, 'rrcurveto', 'return']);
    expect(glyphThrows([0, 0, 'rmoveto', -107 + 3, 'callsubr', 'endchar'], { subrs: curves })).toThrow(
      /more than 65536 points/,
    );
  });

  test('charstrings that break off, overflow the stack, or draw before moving', () => {
    expect(glyphThrows([0, 0, 'rmoveto'])).toThrow(/without endchar/);
    expect(glyphThrows([0, 0, 'rmoveto', [28, 1]])).toThrow(/inside an operand/);
    expect(glyphThrows([...Array.from({ length: 49 }, () => 1), 'endchar'])).toThrow(/more than 48 operands/);
    expect(glyphThrows([10, 10, 'rlineto', 'endchar'])).toThrow(/before the first moveto/);
    expect(glyphThrows(['return'])).toThrow(/return outside a subroutine/);
    expect(glyphThrows([-107, 'callsubr', 'endchar'], { subrs: [[1, 1]] })).toThrow(/without return/);
  });

  test('bad offsets, versions and charstring types', () => {
    const good = cffTable({ glyphs: [['endchar']] });
    expect(parseCff(good).numGlyphs).toBe(1);
    expect(() => parseCff(good.slice(0, good.length - 1))).toThrow(/CharStrings INDEX's data lies outside/);
    expect(() => parseCff(good.slice(0, 3))).toThrow(/shorter than its header/);
    const version2 = good.slice();
    version2[0] = 2;
    expect(() => parseCff(version2)).toThrow(/CFF version 2 is not supported/);
    expect(() => parseCff(cffTable({ glyphs: [['endchar']], charstringType: 1 }))).toThrow(/charstring type 1/);
    // The Top DICT (after the header, the Name INDEX and its own INDEX's 11 bytes) starts with the
    // CharStrings offset, a 5-byte integer: its high byte makes it point far past the table.
    const farOffset = good.slice();
    farOffset[4 + index([[0x54]]).length + 11 + 1] = 0x7f;
    expect(() => parseCff(farOffset)).toThrow(/CharStrings offset is bad/);
    expect(() => parseCff(good).contours(1)).toThrow(/no glyph 1/);
  });

  test('parseFont refuses a damaged CFF table and CFF2 fonts', () => {
    const cff = table('CFF ');
    // Zeros in the middle of the charstrings: operator 0 is no operator.
    const damaged = otf.slice();
    damaged.fill(0, cff.offset + 20000, cff.offset + 20100);
    expect(() => {
      const font = parseFont(damaged);
      for (let id = 0; id < font.numGlyphs; id++) font.glyph(id);
    }).toThrow(/CFF/);
    const cff2 = otf.slice();
    cff2[cff.entry + 3] = '2'.charCodeAt(0);
    expect(() => parseFont(cff2)).toThrow(/CFF2 outlines/);
  });
});
