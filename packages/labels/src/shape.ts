import type { FontFile } from './font';
import { glyphOf } from './scripts';

/**
 * Text shaping for the label rasteriser: bidirectional ordering (here) and glyph shaping by
 * HarfBuzz (its WebAssembly build, the npm package harfbuzzjs, which runs the same in the browser
 * and in Node, so the editor and the tag still agree to the pixel).
 *
 * Every text is shaped (kerning and ligatures in Latin, Greek and Cyrillic; marks, joining,
 * reordering and bidi in the complex scripts) except one made only of characters HarfBuzz draws
 * exactly as the plain path does in the label fonts: Han ideographs, Hangul syllables, digits,
 * spaces and the punctuation of prices and Chinese names. Those keep the plain path, one glyph per
 * character placed by its advance, so a Chinese store's labels cost no more to draw
 * (docs/LABELS.md "Fonts, scripts and shaping", where the check that found them is described).
 */

/** One shaped glyph, in font units of its face, in visual order. */
export interface ShapedGlyph {
  readonly glyph: number;
  readonly xAdvance: number;
  readonly xOffset: number;
  readonly yOffset: number;
}

/** Shapes one run of text in one face and one direction; glyphs come back left to right. */
export interface Shaper {
  shape(face: FontFile, text: string, rtl: boolean): ShapedGlyph[];
}

/**
 * Characters below U+3000 that HarfBuzz, with default features, places exactly as the plain path
 * in Noto Sans SC (regular and bold): with each other and next to any Han ideograph, no kerning,
 * no ligature, no substitution. Checked pair by pair (docs/LABELS.md); "—" is not among them ("——"
 * is a ligature), nor the ASCII quotes and "*" (kerned after "." and ",").
 */
const PLAIN = new Set(Array.from('0123456789 .,:;-/%¥$€£+×·‘’“”…', (c) => c.charCodeAt(0)));
/** The CJK punctuation (U+3000–U+303F, full-width forms) found plain by the same check. */
const PLAIN_CJK = new Set(Array.from('\u3000、。《》「」【】（），：；！？～', (c) => c.charCodeAt(0)));

/**
 * Whether a text is drawn through the shaper: any text with a character outside the plain set
 * (Latin letters are kerned and ligated; kana kern against full-width punctuation; complex scripts
 * need it). Han ideographs (BMP), Hangul syllables, digits, spaces and PLAIN punctuation alone
 * give HarfBuzz's own output on the plain path, which is cheaper.
 */
export function needsShaping(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x3000 ? !PLAIN.has(c) : !plainCjk(c)) return true;
  }
  return false;
}

/** Han ideographs of the BMP (Extension A, unified, compatibility), Hangul syllables, PLAIN_CJK. */
function plainCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    PLAIN_CJK.has(c)
  );
}

type Bidi = 'L' | 'R' | 'EN' | 'N';

function isRtl(c: number): boolean {
  return (
    (c >= 0x590 && c <= 0x5ff) ||
    (c >= 0x600 && c <= 0x8ff && !(c >= 0x660 && c <= 0x669) && !(c >= 0x6f0 && c <= 0x6f9)) ||
    (c >= 0xfb1d && c <= 0xfdff) ||
    (c >= 0xfe70 && c <= 0xfeff) ||
    c === 0x200f
  );
}

/** Whether a text has a right-to-left character (else it is one left-to-right run). */
function hasRtl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x590 && isRtl(c)) return true;
  }
  return false;
}

/** A character's bidirectional class, as far as labels need it. */
function bidiClass(char: string): Bidi {
  const c = char.codePointAt(0) ?? 0;
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x660 && c <= 0x669) || (c >= 0x6f0 && c <= 0x6f9)) return 'EN';
  if (isRtl(c)) return 'R';
  // Combining marks follow their base character: neutral here, they join its run (W1).
  if ((c >= 0x300 && c <= 0x36f) || c === 0x200c || c === 0x200d) return 'N';
  if (c < 0x80) return /[A-Za-z]/.test(char) ? 'L' : 'N';
  if (c === 0x200e) return 'L';
  // Punctuation and symbols of the general blocks are neutral; letters of every other script are L.
  if ((c >= 0x2000 && c <= 0x2bff) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xff20)) return 'N';
  if ((c >= 0xa0 && c <= 0xbf) || c === 0xd7 || c === 0xf7) return 'N';
  return 'L';
}

/** A run of characters at one embedding level, in logical order. */
export interface BidiRun {
  readonly text: string;
  readonly rtl: boolean;
}

