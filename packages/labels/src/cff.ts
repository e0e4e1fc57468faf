import type { OutlinePoint } from './outline';

/**
 * A reader of the CFF table (version 1) of OpenType fonts with PostScript outlines ('OTTO'),
 * written from Adobe Technical Notes 5176 (the Compact Font Format) and 5177 (Type 2 charstrings).
 * It answers each glyph's outline as closed contours of on-curve points and quadratic control
 * points, in font units, y up: what font.ts gives for glyf outlines, so the rasteriser (raster.ts)
 * draws both alike.
 *
 * Cubic to quadratic: each cubic Bézier is cut into n equal parameter pieces and each piece drawn
 * as the one quadratic whose control point is (3·(P1 + P2) − (P0 + P3)) / 4. That quadratic strays
 * from its cubic piece by at most √3/36 · |P3 − 3·P2 + 3·P1 − P0| (the piece's third difference,
 * which shrinks by n³ when the curve is cut in n), so n is the least that keeps every piece within
 * CUBIC_TOLERANCE font units. n is found by comparing squares (no cube root), and the pieces by
 * + − × ÷ alone: IEEE arithmetic every JavaScript engine rounds alike, so the browser and Node
 * draw the same pixels.
 *
 * Read: the header; the Name, Top DICT, String and Global Subr INDEXes; the Top DICT's
 * CharStrings, Private and CharstringType (2 only); for CID-keyed fonts (ROS) the FDArray and
 * FDSelect (formats 0 and 3), each glyph taking its Private DICT and local subroutines from its
 * Font DICT; the Private DICT's Subrs. Widths are not read (hmtx gives them): a charstring's
 * optional width operand is only skipped.
 * Left out: FontMatrix (charstring units are taken to be the head table's font units, as they are
 * in OpenType fonts); hints (only counted, to know how many mask bytes follow hintmask and
 * cntrmask); endchar's deprecated accented-character form (seac), and the arithmetic and storage
 * operators (and, add, random, put, get, …), which refuse the glyph with an error, as unknown
 * operators and malformed data do. font.ts's callers take a throw for a damaged font.
 */

/** The most, in font units, that the quadratics drawn for a cubic curve stray from it. */
export const CUBIC_TOLERANCE = 0.5;
/** Pieces a cubic is cut in at most (only absurd coordinates need that many). */
const MAX_PIECES = 64;
/** Subroutine calls nest this deep at most (TN 5177, Appendix B). */
const MAX_SUBR_DEPTH = 10;
/** Operands on the argument stack at most (TN 5177, Appendix B). */
const MAX_STACK = 48;
/**
 * Operands and operators a glyph's charstring runs at most, subroutines included, and points its
 * outline has at most (TrueType's own limit): a damaged or hostile font whose subroutines call
 * each other over and over is refused rather than drawn for hours. Real glyphs run a few thousand.
 */
const MAX_STEPS = 1 << 18;
const MAX_POINTS = 1 << 16;

/** The outlines of a CFF table's glyphs. */
export interface CffOutlines {
  /** Glyphs in the table (its CharStrings INDEX). */
  readonly numGlyphs: number;
  /** Closed contours of a glyph; a contour's last point does not repeat its first. Throws on damaged data. */
  contours(id: number): OutlinePoint[][];
}

function broken(message: string): never {
  throw new Error(`damaged CFF table: ${message}`);
}

// Top DICT, Font DICT and Private DICT operators; an escaped operator (12 x) is 1200 + x.
const CHARSTRINGS = 17;
const PRIVATE = 18;
const SUBRS = 19;
const CHARSTRING_TYPE = 1206;
const ROS = 1230;
const FD_ARRAY = 1236;
const FD_SELECT = 1237;

