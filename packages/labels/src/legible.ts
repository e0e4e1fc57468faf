import type { TemplateDocument } from './model/document';

/**
 * The smallest text size, in pixels of the em, that reads on a tag: the catalogue's panels have
 * 110–130 dots per inch, where 12 px is an em of about 2.5 mm (digits about 1.8 mm high). Below it,
 * strokes are one pixel and counters close up once quantised to black and white.
 */
export const LEGIBLE_PX = 12;

/** A text, price or barcode's digits set below LEGIBLE_PX: flagged in the editor. */
export interface TinyText {
  readonly elementId: string;
  /** The size it is set at (for a price, its decimals' size), pixels. */
  readonly size: number;
}

/** The elements whose text is set below the legible size (a shrinking text may go smaller still). */
export function tinyTexts(doc: TemplateDocument): TinyText[] {
  const tiny: TinyText[] = [];
  for (const element of doc.elements) {
    let size: number | null = null;
    if (element.type === 'text') size = element.font.size;
    else if (element.type === 'barcode' && element.showText) size = element.font.size;
    else if (element.type === 'price') size = Math.max(1, Math.round(element.font.size * element.minorScale));
    if (size !== null && size < LEGIBLE_PX) tiny.push({ elementId: element.id, size });
  }
  return tiny;
}