/**
 * The runs of a line in visual order (left to right), by a subset of the Unicode bidirectional
 * algorithm that covers labels' texts: the paragraph's direction from its first strong letter;
 * numbers (with the separators between their digits and the signs next to them) read left to
 * right inside right-to-left text; neutrals take the direction of the letters on both sides, or
 * the paragraph's; then runs of higher levels are reversed (rule L2). No explicit embeddings.
 */
export function bidiRuns(text: string): BidiRun[] {
  if (!hasRtl(text)) return [{ text, rtl: false }];
  const chars = Array.from(text);
  const types = chars.map(bidiClass);
  const firstStrong = types.find((t) => t === 'L' || t === 'R');
  if (firstStrong !== 'R' && !types.includes('R')) return [{ text, rtl: false }];
  const base = firstStrong === 'R' ? 1 : 0;
  // Separators between digits and signs next to them belong to the number (W4, W5).
  for (let i = 0; i < chars.length; i++) {
    if (types[i] !== 'N') continue;
    const ch = chars[i];
    if (/[.,:/]/.test(ch) && types[i - 1] === 'EN' && types[i + 1] === 'EN') types[i] = 'EN';
  }
  for (let i = 0; i < chars.length; i++) {
    if (types[i] !== 'N' || !/[%‰°+\-$€£¥₪#]/.test(chars[i])) continue;
    let j = i;
    while (j > 0 && types[j - 1] === 'N' && /[%‰°+\-$€£¥₪#]/.test(chars[j - 1])) j--;
    let k = i;
    while (k + 1 < chars.length && types[k + 1] === 'N' && /[%‰°+\-$€£¥₪#]/.test(chars[k + 1])) k++;
    if (types[j - 1] === 'EN' || types[k + 1] === 'EN') for (let m = j; m <= k; m++) types[m] = 'EN';
  }
  // A number after L letters (with no R between) is L (W7).
  let last: Bidi = base === 1 ? 'R' : 'L';
  for (let i = 0; i < types.length; i++) {
    if (types[i] === 'L' || types[i] === 'R') last = types[i];
    else if (types[i] === 'EN' && last === 'L') types[i] = 'L';
  }
  // Neutrals between two of one direction take it (numbers count as R), else the paragraph's (N1, N2).
  const strong = (t: Bidi) => (t === 'EN' ? 'R' : t);
  for (let i = 0; i < types.length; ) {
    if (types[i] !== 'N') {
      i++;
      continue;
    }
    let j = i;
    while (j < types.length && types[j] === 'N') j++;
    const before = i > 0 ? strong(types[i - 1]) : base === 1 ? 'R' : 'L';
    const after = j < types.length ? strong(types[j]) : base === 1 ? 'R' : 'L';
    const resolved: Bidi = before === after ? before : base === 1 ? 'R' : 'L';
    for (let m = i; m < j; m++) types[m] = resolved;
    i = j;
  }
  // Levels (I1, I2), then runs of equal level.
  const levels = types.map((t) => (base === 0 ? (t === 'L' ? 0 : t === 'R' ? 1 : 2) : t === 'R' ? 1 : 2));
  const runs: { text: string; level: number }[] = [];
  for (let i = 0; i < chars.length; i++) {
    const run = runs[runs.length - 1];
    if (run && run.level === levels[i]) run.text += chars[i];
    else runs.push({ text: chars[i], level: levels[i] });
  }
  // L2: from the highest level down to the lowest odd one, reverse every sequence at or above it.
  const highest = Math.max(...levels);
  const lowestOdd = Math.min(...levels.map((l) => (l % 2 === 1 ? l : l + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; ) {
      if (runs[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && runs[j].level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map((r) => ({ text: r.text, rtl: r.level % 2 === 1 }));
}

/** What harfbuzzjs exports that the shaper uses (the module is passed in: it loads asynchronously). */
export interface HarfBuzzModule {
  Blob: new (data: ArrayBuffer | Uint8Array) => unknown;
  Face: new (blob: never, index?: number) => unknown;
  Font: new (face: never) => unknown;
  Buffer: new () => {
    reset(): void;
    addText(text: string): void;
    setDirection(direction: number): void;
    guessSegmentProperties(): void;
    getGlyphInfos(): { codepoint: number }[];
    getGlyphPositions(): { xAdvance: number; xOffset: number; yOffset: number }[];
  };
  Direction: { LTR: number; RTL: number };
  shape(font: never, buffer: never, features?: never): void;
}

/**
 * A shaper on HarfBuzz: one HarfBuzz font per face (at its units per em, so positions come back in
 * font units), default features (kerning, ligatures, mark placement, joining, reordering).
 */
export function harfBuzzShaper(hb: HarfBuzzModule): Shaper {
  const fonts = new WeakMap<FontFile, unknown>();
  // One buffer, emptied before each text: shaping is synchronous, and a new buffer a call (freed
  // only by a finaliser) costs three times the shaping of a short line.
  let buffer: InstanceType<HarfBuzzModule['Buffer']> | null = null;
  return {
    shape(face, text, rtl) {
      let font = fonts.get(face);
      if (!font) {
        font = new hb.Font(new hb.Face(new hb.Blob(face.bytes) as never, 0) as never);
        fonts.set(face, font);
      }
      buffer ??= new hb.Buffer();
      buffer.reset();
      buffer.addText(text);
      buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
      buffer.guessSegmentProperties();
      hb.shape(font as never, buffer as never);
      const infos = buffer.getGlyphInfos();
      const positions = buffer.getGlyphPositions();
      return infos.map((info, i) => ({
        glyph: info.codepoint,
        xAdvance: positions[i].xAdvance,
        xOffset: positions[i].xOffset,
        yOffset: positions[i].yOffset,
      }));
    },
  };
}

/** A glyph of a shaped line: its face and glyph, placed in pixels from the pen's start (y up). */
export interface PlacedGlyph {
  readonly face: FontFile;
  readonly glyph: number;
  readonly x: number;
  readonly y: number;
}

export interface ShapedLine {
  readonly glyphs: readonly PlacedGlyph[];
  /** The advance of the whole line, pixels. */
  readonly width: number;
}

const MARK = /^[\p{M}\u200c\u200d]$/u;
const NEUTRAL = /^[\p{Zs}\p{P}\p{N}]$/u;

/** A character of a complex script (combining marks, RTL, Indic, Thai, Lao, jamo, joiners). */
function complex(c: number): boolean {
  return (
    (c >= 0x300 && c <= 0x36f) ||
    (c >= 0x590 && c <= 0xeff) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x1ab0 && c <= 0x1aff) ||
    (c >= 0x1dc0 && c <= 0x1dff) ||
    (c >= 0x200c && c <= 0x200f) ||
    (c >= 0xa8e0 && c <= 0xa8ff) ||
    (c >= 0xfb1d && c <= 0xfdff) ||
    (c >= 0xfe20 && c <= 0xfe2f) ||
    (c >= 0xfe70 && c <= 0xfeff)
  );
}

/**
 * A run cut where its face changes: each character from the first face that has it, except that
 * marks and joiners stay with the face before them when it has them (a mark is shaped with its
 * base), and so do spaces, punctuation and digits after a complex script's letters (an Arabic
 * phrase's spaces do not break it into pieces). Elsewhere (Latin, Hangul, Han) a space or digit
 * comes from the first face of the chain, as on the plain path.
 */
function faceSegments(faces: readonly FontFile[], text: string): { face: FontFile; text: string }[] {
  if (allIn(faces[0], text)) return [{ face: faces[0], text }];
  const segments: { face: FontFile; text: string; complex: boolean }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const current = segments[segments.length - 1];
    const sticky = MARK.test(char) || (current?.complex && NEUTRAL.test(char));
    if (current && sticky && (current.face.glyphIndex(code) !== 0 || !needsGlyphOf(code))) {
      current.text += char;
      continue;
    }
    const face = faces.find((f) => glyphOf(f, code) !== 0) ?? current?.face ?? faces[0];
    if (current && current.face === face) {
      current.text += char;
      current.complex ||= complex(code);
    } else segments.push({ face, text: char, complex: complex(code) });
  }
  return segments;
}

/** Whether a face draws every character of a text (then the text is one segment of it). */
function allIn(face: FontFile, text: string): boolean {
  for (const char of text) if (glyphOf(face, char.codePointAt(0) ?? 0) === 0) return false;
  return true;
}

/** Joiners and direction marks draw nothing; any face takes them. */
function needsGlyphOf(code: number): boolean {
  return !(code >= 0x200b && code <= 0x200f);
}

/**
 * Shapes a line of text at a size: bidirectional runs in visual order, each cut by face and shaped
 * by the shaper; glyphs placed left to right from the pen's start.
 */
export function shapeLine(shaper: Shaper, faces: readonly FontFile[], size: number, text: string): ShapedLine {
  const glyphs: PlacedGlyph[] = [];
  let pen = 0;
  for (const run of bidiRuns(text)) {
    const segments = faceSegments(faces, run.text);
    if (run.rtl) segments.reverse();
    for (const { face, text: part } of segments) {
      const s = size / face.unitsPerEm;
      for (const g of shaper.shape(face, part, run.rtl)) {
        glyphs.push({ face, glyph: g.glyph, x: pen + g.xOffset * s, y: g.yOffset * s });
        pen += g.xAdvance * s;
      }
    }
  }
  return { glyphs, width: pen };
}