/** Parses a CFF table (the bytes of an OpenType font's 'CFF ' table). */
export function parseCff(data: Uint8Array): CffOutlines {
  if (data.length < 4) broken('shorter than its header');
  if (data[0] !== 1) throw new Error(`CFF version ${data[0]} is not supported (only version 1)`);
  const names = readIndex(data, data[2], 'Name');
  if (names.count < 1) broken('it names no font');
  const topDicts = readIndex(data, names.end, 'Top DICT');
  const strings = readIndex(data, topDicts.end, 'String');
  const globalSubrs = readIndex(data, strings.end, 'Global Subr');
  const top = readDict(data, topDicts.item(0), 'Top');
  const type = top.get(CHARSTRING_TYPE)?.[0] ?? 2;
  if (type !== 2) throw new Error(`CFF charstring type ${type} is not supported (only type 2)`);
  const charStrings = readIndex(data, offsetOperand(data, top, CHARSTRINGS, 'CharStrings'), 'CharStrings');
  const localSubrsOf = top.has(ROS)
    ? fontDictSubrs(data, top, charStrings.count)
    : constant(privateSubrs(data, top, 'Private'));
  return {
    numGlyphs: charStrings.count,
    contours(id: number): OutlinePoint[][] {
      if (!(Number.isInteger(id) && id >= 0 && id < charStrings.count)) broken(`it has no glyph ${id}`);
      const program = new Charstring(data, globalSubrs, localSubrsOf(id));
      try {
        return program.run(charStrings.item(id));
      } catch (error) {
        throw new Error(`CFF glyph ${id}: ${(error as Error).message}`);
      }
    },
  };
}

function constant<T>(value: T): () => T {
  return () => value;
}

/** An INDEX: a count, then count + 1 offsets, then the items' bytes. */
interface Index {
  readonly count: number;
  /** Where the bytes after the INDEX begin. */
  readonly end: number;
  /** The byte range [start, end) of an item. */
  item(i: number): Range;
}

type Range = readonly [number, number];

function readIndex(data: Uint8Array, at: number, what: string): Index {
  if (!(at >= 0 && at + 2 <= data.length)) broken(`the ${what} INDEX lies outside the table`);
  const count = (data[at] << 8) | data[at + 1];
  if (count === 0) return { count, end: at + 2, item: () => broken(`the ${what} INDEX is empty`) };
  const offSize = data[at + 2];
  if (!(offSize >= 1 && offSize <= 4)) broken(`the ${what} INDEX has offsets of ${offSize} bytes`);
  const offsets = at + 3;
  // Offsets count from the byte before the items' data.
  const base = offsets + (count + 1) * offSize - 1;
  if (base + 1 > data.length) broken(`the ${what} INDEX's offsets lie outside the table`);
  const offset = (k: number) => {
    let value = 0;
    for (let b = 0, p = offsets + k * offSize; b < offSize; b++, p++) value = value * 256 + data[p];
    return value;
  };
  const end = base + offset(count);
  if (offset(0) !== 1 || end > data.length) broken(`the ${what} INDEX's data lies outside the table`);
  return {
    count,
    end,
    item(i: number): Range {
      if (!(i >= 0 && i < count)) broken(`the ${what} INDEX has no item ${i}`);
      const start = base + offset(i);
      const stop = base + offset(i + 1);
      if (start <= base || stop < start || stop > end) broken(`item ${i} of the ${what} INDEX has a bad offset`);
      return [start, stop];
    },
  };
}

/** A DICT's operands by operator. */
type Dict = Map<number, number[]>;

function readDict(data: Uint8Array, [start, end]: Range, what: string): Dict {
  if (!(start >= 0 && start <= end && end <= data.length)) broken(`the ${what} DICT lies outside the table`);
  const dict: Dict = new Map();
  let operands: number[] = [];
  let p = start;
  const need = (bytes: number) => {
    if (p + bytes > end) broken(`the ${what} DICT ends inside an operand`);
  };
  while (p < end) {
    const b0 = data[p++];
    if (b0 <= 21) {
      let op = b0;
      if (b0 === 12) {
        need(1);
        op = 1200 + data[p++];
      }
      dict.set(op, operands);
      operands = [];
    } else if (b0 === 28) {
      need(2);
      operands.push(((data[p] << 24) >> 16) | data[p + 1]);
      p += 2;
    } else if (b0 === 29) {
      need(4);
      operands.push((data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]);
      p += 4;
    } else if (b0 === 30) {
      const [value, next] = realOperand(data, p, end, what);
      operands.push(value);
      p = next;
    } else if (b0 >= 32 && b0 <= 246) {
      operands.push(b0 - 139);
    } else if (b0 >= 247 && b0 <= 254) {
      need(1);
      const magnitude = (b0 - (b0 <= 250 ? 247 : 251)) * 256 + data[p++] + 108;
      operands.push(b0 <= 250 ? magnitude : -magnitude);
    } else {
      broken(`the ${what} DICT holds the reserved byte ${b0}`);
    }
  }
  return dict;
}

