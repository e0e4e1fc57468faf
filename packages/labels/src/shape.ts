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

// The explicit directional formatting characters (Unicode bidirectional algorithm, UAX #9 X1–X10):
// embeddings and overrides, closed by PDF; isolates, closed by PDI.
const LRE = 0x202a;
const RLE = 0x202b;
const PDF = 0x202c;
const LRO = 0x202d;
const RLO = 0x202e;
const LRI = 0x2066;
const RLI = 0x2067;
const FSI = 0x2068;
const PDI = 0x2069;
/** The deepest explicit embedding level (UAX #9 BD2); deeper ones overflow and are ignored. */
export const MAX_BIDI_DEPTH = 125;

/** Whitespace (class WS) and the tab (S): reset to the paragraph's level at the end of a line (L1). */
const SPACE = /^[\t\f \u2000-\u200a\u205f\u3000]$/;
/** The nine explicit formatting characters: they set levels and are never drawn. */
const EXPLICIT = /[\u202a-\u202e\u2066-\u2069]/g;

function isRtl(c: number): boolean {
  return (
    (c >= 0x590 && c <= 0x5ff) ||
    (c >= 0x600 && c <= 0x8ff && !(c >= 0x660 && c <= 0x669) && !(c >= 0x6f0 && c <= 0x6f9)) ||
    (c >= 0xfb1d && c <= 0xfdff) ||
    (c >= 0xfe70 && c <= 0xfeff) ||
    c === 0x200f
  );
}

function isInitiator(c: number): boolean {
  return c === LRI || c === RLI || c === FSI;
}

/**
 * Whether a line may have a right-to-left level: a right-to-left character, or an embedding,
 * override or isolate that opens one (an FSI only does around a right-to-left character). Else it
 * is one left-to-right run.
 */
