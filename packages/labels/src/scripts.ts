import type { FontFile } from './font';
import { FONT_FAMILY } from './model/document';

/**
 * The fonts labels draw text with, one per group of scripts, in the order a character is looked
 * for: the element's own family first, then each of these (the fallback chain). The first is the
 * base font every label needs (Latin, Chinese, Japanese kana); the others are loaded only for a
 * text that has a character of their ranges (by the editor, per script, on demand; the server
 * reads a file the first time a label needs it). The last, Japanese, is no link of the chain but a
 * preference before the base font for a text with kana (`preferredFamilies`). Every file comes
 * from an npm package of Google's Noto fonts (SIL Open Font License 1.1: may be bundled and
 * redistributed), docs/LABELS.md "Fonts, scripts and shaping".
 */
export interface ScriptFont {
  /** Short name (tests, docs). */
  readonly key: string;
  readonly family: string;
  /** The npm package that ships the files. */
  readonly pkg: string;
  /** File names, regular (400) and bold (700), as served under /fonts/. */
  readonly regular: string;
  readonly bold: string;
  /** Code point ranges (inclusive) a text must touch for the font to be loaded; empty: always. */
  readonly ranges: readonly (readonly [number, number])[];
  /** The ranges the font draws, when wider than `ranges` (the Japanese font draws Han too); else `ranges`. */
  readonly draws?: readonly (readonly [number, number])[];
  /**
   * A preference, not a link of the fallback chain: for a text with a character of `ranges`, its
   * family comes before the base font (`preferredFamilies`), for no other text. The Japanese font:
   * a text with kana draws its Han, kana and CJK punctuation in their Japanese forms.
   */
  readonly preferred?: boolean;
}

export const SCRIPT_FONTS: readonly ScriptFont[] = [
  {
    key: 'base',
    family: FONT_FAMILY,
    pkg: '@expo-google-fonts/noto-sans-sc',
    regular: 'NotoSansSC_400Regular.ttf',
    bold: 'NotoSansSC_700Bold.ttf',
    ranges: [],
  },
  {
    key: 'latin',
    family: 'Noto Sans',
    pkg: '@expo-google-fonts/noto-sans',
    regular: 'NotoSans_400Regular.ttf',
    bold: 'NotoSans_700Bold.ttf',
    // Latin Extended, IPA, Greek, Cyrillic and their supplements (Noto Sans SC lacks some).
    ranges: [
      [0x0100, 0x052f],
      [0x1c80, 0x1c8f],
      [0x1d00, 0x1fff],
      [0x2c60, 0x2c7f],
      [0x2de0, 0x2dff],
      [0xa640, 0xa69f],
      [0xa720, 0xa7ff],
    ],
  },
  {
    key: 'korean',
    family: 'Noto Sans KR',
    pkg: '@expo-google-fonts/noto-sans-kr',
    regular: 'NotoSansKR_400Regular.ttf',
    bold: 'NotoSansKR_700Bold.ttf',
    ranges: [
      [0x1100, 0x11ff],
      [0x3130, 0x318f],
      [0xa960, 0xa97f],
      [0xac00, 0xd7ff],
    ],
  },
  {
    key: 'thai',
    family: 'Noto Sans Thai',
    pkg: '@expo-google-fonts/noto-sans-thai',
    regular: 'NotoSansThai_400Regular.ttf',
    bold: 'NotoSansThai_700Bold.ttf',
    ranges: [[0x0e00, 0x0e7f]],
  },
  {
    key: 'arabic',
    family: 'Noto Sans Arabic',
    pkg: '@expo-google-fonts/noto-sans-arabic',
    regular: 'NotoSansArabic_400Regular.ttf',
    bold: 'NotoSansArabic_700Bold.ttf',
    ranges: [
      [0x0600, 0x06ff],
      [0x0750, 0x077f],
      [0x0870, 0x08ff],
      [0xfb50, 0xfdff],
      [0xfe70, 0xfeff],
    ],
  },
  {
    key: 'hebrew',
    family: 'Noto Sans Hebrew',
    pkg: '@expo-google-fonts/noto-sans-hebrew',
    regular: 'NotoSansHebrew_400Regular.ttf',
    bold: 'NotoSansHebrew_700Bold.ttf',
    ranges: [
      [0x0590, 0x05ff],
      [0xfb1d, 0xfb4f],
    ],
  },
  {
    key: 'devanagari',
    family: 'Noto Sans Devanagari',
    pkg: '@expo-google-fonts/noto-sans-devanagari',
    regular: 'NotoSansDevanagari_400Regular.ttf',
    bold: 'NotoSansDevanagari_700Bold.ttf',
    ranges: [
      [0x0900, 0x097f],
      [0xa8e0, 0xa8ff],
    ],
  },
  {
    key: 'japanese',
    family: 'Noto Sans JP',
    pkg: '@expo-google-fonts/noto-sans-jp',
    regular: 'NotoSansJP_400Regular.ttf',
    bold: 'NotoSansJP_700Bold.ttf',
    // Kana: hiragana (with the voicing marks), katakana (with ー, not the middle dot ・ Chinese
    // uses too), its phonetic extensions, halfwidth katakana, the kana supplements.
    ranges: [
      [0x3041, 0x3096],
      [0x3099, 0x309f],
      [0x30a1, 0x30fa],
      [0x30fc, 0x30ff],
      [0x31f0, 0x31ff],
      [0xff66, 0xff9f],
      [0x1b000, 0x1b16f],
    ],
    // What a Japanese text draws in it: kana, Han (radicals, BMP and beyond), CJK symbols and
    // punctuation, enclosed and compatibility forms, full-width forms. Latin and digits stay the base font's.
    draws: [
      [0x2e80, 0x2fdf],
      [0x3000, 0x30ff],
      [0x31f0, 0x31ff],
      [0x3200, 0x4dbf],
      [0x4e00, 0x9fff],
      [0xf900, 0xfaff],
      [0xff00, 0xffef],
      [0x1b000, 0x1b16f],
      [0x20000, 0x3134f],
    ],
    preferred: true,
  },
];