/** A DICT's real number: nibbles of digits, '.', 'E', 'E-' and '-', ended by 0xf. */
function realOperand(data: Uint8Array, at: number, end: number, what: string): [number, number] {
  const symbols = '0123456789.EE?-';
  let text = '';
  for (let p = at; p < end; p++) {
    for (const nibble of [data[p] >> 4, data[p] & 15]) {
      if (nibble === 15) return [Number(text), p + 1];
      if (nibble === 13) broken(`the ${what} DICT holds a real number with a reserved nibble`);
      text += nibble === 12 ? 'E-' : symbols[nibble];
    }
  }
  return broken(`the ${what} DICT ends inside a real number`);
}

/** An offset (from the table's start) a DICT gives as an operator's last operand. */
function offsetOperand(data: Uint8Array, dict: Dict, op: number, what: string): number {
  const operands = dict.get(op);
  if (!operands || operands.length === 0) broken(`it gives no ${what} offset`);
  const offset = operands[operands.length - 1];
  if (!(Number.isInteger(offset) && offset >= 0 && offset < data.length)) broken(`the ${what} offset is bad`);
  return offset;
}

/** The local subroutines of a Top or Font DICT's Private DICT (its Subrs offset counts from the Private DICT). */
function privateSubrs(data: Uint8Array, dict: Dict, what: string): Index | null {
  const operands = dict.get(PRIVATE);
  if (!operands) return null;
  const [size, offset] = operands;
  const fits = operands.length === 2 && Number.isInteger(size) && Number.isInteger(offset) && size >= 0;
  if (!(fits && offset >= 0 && offset + size <= data.length)) broken(`the ${what} DICT's size or offset is bad`);
  const subrs = readDict(data, [offset, offset + size], what).get(SUBRS);
  if (!subrs) return null;
  const at = offset + (subrs[0] ?? Number.NaN);
  if (!Number.isInteger(at)) broken(`the ${what} DICT's Subrs offset is bad`);
  return readIndex(data, at, `${what} Subrs`);
}

/** A CID-keyed font's local subroutines by glyph: those of the Font DICT its FDSelect entry names. */
function fontDictSubrs(data: Uint8Array, top: Dict, numGlyphs: number): (id: number) => Index | null {
  const fdArray = readIndex(data, offsetOperand(data, top, FD_ARRAY, 'FDArray'), 'FDArray');
  const subrs: (Index | null)[] = [];
  for (let fd = 0; fd < fdArray.count; fd++) {
    subrs.push(privateSubrs(data, readDict(data, fdArray.item(fd), `Font DICT ${fd}`), `Font DICT ${fd} Private`));
  }
  const fdOf = readFdSelect(data, offsetOperand(data, top, FD_SELECT, 'FDSelect'), numGlyphs);
  for (const fd of fdOf) if (fd >= fdArray.count) broken(`FDSelect names Font DICT ${fd} of ${fdArray.count}`);
  return (id) => subrs[fdOf[id]];
}

/** FDSelect, formats 0 (a Font DICT number a glyph) and 3 (ranges of glyphs), as a number a glyph. */
function readFdSelect(data: Uint8Array, at: number, numGlyphs: number): Uint8Array {
  const fdOf = new Uint8Array(numGlyphs);
  const format = data[at];
  if (format === 0) {
    if (at + 1 + numGlyphs > data.length) broken('FDSelect lies outside the table');
    fdOf.set(data.subarray(at + 1, at + 1 + numGlyphs));
    return fdOf;
  }
  if (format !== 3) broken(`FDSelect format ${format} is not one of CFF's (0, 3)`);
  if (at + 3 > data.length) broken('FDSelect lies outside the table');
  const ranges = (data[at + 1] << 8) | data[at + 2];
  const sentinel = at + 3 + 3 * ranges;
  if (sentinel + 2 > data.length) broken('FDSelect lies outside the table');
  const first = (r: number) => (data[at + 3 + 3 * r] << 8) | data[at + 4 + 3 * r];
  const bound = (r: number) => (r === ranges ? (data[sentinel] << 8) | data[sentinel + 1] : first(r));
  if (ranges === 0 || first(0) !== 0 || bound(ranges) !== numGlyphs) {
    broken('FDSelect ranges do not cover the glyphs');
  }
  for (let r = 0; r < ranges; r++) {
    if (bound(r + 1) <= first(r)) broken('FDSelect ranges are out of order');
    fdOf.fill(data[at + 5 + 3 * r], first(r), bound(r + 1));
  }
  return fdOf;
}

