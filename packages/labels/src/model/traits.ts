import { ELEMENT_TYPES, type ElementType } from './document';
import { LIMITS, type Range } from './limits';

/**
 * What an element type offers beyond the fields every element has, kept in one place (as a
 * shape's definition keeps its behaviour together) so the editor's property panel, the renderer's
 * docs and the tests read the same answer.
 */
export interface ElementTraits {
  /** Shows a value, so it can be bound to a data key (`binding`). */
  readonly binding: boolean;
  /** Draws text in its `font`. */
  readonly font: boolean;
  /** Places its content in its box by `align` and `valign`. */
  readonly alignment: boolean;
  /** Can have a background ink (`fill`); a line has no box to fill. */
  readonly fill: boolean;
  /**
   * The numeric fields of this type and their ranges: `w` and `h` are the smallest and largest
   * box an editor offers (a line may be 0 on one axis; every other element is at least 1 pixel),
   * the rest are the schema's limits of the type's own fields.
   */
  readonly limits: Readonly<Record<string, Range>>;
}

/** A yes/no trait: a field group an element type has or not. */
export type Trait = 'binding' | 'font' | 'alignment' | 'fill';

const BOX: { w: Range; h: Range } = {
  w: { min: 1, max: LIMITS.length.max },
  h: { min: 1, max: LIMITS.length.max },
};

export const ELEMENT_TRAITS = {
  text: {
    binding: true,
    font: true,
    alignment: true,
    fill: true,
    limits: { ...BOX, lines: LIMITS.textLines },
  },
  price: {
    binding: true,
    font: true,
    alignment: true,
    fill: true,
    limits: { ...BOX, decimals: LIMITS.decimals, minorScale: LIMITS.minorScale },
  },
  barcode: { binding: true, font: true, alignment: false, fill: true, limits: { ...BOX } },
  qrcode: { binding: true, font: false, alignment: true, fill: true, limits: { ...BOX, margin: LIMITS.qrMargin } },
  rect: {
    binding: false,
    font: false,
    alignment: false,
    fill: true,
    limits: { ...BOX, strokeWidth: LIMITS.rectStroke },
  },
  line: {
    binding: false,
    font: false,
    alignment: false,
    fill: false,
    limits: {
      w: { min: 0, max: LIMITS.length.max },
      h: { min: 0, max: LIMITS.length.max },
      strokeWidth: LIMITS.lineStroke,
    },
  },
  image: { binding: true, font: false, alignment: true, fill: true, limits: { ...BOX } },
} as const satisfies Record<ElementType, ElementTraits>;

/** The element types that have a trait, in ELEMENT_TYPES order. */
export function typesWith(trait: Trait): readonly ElementType[] {
  return ELEMENT_TYPES.filter((type) => ELEMENT_TRAITS[type][trait]);
}