/** The fallback chain's families, in order (FontLibrary's `order`): not the preferred ones. */
export const FALLBACK_ORDER: readonly string[] = SCRIPT_FONTS.filter((f) => !f.preferred).map((f) => f.family);

const PREFERRED = SCRIPT_FONTS.filter((f) => f.preferred);

/** Whether a code point lies in a script font's ranges (those that make a text load it). */
function inRanges(font: ScriptFont, code: number): boolean {
  for (const [lo, hi] of font.ranges) if (code >= lo && code <= hi) return true;
  return false;
}

/** Whether a script font draws a code point (its `draws`, else its `ranges`). */
function drawsCode(font: ScriptFont, code: number): boolean {
  for (const [lo, hi] of font.draws ?? font.ranges) if (code >= lo && code <= hi) return true;
  return false;
}

/**
 * The families a text prefers before the base font, in SCRIPT_FONTS' order: Noto Sans JP for a
 * text with kana, none for any other (the common case: an empty list, the same array each time).
 * The renderer puts them in the element's font list for the whole text (every line of it, and the
 * ellipsis), so the editor and the server, which both load the font for such a text, draw alike.
 */
export function preferredFamilies(text: string): readonly string[] {
  let found: string[] | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Kana lie at U+3041–31FF, U+FF66–FF9F and beyond the BMP (read whole below): Latin, Han
    // and Hangul cost two comparisons a character.
    if (c < 0x3041 || (c >= 0x3200 && c < 0xd800)) continue;
    const code = text.codePointAt(i) ?? c;
    for (const font of PREFERRED) {
      if (!inRanges(font, code)) continue;
      if (!found) found = [];
      if (!found.includes(font.family)) found.push(font.family);
    }
    if (code > 0xffff) i++;
  }
  if (!found) return NONE;
  const key = found.join('\n');
  let list = preferredLists.get(key);
  if (!list) {
    list = found;
    preferredLists.set(key, list);
  }
  return list;
}

const NONE: readonly string[] = [];
/** The lists preferredFamilies gives, one object each (few: one per set of preferred fonts). */
const preferredLists = new Map<string, readonly string[]>();

const scriptOfFace = new WeakMap<FontFile, ScriptFont>();

/** Marks a face as one of a script font's (a font with ranges): it then draws only its ranges (`draws`, else `ranges`). */
export function markScriptFace(face: FontFile, script: ScriptFont): void {
  if (script.ranges.length > 0) scriptOfFace.set(face, script);
}

/**
 * The glyph a face draws a character with, 0 for none. A script font draws only the characters of
 * its ranges, the ones that make a label load it: so which face draws a character never depends
 * on which other scripts' fonts earlier labels happened to load (the server's process and the
 * editor's page load different sets over time, and must draw the same pixels).
 */
export function glyphOf(face: FontFile, code: number): number {
  const script = scriptOfFace.get(face);
  if (script && !drawsCode(script, code)) return 0;
  return face.glyphIndex(code);
}

/**
 * The script fonts texts need: the base font and each one with a character in its ranges, in
 * SCRIPT_FONTS' order (the Japanese font for a text with kana).
 */
export function scriptFontsFor(texts: Iterable<string>): ScriptFont[] {
  const needed = new Set<ScriptFont>([SCRIPT_FONTS[0]]);
  for (const text of texts) {
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      // ASCII and CJK (but kana and the Hangul jamo) are the base font's: the common case costs
      // one or two comparisons a character.
      if (code < 0x100 || (code >= 0x2e80 && code < 0xa000 && (code < 0x3040 || code > 0x31ff))) continue;
      for (const font of SCRIPT_FONTS) if (!needed.has(font) && inRanges(font, code)) needed.add(font);
    }
  }
  return SCRIPT_FONTS.filter((f) => needed.has(f));
}

/**
 * Characters that draw nothing by design and so need no glyph: controls, format characters
 * (joiners, bidi marks), variation selectors and spaces. Everything else that maps to no glyph in
 * any font of an element is a render problem (RenderProblem code 'missingGlyph').
 */
export function needsGlyph(code: number): boolean {
  if (code <= 0x20 || (code >= 0x7f && code <= 0xa0)) return false;
  if (code === 0xad || code === 0x034f || code === 0x061c || code === 0x180e) return false;
  if (code >= 0x2000 && code <= 0x200f) return false; // spaces, ZWSP, ZWNJ, ZWJ, LRM, RLM
  if (code >= 0x2028 && code <= 0x202f) return false; // separators, bidi embeddings, NNBSP
  if (code >= 0x205f && code <= 0x206f) return false; // MMSP, word joiner, invisible operators, isolates
  if (code === 0x3000 || code === 0xfeff) return false;
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef)) return false;
  return true;
}