/** Subroutine numbers are stored less a bias that depends on how many there are (TN 5177, 4.7). */
function subrBias(subrs: Index): number {
  if (subrs.count < 1240) return 107;
  if (subrs.count < 33900) return 1131;
  return 32768;
}

// Type 2 charstring operators; an escaped operator (12 x) is 1200 + x.
const HSTEM = 1;
const VSTEM = 3;
const VMOVETO = 4;
const RLINETO = 5;
const HLINETO = 6;
const VLINETO = 7;
const RRCURVETO = 8;
const CALLSUBR = 10;
const RETURN = 11;
const ENDCHAR = 14;
const HSTEMHM = 18;
const HINTMASK = 19;
const CNTRMASK = 20;
const RMOVETO = 21;
const HMOVETO = 22;
const VSTEMHM = 23;
const RCURVELINE = 24;
const RLINECURVE = 25;
const VVCURVETO = 26;
const HHCURVETO = 27;
const CALLGSUBR = 29;
const VHCURVETO = 30;
const HVCURVETO = 31;
const DOTSECTION = 1200;
const HFLEX = 1234;
const FLEX = 1235;
const HFLEX1 = 1236;
const FLEX1 = 1237;
/** and or not abs add sub div neg eq drop put get ifelse random mul sqrt dup exch index roll. */
const ARITHMETIC = new Set(
  [3, 4, 5, 9, 10, 11, 12, 14, 15, 18, 20, 21, 22, 23, 24, 26, 27, 28, 29, 30].map((x) => 1200 + x),
);

/** One glyph's charstring run: the argument stack, the hints counted, and the outline drawn. */
class Charstring {
  private readonly stack: number[] = [];
  private stems = 0;
  private steps = 0;
  /** Whether the first stack-clearing operator, the one a width may precede, has been met. */
  private widthDone = false;
  private readonly path = new Path();

  constructor(
    private readonly data: Uint8Array,
    private readonly globalSubrs: Index,
    private readonly localSubrs: Index | null,
  ) {}

  run(range: Range): OutlinePoint[][] {
    if (!this.execute(range, 0)) throw new Error('the charstring ends without endchar');
    return this.path.contours;
  }

  /** Runs a charstring or subroutine; true once endchar ends the glyph, false on return. */
  private execute([start, end]: Range, depth: number): boolean {
    const data = this.data;
    let p = start;
    const need = (bytes: number) => {
      if (p + bytes > end) throw new Error('a charstring ends inside an operand');
    };
    while (p < end) {
      if (++this.steps > MAX_STEPS) throw new Error(`the charstring runs past ${MAX_STEPS} steps`);
      const b0 = data[p++];
      if (b0 >= 32 || b0 === 28) {
        let value: number;
        if (b0 === 28) {
          need(2);
          value = ((data[p] << 24) >> 16) | data[p + 1];
          p += 2;
        } else if (b0 <= 246) {
          value = b0 - 139;
        } else if (b0 <= 254) {
          need(1);
          const magnitude = (b0 - (b0 <= 250 ? 247 : 251)) * 256 + data[p++] + 108;
          value = b0 <= 250 ? magnitude : -magnitude;
        } else {
          // 16.16 fixed point.
          need(4);
          value = ((data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]) / 65536;
          p += 4;
        }
        if (this.stack.length >= MAX_STACK) throw new Error(`more than ${MAX_STACK} operands on the stack`);
        this.stack.push(value);
        continue;
      }
      let op = b0;
      if (b0 === 12) {
        need(1);
        op = 1200 + data[p++];
      }
      if (op === CALLSUBR || op === CALLGSUBR) {
        if (this.call(op === CALLSUBR ? this.localSubrs : this.globalSubrs, depth)) return true;
      } else if (op === RETURN) {
        if (depth === 0) throw new Error('return outside a subroutine');
        return false;
      } else if (op === ENDCHAR) {
        this.endchar();
        return true;
      } else if (op === HINTMASK || op === CNTRMASK) {
        // Stems given just before the mask are vstems; the mask has a bit a stem.
        if (this.stack.length > 0) this.hints();
        this.widthDone = true;
        p += (this.stems + 7) >> 3;
        if (p > end) throw new Error('a charstring ends inside a hint mask');
      } else {
        this.operator(op);
        this.stack.length = 0;
      }
    }
    if (depth === 0) return false;
    throw new Error('a subroutine ends without return or endchar');
  }

