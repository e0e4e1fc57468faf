import type { z } from 'zod';
import { COLOUR_SETS, ColourType, INK_NAMES, Ink, inkInSet } from './colours';
import {
  DitherMode,
  ELEMENT_TYPES,
  Element,
  LabelSize,
  NfcBinding,
  Rotation,
  TEMPLATE_VERSION,
  TemplateDocument,
} from './document';
import { LIMITS } from './limits';

/** A document that cannot be loaded at all (not an object, no size, or from a newer version). */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

export interface MigrationResult {
  readonly doc: TemplateDocument;
  /** The version the input had (1 when it carried none). */
  readonly from: number;
  /** What was changed to make the document valid, one sentence each; empty when nothing was. */
  readonly repairs: readonly string[];
}

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Version 1, the first draft: size as `width`/`length` (the console's words) and the depth code `rgb`. */
function fromV1(doc: Loose): Loose {
  const { width, length, rgb, ...rest } = doc;
  const colourType: Record<number, ColourType> = { 2: 'bw', 3: 'bwr', 4: 'bwry', 7: 'seven', 99: 'seven' };
  return {
    ...rest,
    version: 2,
    size: { model: rest.model ?? null, w: width, h: length },
    colourType: typeof rgb === 'number' ? colourType[rgb] : rest.colourType,
  };
}

/** migrations[n] turns a version-n document into version n + 1. */
const migrations: Record<number, (doc: Loose) => Loose> = { 1: fromV1 };

/**
 * Loads a stored template: upgrades it from older versions, then repairs what does not validate
 * (bad element fields fall back to their defaults, unknown or broken elements are dropped, inks the
 * colour set lacks become the nearest it has, ids are made unique) and says what it repaired.
 */
export function migrate(input: unknown): MigrationResult {
  if (!isObject(input)) throw new TemplateError('a template document is a JSON object');
  const from = input.version === undefined ? 1 : input.version;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) {
    throw new TemplateError(`unknown template version ${String(from)}`);
  }
  if (from > TEMPLATE_VERSION) {
    throw new TemplateError(`template version ${from} is newer than this software (${TEMPLATE_VERSION})`);
  }
  let doc: Loose = { ...input, version: from };
  for (let v = from; v < TEMPLATE_VERSION; v++) doc = migrations[v](doc);

  const repairs: string[] = [];
  const top = repairTop(doc, repairs);
  const ids = new Set<string>();
  const elements = repairElements(doc.elements, top.colourType, repairs, ids);
  const pages = repairPages(doc.pages, top.colourType, repairs, ids);
  const parsed = TemplateDocument.safeParse({ ...top, elements, ...(pages ? { pages } : {}) });
  if (!parsed.success) throw new TemplateError(`template cannot be repaired: ${describe(parsed.error)}`);
  return { doc: parsed.data, from, repairs };
}

function repairTop(doc: Loose, repairs: string[]): Loose & { colourType: ColourType } {
  const top: Loose = { version: TEMPLATE_VERSION, size: doc.size };
  const size = LabelSize.safeParse(doc.size);
  if (!size.success) throw new TemplateError(`template size is invalid: ${describe(size.error)}`);
  const colourType = ColourType.safeParse(doc.colourType);
  if (!colourType.success) repairs.push(`colour type ${JSON.stringify(doc.colourType)} replaced by bwr`);
  const fields = { rotation: Rotation, background: Ink, dither: DitherMode, nfc: NfcBinding };
  for (const [field, schema] of Object.entries(fields)) {
    if (doc[field] === undefined) continue;
    if (schema.safeParse(doc[field]).success) top[field] = doc[field];
    else repairs.push(`${field} ${JSON.stringify(doc[field])} reset to its default`);
  }
  const resolved: ColourType = colourType.success ? colourType.data : 'bwr';
  if (typeof top.background === 'string')
    top.background = keepInk(top.background as Ink, resolved, 'background', repairs);
  return { ...top, colourType: resolved };
}

/** Pages after the first (docs/PAGES.md), each repaired like page 1; ids are unique across pages. */
function repairPages(value: unknown, colourType: ColourType, repairs: string[], ids: Set<string>) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    repairs.push('pages was not a list and was dropped');
    return undefined;
  }
  if (value.length > LIMITS.pages - 1) repairs.push(`pages after the ${LIMITS.pages}th were dropped`);
  return value.slice(0, LIMITS.pages - 1).map((page, i) => ({
    elements: repairElements(isObject(page) ? page.elements : undefined, colourType, repairs, ids, `page ${i + 2} `),
  }));
}

function repairElements(
  value: unknown,
  colourType: ColourType,
  repairs: string[],
  ids: Set<string>,
  page = '',
): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    repairs.push('elements was not a list and was emptied');
    return [];
  }
  const out: unknown[] = [];
  value.forEach((raw, index) => {
    const where = `${page}element ${index + 1}`;
    if (!isObject(raw)) {
      repairs.push(`${where} was not an object and was dropped`);
      return;
    }
    if (!ELEMENT_TYPES.includes(raw.type as Element['type'])) {
      repairs.push(`${where} has unknown type ${JSON.stringify(raw.type)} and was dropped`);
      return;
    }
    const candidate: Loose = { ...raw };
    let id = typeof candidate.id === 'string' && candidate.id.length > 0 ? candidate.id : '';
    if (id === '' || ids.has(id)) {
      let n = index + 1;
      while (ids.has(`${raw.type}-${n}`)) n++;
      const fresh = `${raw.type}-${n}`;
      repairs.push(`${where} had ${id === '' ? 'no id' : `the duplicate id ${id}`}; now ${fresh}`);
      id = fresh;
    }
    candidate.id = id;
    // Reset each failing field to its default, a few times over, before giving up on the element.
    for (let attempt = 0; attempt < 8; attempt++) {
      const parsed = Element.safeParse(candidate);
      if (parsed.success) {
        ids.add(id);
        out.push(fixInks(parsed.data, colourType, `${where} (${id})`, repairs));
        return;
      }
      const field = parsed.error.issues[0]?.path[0];
      if (typeof field !== 'string' || !(field in candidate) || ['id', 'type', 'x', 'y', 'w', 'h'].includes(field)) {
        break;
      }
      repairs.push(`${where} (${id}): ${field} was invalid and reset to its default`);
      delete candidate[field];
    }
    repairs.push(`${where} (${id}) is invalid and was dropped: ${describe(Element.safeParse(candidate).error)}`);
  });
  return out;
}

function fixInks(element: Element, colourType: ColourType, where: string, repairs: string[]): Element {
  const colour = keepInk(element.colour, colourType, `${where} colour`, repairs);
  const fill = element.fill === null ? null : keepInk(element.fill, colourType, `${where} fill`, repairs);
  return colour === element.colour && fill === element.fill ? element : { ...element, colour, fill };
}

function keepInk(ink: Ink, colourType: ColourType, what: string, repairs: string[]): Ink {
  if (!INK_NAMES.includes(ink) || COLOUR_SETS[colourType].includes(ink)) return ink;
  const replacement = inkInSet(ink, colourType);
  repairs.push(`${what} ${ink} is not in the ${colourType} set; now ${replacement}`);
  return replacement;
}

function describe(error: z.ZodError | undefined): string {
  if (!error) return 'unknown error';
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}