function hasRtl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x590 && (isRtl(c) || c === RLE || c === RLO || c === RLI)) return true;
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
  // Punctuation and symbols of the general blocks are neutral (the explicit formatting characters
  // among them: isolate initiators and PDI are neutrals of their surrounding run, X9 removes the
  // others); letters of every other script are L.
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
 * The runs of a line in visual order (left to right), by the Unicode bidirectional algorithm
 * (UAX #9) as far as a one-line label needs it:
 * - the paragraph's direction from its first strong letter outside isolates (P2, P3);
 * - explicit embeddings, overrides and isolates (X1–X10): LRE, RLE, LRO, RLO closed by PDF; LRI,
 *   RLI, FSI (direction of its first strong letter) closed by PDI; levels up to MAX_BIDI_DEPTH,
 *   deeper ones counted and ignored; an unmatched PDF or PDI does nothing; an isolate is a neutral
 *   of the text around it, its content resolved on its own; the nine characters are not drawn;
 * - in each isolating run sequence: numbers (with the separators between their digits and the
 *   signs next to them) read left to right inside right-to-left text, a number after L letters is
 *   L (W4, W5, W7; no distinction of Arabic letters and numbers), neutrals take the direction of
 *   the letters on both sides, or the embedding's (N1, N2; no bracket pairs, N0);
 * - levels (I1, I2), trailing spaces at the paragraph's level (L1), then runs of higher levels are
 *   reversed (L2).
 */
export function bidiRuns(text: string): BidiRun[] {
  if (!hasRtl(text)) return [{ text: text.replace(EXPLICIT, ''), rtl: false }];
  const chars = Array.from(text);
  const codes = chars.map((c) => c.codePointAt(0) ?? 0);
  const n = chars.length;
  const types = chars.map(bidiClass);

  // Each isolate initiator's matching PDI (BD9), -1 for none; and which PDIs match one.
  const matching = new Array<number>(n).fill(-1);
  const matched = new Array<boolean>(n).fill(false);
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    if (isInitiator(codes[i])) open.push(i);
    else if (codes[i] === PDI && open.length > 0) {
      const from = open.pop() as number;
      matching[from] = i;
      matched[i] = true;
    }
  }
  /** The first strong class from `from` up to `to`, skipping isolates (P2), or null. */
  const firstStrong = (from: number, to: number): 'L' | 'R' | null => {
    for (let i = from; i < to; i++) {
      if (isInitiator(codes[i])) {
        if (matching[i] < 0) return null;
        i = matching[i];
      } else if (types[i] === 'L' || types[i] === 'R') return types[i] as 'L' | 'R';
    }
    return null;
  };
  const paragraph = firstStrong(0, n) === 'R' ? 1 : 0;

  // Explicit levels and directions (X1–X8); embeddings, overrides and PDF are then removed (X9).
  const levels = new Array<number>(n).fill(paragraph);
  const removed = new Array<boolean>(n).fill(false);
  const stack: { level: number; override: 'L' | 'R' | null; isolate: boolean }[] = [
    { level: paragraph, override: null, isolate: false },
  ];
  let overflowIsolates = 0;
  let overflowEmbeddings = 0;
  let validIsolates = 0;
  const next = (level: number, rtl: boolean) => (rtl ? (level + 1) | 1 : (level + 2) & ~1);
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    const top = stack[stack.length - 1];
    if (c === LRE || c === RLE || c === LRO || c === RLO) {
      removed[i] = true;
      const level = next(top.level, c === RLE || c === RLO);
      if (level <= MAX_BIDI_DEPTH && overflowIsolates === 0 && overflowEmbeddings === 0) {
        stack.push({ level, override: c === LRO ? 'L' : c === RLO ? 'R' : null, isolate: false });
      } else if (overflowIsolates === 0) overflowEmbeddings++;
    } else if (c === PDF) {
      removed[i] = true;
      if (overflowIsolates > 0) continue;
      if (overflowEmbeddings > 0) overflowEmbeddings--;
      else if (!top.isolate && stack.length >= 2) stack.pop();
    } else if (isInitiator(c)) {
      levels[i] = top.level;
      if (top.override) types[i] = top.override;
      const rtl = c === RLI || (c === FSI && firstStrong(i + 1, matching[i] < 0 ? n : matching[i]) === 'R');
      const level = next(top.level, rtl);
      if (level <= MAX_BIDI_DEPTH && overflowIsolates === 0 && overflowEmbeddings === 0) {
        validIsolates++;
        stack.push({ level, override: null, isolate: true });
      } else overflowIsolates++;
    } else {
      if (c === PDI) {
        if (overflowIsolates > 0) overflowIsolates--;
        else if (validIsolates > 0) {
          overflowEmbeddings = 0;
          while (!stack[stack.length - 1].isolate) stack.pop();
          stack.pop();
          validIsolates--;
        }
      }
      const now = stack[stack.length - 1];
      levels[i] = now.level;
      if (now.override) types[i] = now.override;
    }
  }

  // Level runs of the characters left (X9), chained into isolating run sequences across each
  // isolate (X10): an isolate initiator and its matching PDI are one sequence with the text around them.
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (!removed[i]) kept.push(i);
  const levelRuns: number[][] = [];
  const runOf = new Array<number>(n).fill(-1);
  for (const i of kept) {
    const last = levelRuns[levelRuns.length - 1];
    if (last && levels[last[last.length - 1]] === levels[i]) last.push(i);
    else levelRuns.push([i]);
    runOf[i] = levelRuns.length - 1;
  }
  const position = new Array<number>(n).fill(-1);
  kept.forEach((i, k) => {
    position[i] = k;
  });
  const direction = (level: number): 'L' | 'R' => (level % 2 === 1 ? 'R' : 'L');
  const inSequence = new Array<boolean>(levelRuns.length).fill(false);
  for (let r = 0; r < levelRuns.length; r++) {
    if (inSequence[r]) continue;
    const sequence = [...levelRuns[r]];
    inSequence[r] = true;
    for (;;) {
      const end = sequence[sequence.length - 1];
      const pdi = isInitiator(codes[end]) ? matching[end] : -1;
      if (pdi < 0 || inSequence[runOf[pdi]]) break;
      inSequence[runOf[pdi]] = true;
      sequence.push(...levelRuns[runOf[pdi]]);
    }
    const first = sequence[0];
    const last = sequence[sequence.length - 1];
    const level = levels[first];
    const before = position[first] > 0 ? levels[kept[position[first] - 1]] : paragraph;
    const after =
      position[last] < kept.length - 1 && !(isInitiator(codes[last]) && matching[last] < 0)
        ? levels[kept[position[last] + 1]]
        : paragraph;
    const resolved = resolveSequence(
      sequence.map((i) => chars[i]),
      sequence.map((i) => types[i]),
      level,
      direction(Math.max(level, before)),
      direction(Math.max(level, after)),
    );
    sequence.forEach((i, k) => {
      levels[i] = resolved[k];
    });
  }

  // L1: spaces and isolate formatting characters at the end of the line take the paragraph's level.
  for (let k = kept.length - 1; k >= 0; k--) {
    const i = kept[k];
    if (!(SPACE.test(chars[i]) || isInitiator(codes[i]) || codes[i] === PDI)) break;
    levels[i] = paragraph;
  }

  // Runs of equal level, without the formatting characters (never drawn).
  const runs: { text: string; level: number }[] = [];
  for (const i of kept) {
    if (isInitiator(codes[i]) || codes[i] === PDI) continue;
    const run = runs[runs.length - 1];
    if (run && run.level === levels[i]) run.text += chars[i];
    else runs.push({ text: chars[i], level: levels[i] });
  }
  if (runs.length === 0) return [{ text: '', rtl: paragraph === 1 }];
  // L2: from the highest level down to the lowest odd one, reverse every sequence at or above it.
  const all = runs.map((r) => r.level);
  const highest = Math.max(...all);
  const lowestOdd = Math.min(...all.map((l) => (l % 2 === 1 ? l : l + 1)));
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

/**
 * The levels of one isolating run sequence's characters (all at embedding level `level`; `sos`
 * and `eos` the directions at its start and end, X10): weak types (W4, W5, W7), neutrals (N1, N2),
 * then implicit levels (I1, I2).
 */
function resolveSequence(chars: string[], types: Bidi[], level: number, sos: 'L' | 'R', eos: 'L' | 'R'): number[] {
  const embedding: 'L' | 'R' = level % 2 === 1 ? 'R' : 'L';
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
  let last: Bidi = sos;
  for (let i = 0; i < types.length; i++) {
    if (types[i] === 'L' || types[i] === 'R') last = types[i];
    else if (types[i] === 'EN' && last === 'L') types[i] = 'L';
  }
  // Neutrals between two of one direction take it (numbers count as R), else the embedding's (N1, N2).
  const strong = (t: Bidi) => (t === 'EN' ? 'R' : t);
  for (let i = 0; i < types.length; ) {
    if (types[i] !== 'N') {
      i++;
      continue;
    }
    let j = i;
    while (j < types.length && types[j] === 'N') j++;
    const before = i > 0 ? strong(types[i - 1]) : sos;
    const after = j < types.length ? strong(types[j]) : eos;
    const resolved: Bidi = before === after ? before : embedding;
    for (let m = i; m < j; m++) types[m] = resolved;
    i = j;
  }
  // I1, I2.
  return types.map((t) =>
    level % 2 === 0 ? (t === 'L' ? level : t === 'R' ? level + 1 : level + 2) : t === 'R' ? level : level + 1,
  );
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
