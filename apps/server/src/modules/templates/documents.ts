import { findTagModel, type TagColourType } from '@esl/contract';
import {
  COLOUR_SETS,
  ColourType,
  type Ink,
  migrate,
  type Rotation,
  TEMPLATE_VERSION,
  TemplateDocument,
  TemplateError,
} from '@esl/labels';
import { invalidField } from '../../api/errors';

export interface NewDocumentSpec {
  model?: string;
  width?: number;
  length?: number;
  colourType?: TagColourType;
  rotation: Rotation;
}

/**
 * An empty document for a new template: a catalogue model gives the size and its usual colour
 * type; otherwise width × length and the colour type asked for (black/white/red by default).
 */
export function newDocument(spec: NewDocumentSpec): TemplateDocument {
  const model = spec.model ? findTagModel(spec.model) : undefined;
  const size = model
    ? { model: model.code, w: model.w, h: model.h }
    : { model: null, w: spec.width ?? 0, h: spec.length ?? 0 };
  const colourType = spec.colourType ?? model?.colours[0] ?? 'bwr';
  return TemplateDocument.parse({ version: TEMPLATE_VERSION, size, colourType, rotation: spec.rotation });
}

type Path = (string | number)[];

/**
 * A document sent by the editor (already valid by the labels schema, checked with the call's
 * body) checked against the tag it is made for: its inks must be in its colour set, and a
 * catalogue model fixes the size and the colour types allowed. A problem answers a VALIDATION
 * error naming the field under `field` (e.g. `doc.elements.2.colour`).
 */
export function checkFit(doc: TemplateDocument, field = 'doc'): TemplateDocument {
  const problem = documentProblem(doc);
  if (problem) throw invalidField([field, ...problem].join('.'), 'invalid');
  return doc;
}

/** Where a schema-valid document does not fit its tag, or null. */
function documentProblem(doc: TemplateDocument): Path | null {
  if (doc.size.model !== null) {
    const model = findTagModel(doc.size.model);
    if (!model) return ['size', 'model'];
    if (model.w !== doc.size.w) return ['size', 'w'];
    if (model.h !== doc.size.h) return ['size', 'h'];
    if (!model.colours.includes(doc.colourType)) return ['colourType'];
  }
  const inks: readonly Ink[] = COLOUR_SETS[doc.colourType];
  if (!inks.includes(doc.background)) return ['background'];
  for (const [i, element] of doc.elements.entries()) {
    if (!inks.includes(element.colour)) return ['elements', i, 'colour'];
    if (element.fill !== null && !inks.includes(element.fill)) return ['elements', i, 'fill'];
  }
  const ids = new Set<string>();
  for (const [i, element] of doc.elements.entries()) {
    if (ids.has(element.id)) return ['elements', i, 'id'];
    ids.add(element.id);
  }
  return null;
}

export interface LoadedDocument {
  doc: TemplateDocument;
  repairs: readonly string[];
}

/**
 * A stored document, migrated to the current version and repaired where it no longer validates.
 * One that cannot be read at all (it never should: every save is checked) comes back as an empty
 * document of the row's size, with the reason among the repairs, so the editor can still open it.
 */
export function readDocument(
  text: string,
  fallback: { model: string | null; width: number; height: number; colourType: string },
): LoadedDocument {
  try {
    const { doc, repairs } = migrate(JSON.parse(text));
    return { doc, repairs };
  } catch (err) {
    if (!(err instanceof TemplateError) && !(err instanceof SyntaxError)) throw err;
    const colourType = ColourType.safeParse(fallback.colourType);
    const doc = TemplateDocument.parse({
      version: TEMPLATE_VERSION,
      size: { model: fallback.model, w: fallback.width, h: fallback.height },
      colourType: colourType.success ? colourType.data : 'bwr',
    });
    return {
      doc,
      repairs: [`the stored document could not be read (${err.message}); it was replaced by an empty one`],
    };
  }
}

/** The columns that mirror a document, so the list can filter and show sizes without parsing it. */
export function documentColumns(doc: TemplateDocument) {
  return {
    model: doc.size.model,
    width: doc.size.w,
    height: doc.size.h,
    colour_type: doc.colourType,
    rotation: doc.rotation,
    document: JSON.stringify(doc),
  };
}