  private call(subrs: Index | null, depth: number): boolean {
    const operand = this.stack.pop();
    if (operand === undefined) throw new Error('a subroutine call without its number');
    if (depth + 1 > MAX_SUBR_DEPTH) throw new Error(`subroutines nest deeper than ${MAX_SUBR_DEPTH}`);
    const count = subrs?.count ?? 0;
    const index = operand + (subrs ? subrBias(subrs) : 0);
    if (!subrs || !(Number.isInteger(index) && index >= 0 && index < count)) {
      throw new Error(`subroutine ${operand} is out of range (${count} subroutines)`);
    }
    return this.execute(subrs.item(index), depth + 1);
  }

  private endchar(): void {
    this.takeWidth(this.stack.length === 1 || this.stack.length === 5);
    if (this.stack.length === 4) throw new Error("endchar's accented-character form (seac) is not supported");
    if (this.stack.length !== 0) throw new Error('endchar with operands');
    this.path.close();
  }

  /** Drops the width operand, which only the first stack-clearing operator may have, when `present`. */
  private takeWidth(present: boolean): void {
    if (this.widthDone) return;
    this.widthDone = true;
    if (present) this.stack.shift();
  }

  /** Stem hints are not drawn, only counted: hintmask and cntrmask have a bit per stem. */
  private hints(): void {
    this.takeWidth(this.stack.length % 2 === 1);
    if (this.stack.length % 2 !== 0) throw new Error('stem hints take pairs of operands');
    this.stems += this.stack.length / 2;
    this.stack.length = 0;
  }

  private operator(op: number): void {
    const s = this.stack;
    const path = this.path;
    const expect = (ok: boolean) => {
      if (!ok) throw new Error(`operator ${operatorName(op)} with ${s.length} operands`);
    };
    switch (op) {
      case HSTEM:
      case VSTEM:
      case HSTEMHM:
      case VSTEMHM:
        this.hints();
        return;
      case RMOVETO:
        this.takeWidth(s.length > 2);
        expect(s.length === 2);
        path.moveBy(s[0], s[1]);
        return;
      case HMOVETO:
      case VMOVETO:
        this.takeWidth(s.length > 1);
        expect(s.length === 1);
        path.moveBy(op === HMOVETO ? s[0] : 0, op === VMOVETO ? s[0] : 0);
        return;
      case RLINETO:
        expect(s.length >= 2 && s.length % 2 === 0);
        for (let i = 0; i < s.length; i += 2) path.lineBy(s[i], s[i + 1]);
        return;
      case HLINETO:
      case VLINETO:
        // Alternating horizontal and vertical lines.
        expect(s.length >= 1);
        for (let i = 0; i < s.length; i++) {
          if ((i % 2 === 0) === (op === HLINETO)) path.lineBy(s[i], 0);
          else path.lineBy(0, s[i]);
        }
        return;
      case RRCURVETO:
        expect(s.length >= 6 && s.length % 6 === 0);
        for (let i = 0; i < s.length; i += 6) path.curveBy(s[i], s[i + 1], s[i + 2], s[i + 3], s[i + 4], s[i + 5]);
        return;
      case HHCURVETO:
      case VVCURVETO:
        this.parallelCurves(op === HHCURVETO, expect);
        return;
      case HVCURVETO:
      case VHCURVETO:
        this.alternatingCurves(op === HVCURVETO, expect);
        return;
      case RCURVELINE: {
        expect(s.length >= 8 && (s.length - 2) % 6 === 0);
        const line = s.length - 2;
        for (let i = 0; i < line; i += 6) path.curveBy(s[i], s[i + 1], s[i + 2], s[i + 3], s[i + 4], s[i + 5]);
        path.lineBy(s[line], s[line + 1]);
        return;
      }
      case RLINECURVE: {
        expect(s.length >= 8 && s.length % 2 === 0);
        const curve = s.length - 6;
        for (let i = 0; i < curve; i += 2) path.lineBy(s[i], s[i + 1]);
        path.curveBy(s[curve], s[curve + 1], s[curve + 2], s[curve + 3], s[curve + 4], s[curve + 5]);
        return;
      }
      case FLEX:
      case HFLEX:
      case HFLEX1:
      case FLEX1:
        this.flex(op, expect);
        return;
      case DOTSECTION:
        // Deprecated, a no-op in Type 2 charstrings.
        return;
      default:
        if (ARITHMETIC.has(op)) throw new Error(`the arithmetic operator ${operatorName(op)} is not supported`);
        throw new Error(`unknown charstring operator ${operatorName(op)}`);
    }
  }

