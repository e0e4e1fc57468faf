import { TAG_MODELS, type TagColourType, type TagModel } from '@esl/contract';
import type { LearnedModel } from '@esl/contract/protocol';
import { COLOUR_SETS } from '@esl/labels';
import { CAP, type OeplTagType } from './types';

export type { LearnedModel };

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
 * colours match exactly — a model whose usual colours are these first — else a learned model,
 * described to the server in `up/models` and named by its key in tag reports.
 */
export function mapTagType(hwType: number, type: OeplTagType, capabilities: number, apName: string): TypeMapping {
  const colourType = colourTypeOf(type);
  const fits = (m: TagModel) =>
    (m.w === type.width && m.h === type.height) || (m.w === type.height && m.h === type.width);
  const candidates = colourType ? TAG_MODELS.filter((m) => fits(m) && m.colours.includes(colourType)) : [];
  const model = candidates.find((m) => m.colours[0] === colourType) ?? candidates[0] ?? null;
  const hex = hwType.toString(16).toUpperCase().padStart(2, '0');
  // The `up/models` description (docs/PROTOCOL.md §5.13): what the AP says of the type, within
  // the protocol's bounds; colour names lower case in the panel's index order.
  const learned: LearnedModel | null = model
    ? null
    : {
        key: `oepl-${hex}`,
        name: (type.name || `OEPL type ${hex}`).slice(0, 64),
        w: type.width,
        h: type.height,
        colours: [...new Set(Object.keys(type.colortable).map((c) => c.toLowerCase().replace(/[^a-z0-9_-]/g, '')))],
        colourType,
        rotate: type.rotatebuffer & 3,
        led: (capabilities & CAP.led) !== 0 || (type.options ?? []).includes('led'),
        button: (capabilities & CAP.button) !== 0 || (type.options ?? []).includes('button'),
        nfc: (capabilities & CAP.nfc) !== 0,
        source: `${apName}, tag type ${hex} v${type.version}`.slice(0, 128),
      };
  return { hwType, type, colourType, model, learned };
}
