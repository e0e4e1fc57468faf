/** A closed range of numbers a field accepts. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/**
 * The limits of the template document schema (document.ts builds its zod schema from these), for
 * an editor's inputs to offer exactly what a save accepts. Lengths are in characters, sizes and
 * positions in pixels.
 */
export const LIMITS = {
  /** Panel pixels, width and height (the label's size). */
  panel: { min: 1, max: 4096 },
  /** Where an element's box starts; it may lie partly off the label. */
  coordinate: { min: -10_000, max: 10_000 },
  /** An element's width and height. */
  length: { min: 0, max: 10_000 },
  /** Elements in one document. */
  elements: 500,
  /** Pages of a label (docs/PAGES.md): page 1 is `elements`, the others `pages`. */
  pages: 8,
  idChars: 100,
  /** Font size in pixels (the em size), before any shrinking to fit. */
  fontSize: { min: 4, max: 1000 },
  fontFamilyChars: 100,
  /** A data key: a letter, then letters, digits or _, at most this many characters. */
  dataKeyChars: 64,
  /** Text before and after a bound value. */
  affixChars: 200,
  /** A text element's own text. */
  textChars: 2000,
  /** Lines a text element may wrap onto. */
  textLines: { min: 1, max: 20 },
  currencyChars: 8,
  /** Decimals a price shows. */
  decimals: { min: 0, max: 3 },
  /** Size of a price's currency sign and decimals relative to its integer part. */
  minorScale: { min: 0.2, max: 1 },
  barcodeChars: 200,
  qrChars: 2000,
  /** Quiet zone of a QR code, in modules. */
  qrMargin: { min: 0, max: 8 },
  /** A rectangle's border (0: none). */
  rectStroke: { min: 0, max: 100 },
  /** A line's width. */
  lineStroke: { min: 1, max: 100 },
  /** An image's data URL. */
  imageChars: 5_000_000,
} as const;

/** A data key: a letter, then letters, digits or _ (LIMITS.dataKeyChars in all). */
export const DATA_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