  /** hhcurveto and vvcurveto: curves that start and end horizontal (vertical), the first may start aslant. */
  private parallelCurves(horizontal: boolean, expect: (ok: boolean) => void): void {
    const s = this.stack;
    expect(s.length >= 4 && s.length % 4 <= 1);
    let slant = s.length % 4 === 1 ? s[0] : 0;
    for (let i = s.length % 4; i < s.length; i += 4) {
      if (horizontal) this.path.curveBy(s[i], slant, s[i + 1], s[i + 2], s[i + 3], 0);
      else this.path.curveBy(slant, s[i], s[i + 1], s[i + 2], 0, s[i + 3]);
      slant = 0;
    }
  }

  /** hvcurveto and vhcurveto: curves alternately starting horizontal and vertical, the last may end aslant. */
  private alternatingCurves(horizontal: boolean, expect: (ok: boolean) => void): void {
    const s = this.stack;
    expect(s.length >= 4 && s.length % 4 <= 1);
    for (let i = 0; i + 4 <= s.length; i += 4) {
      const last = i + 5 === s.length ? s[i + 4] : 0;
      if (horizontal) this.path.curveBy(s[i], 0, s[i + 1], s[i + 2], last, s[i + 3]);
      else this.path.curveBy(0, s[i], s[i + 1], s[i + 2], s[i + 3], last);
      horizontal = !horizontal;
    }
  }

  /** The flex operators: two curves each (drawn as curves: the flex depth only matters to hinting). */
  private flex(op: number, expect: (ok: boolean) => void): void {
    const s = this.stack;
    const path = this.path;
    if (op === FLEX) {
      expect(s.length === 13);
      path.curveBy(s[0], s[1], s[2], s[3], s[4], s[5]);
      path.curveBy(s[6], s[7], s[8], s[9], s[10], s[11]);
    } else if (op === HFLEX) {
      expect(s.length === 7);
      path.curveBy(s[0], 0, s[1], s[2], s[3], 0);
      path.curveBy(s[4], 0, s[5], -s[2], s[6], 0);
    } else if (op === HFLEX1) {
      expect(s.length === 9);
      path.curveBy(s[0], s[1], s[2], s[3], s[4], 0);
      path.curveBy(s[5], 0, s[6], s[7], s[8], -(s[1] + s[3] + s[7]));
    } else {
      expect(s.length === 11);
      const dx = s[0] + s[2] + s[4] + s[6] + s[8];
      const dy = s[1] + s[3] + s[5] + s[7] + s[9];
      // The last operand is the end's x when the flex runs more across than up, else its y.
      const [lastX, lastY] = Math.abs(dx) > Math.abs(dy) ? [s[10], -dy] : [-dx, s[10]];
      path.curveBy(s[0], s[1], s[2], s[3], s[4], s[5]);
      path.curveBy(s[6], s[7], s[8], s[9], lastX, lastY);
    }
  }
}

function operatorName(op: number): string {
  return op >= 1200 ? `12 ${op - 1200}` : String(op);
}

