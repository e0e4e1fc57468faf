import { TAG_MODELS, type TagColourType, type TagModel } from '@esl/contract';
import { COLOUR_SETS } from '@esl/labels';
import { CAP, type OeplTagType } from './types';

/**
 * A tag model the platform does not have in its catalogue, described from what the AP says of the
 * tag type (the proposed `models` message, apps/bridge/README.md): learned, never shipped.
 */
export interface LearnedModel {
  /** `oepl-XX`: the AP's hwType in hex. */
  key: string;
  name: string;
  /** The type's canvas, pixels. */
  w: number;
  h: number;
  /** The colour table's names in pixel-index order. */
  colours: string[];
  /** Our colour type when the colours are one of our ink sets, else null (cannot be drawn). */
  colourType: TagColourType | null;
  rotatebuffer: number;
  led: boolean;
  button: boolean;
  nfc: boolean;
  /** Where it came from: the AP and the type file's version. */
  source: string;
}

/** What the bridge knows of one hwType: the catalogue model, or the learned description. */
export interface TypeMapping {
  hwType: number;
  type: OeplTagType;
  colourType: TagColourType | null;
  /** The catalogue model when size and colours match exactly. */
  model: TagModel | null;
  learned: LearnedModel | null;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Our colour type whose inks are exactly the type's colour names (any order), if any. */
export function colourTypeOf(type: OeplTagType): TagColourType | null {
  const names = Object.keys(type.colortable).map((n) => n.toLowerCase());
  for (const [ct, inks] of Object.entries(COLOUR_SETS) as [TagColourType, readonly string[]][]) {
    if (sameSet(inks, names)) return ct;
  }
  return null;
}

/**
 * Maps an AP tag type to a tag model: the catalogue's when its size (either orientation) and
 * colours match exactly — a model whose usual colours are these first — else a learned model.
 */
export function mapTagType(hwType: number, type: OeplTagType, capabilities: number, apName: string): TypeMapping {
  const colourType = colourTypeOf(type);
  const fits = (m: TagModel) =>
    (m.w === type.width && m.h === type.height) || (m.w === type.height && m.h === type.width);
  const candidates = colourType ? TAG_MODELS.filter((m) => fits(m) && m.colours.includes(colourType)) : [];
  const model = candidates.find((m) => m.colours[0] === colourType) ?? candidates[0] ?? null;
  const hex = hwType.toString(16).toUpperCase().padStart(2, '0');
  const learned: LearnedModel | null = model
    ? null
    : {
        key: `oepl-${hex}`,
        name: type.name,
        w: type.width,
        h: type.height,
        colours: Object.keys(type.colortable),
        colourType,
        rotatebuffer: type.rotatebuffer,
        led: (capabilities & CAP.led) !== 0 || (type.options ?? []).includes('led'),
        button: (capabilities & CAP.button) !== 0 || (type.options ?? []).includes('button'),
        nfc: (capabilities & CAP.nfc) !== 0,
        source: `${apName}, tag type ${hex} v${type.version}`,
      };
  return { hwType, type, colourType, model, learned };
}