/** The contours a charstring draws, from relative moves, lines and cubic curves. */
class Path {
  readonly contours: OutlinePoint[][] = [];
  private contour: OutlinePoint[] | null = null;
  private x = 0;
  private y = 0;
  /** Points of the contours closed before the open one. */
  private closed = 0;

  /** Starts a contour (closing the one before). */
  moveBy(dx: number, dy: number): void {
    this.close();
    this.x += dx;
    this.y += dy;
    this.contour = [{ x: this.x, y: this.y, on: true }];
  }

  /** The open contour, to draw on; throws when the outline would pass MAX_POINTS. */
  private open(): OutlinePoint[] {
    const contour = this.contour;
    if (!contour) throw new Error('a line or curve before the first moveto');
    if (this.closed + contour.length > MAX_POINTS) throw new Error(`the outline has more than ${MAX_POINTS} points`);
    return contour;
  }

  lineBy(dx: number, dy: number): void {
    const contour = this.open();
    this.x += dx;
    this.y += dy;
    contour.push({ x: this.x, y: this.y, on: true });
  }

  curveBy(dx1: number, dy1: number, dx2: number, dy2: number, dx3: number, dy3: number): void {
    const contour = this.open();
    const [x0, y0] = [this.x, this.y];
    const [x1, y1] = [x0 + dx1, y0 + dy1];
    const [x2, y2] = [x1 + dx2, y1 + dy2];
    [this.x, this.y] = [x2 + dx3, y2 + dy3];
    cubicToQuadratics(x0, y0, x1, y1, x2, y2, this.x, this.y, contour);
  }

  /** Ends the open contour: the rasteriser closes it back to its first point, so an end there is dropped. */
  close(): void {
    const contour = this.contour;
    this.contour = null;
    if (!contour) return;
    const [first, last] = [contour[0], contour[contour.length - 1]];
    if (contour.length > 1 && last.on && last.x === first.x && last.y === first.y) contour.pop();
    if (contour.length > 1) {
      this.contours.push(contour);
      this.closed += contour.length;
    }
  }
}

/**
 * Appends a cubic Bézier from (x0, y0) (already in `out`) to (x3, y3) as quadratic pieces: a control
 * point and an on-curve end each, within CUBIC_TOLERANCE font units of the cubic (see the file's comment).
 */
export function cubicToQuadratics(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
  out: OutlinePoint[],
): void {
  const n = cubicPieces(x3 - 3 * x2 + 3 * x1 - x0, y3 - 3 * y2 + 3 * y1 - y0);
  const h = 1 / n;
  let [ax, ay] = [x0, y0];
  let [adx, ady] = [3 * (x1 - x0), 3 * (y1 - y0)];
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    // The point and derivative of the cubic at t, in Bernstein form; the last end is the cubic's own.
    const [bx, by] =
      i === n
        ? [x3, y3]
        : [
            u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
            u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
          ];
    const bdx = 3 * (u * u * (x1 - x0) + 2 * u * t * (x2 - x1) + t * t * (x3 - x2));
    const bdy = 3 * (u * u * (y1 - y0) + 2 * u * t * (y2 - y1) + t * t * (y3 - y2));
    // The piece's cubic controls are a + h/3·a' and b − h/3·b'; (3·(c1 + c2) − (a + b)) / 4 is then:
    out.push({ x: (ax + bx) / 2 + (h * (adx - bdx)) / 4, y: (ay + by) / 2 + (h * (ady - bdy)) / 4, on: false });
    out.push({ x: bx, y: by, on: true });
    [ax, ay, adx, ady] = [bx, by, bdx, bdy];
  }
}

/**
 * The fewest equal pieces whose quadratics stay within the tolerance: with (dx, dy) the cubic's
 * third difference, the least n with √3/36 · |d| / n³ ≤ tolerance, i.e. 3·|d|² ≤ 1296 · tolerance² · n⁶.
 */
export function cubicPieces(dx: number, dy: number): number {
  const d2 = dx * dx + dy * dy;
  const limit = 432 * CUBIC_TOLERANCE * CUBIC_TOLERANCE;
  let n = 1;
  // n³ squared: exact integers, no pow.
  while (n < MAX_PIECES && d2 > limit * (n * n * n) * (n * n * n)) n++;
  return n;
}
