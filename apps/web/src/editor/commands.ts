import {
  COLOUR_SETS,
  type ColourType,
  Element,
  type Element as ElementT,
  type Ink,
  inkInSet,
  type NfcBinding,
  type TemplateDocument,
} from '@esl/labels';
import { LIMITS } from '@esl/labels/model';
import { elementBox, type Rect, unionBox } from './geometry';

/**
 * Pure changes to a template document. Each takes a document and answers a new one (or the same
 * object when nothing changed); none of them touches history or selection, which state.ts keeps.
 */

/** A change to some fields of one element; the element's type decides which fields exist. */
export type ElementPatch = Partial<ElementT>;

type Elements = readonly ElementT[];

function withElements(doc: TemplateDocument, elements: Elements): TemplateDocument {
  return { ...doc, elements: elements as ElementT[] };
}

/** Applies a patch and validates the result; an invalid patch leaves the element as it was. */
export function patchElement(element: ElementT, patch: ElementPatch): ElementT {
  const keys = Object.keys(patch) as (keyof ElementPatch)[];
  if (keys.every((k) => Object.is(patch[k], (element as ElementPatch)[k]))) return element;
  const parsed = Element.safeParse({ ...element, ...patch, id: element.id, type: element.type });
  return parsed.success ? parsed.data : element;
}

/** The first free id of the form `<type>-<n>`. */
export function nextId(doc: TemplateDocument, type: ElementT['type']): string {
  const used = new Set(doc.elements.map((e) => e.id));
  let n = 1;
  while (used.has(`${type}-${n}`)) n++;
  return `${type}-${n}`;
}

/** Appends an element (on top of the others); refused past the schema's LIMITS.elements. */
export function addElement(doc: TemplateDocument, element: ElementT): TemplateDocument {
  if (doc.elements.length >= LIMITS.elements) return doc;
  if (doc.elements.some((e) => e.id === element.id)) return doc;
  return withElements(doc, [...doc.elements, element]);
}

/** Patches the listed elements; `patch` may be computed per element. */
export function updateElements(
  doc: TemplateDocument,
  ids: readonly string[],
  patch: ElementPatch | ((element: ElementT) => ElementPatch),
): TemplateDocument {
  const wanted = new Set(ids);
  let changed = false;
  const elements = doc.elements.map((e) => {
    if (!wanted.has(e.id)) return e;
    const next = patchElement(e, typeof patch === 'function' ? patch(e) : patch);
    if (next !== e) changed = true;
    return next;
  });
  return changed ? withElements(doc, elements) : doc;
}

export function deleteElements(doc: TemplateDocument, ids: readonly string[]): TemplateDocument {
  const gone = new Set(ids);
  const elements = doc.elements.filter((e) => !gone.has(e.id));
  return elements.length === doc.elements.length ? doc : withElements(doc, elements);
}

/** Moves elements by whole pixels. */
export function moveElements(doc: TemplateDocument, ids: readonly string[], dx: number, dy: number): TemplateDocument {
  if (dx === 0 && dy === 0) return doc;
  return updateElements(doc, ids, (e) => ({ x: Math.round(e.x + dx), y: Math.round(e.y + dy) }));
}

/**
 * The patch that puts an element's box (as elementBox measures it) at `box`. A straight line keeps
 * its direction: only its length follows the box.
 */
export function boxPatch(element: ElementT, box: Rect): ElementPatch {
  const x = Math.round(box.x);
  const y = Math.round(box.y);
  const w = Math.max(0, Math.round(box.w));
  const h = Math.max(0, Math.round(box.h));
  if (element.type === 'line' && element.h === 0) return { x, y, w };
  if (element.type === 'line' && element.w === 0) return { x, y, h };
  return { x, y, w, h };
}

/** Puts each listed element's box where the map says (drags compute boxes from where they began). */
export function setBoxes(doc: TemplateDocument, boxes: ReadonlyMap<string, Rect>): TemplateDocument {
  return updateElements(doc, [...boxes.keys()], (e) => {
    const box = boxes.get(e.id);
    return box ? boxPatch(e, box) : {};
  });
}

/** Copies elements with fresh ids, shifted by the offset, on top; answers the copies' ids. */
export function duplicateElements(
  doc: TemplateDocument,
  ids: readonly string[],
  offset = 8,
): { doc: TemplateDocument; ids: string[] } {
  const wanted = new Set(ids);
  let next = doc;
  const created: string[] = [];
  for (const e of doc.elements) {
    if (!wanted.has(e.id) || next.elements.length >= LIMITS.elements) continue;
    const id = nextId(next, e.type);
    next = addElement(next, { ...e, id, x: e.x + offset, y: e.y + offset });
    created.push(id);
  }
  return { doc: next, ids: created };
}

export type ZOrder = 'front' | 'forward' | 'backward' | 'back';

/**
 * Changes the drawing order of the listed elements (later = on top), keeping their order among
 * themselves: to the top or bottom, or one step past the next unlisted neighbour.
 */
export function reorder(doc: TemplateDocument, ids: readonly string[], where: ZOrder): TemplateDocument {
  const wanted = new Set(ids);
  const list = [...doc.elements];
  if (!list.some((e) => wanted.has(e.id))) return doc;
  let result: ElementT[];
  if (where === 'front' || where === 'back') {
    const moving = list.filter((e) => wanted.has(e.id));
    const staying = list.filter((e) => !wanted.has(e.id));
    result = where === 'front' ? [...staying, ...moving] : [...moving, ...staying];
  } else if (where === 'forward') {
    result = list;
    for (let i = result.length - 2; i >= 0; i--) {
      if (wanted.has(result[i].id) && !wanted.has(result[i + 1].id)) {
        [result[i], result[i + 1]] = [result[i + 1], result[i]];
      }
    }
  } else {
    result = list;
    for (let i = 1; i < result.length; i++) {
      if (wanted.has(result[i].id) && !wanted.has(result[i - 1].id)) {
        [result[i], result[i - 1]] = [result[i - 1], result[i]];
      }
    }
  }
  return result.every((e, i) => e === doc.elements[i]) ? doc : withElements(doc, result);
}

export type Alignment = 'left' | 'hcenter' | 'right' | 'top' | 'vcenter' | 'bottom';

/**
 * Aligns elements: several to the box around them, a single one to the label. Positions are whole
 * pixels; a centre that falls between pixels rounds down.
 */
export function alignElements(
  doc: TemplateDocument,
  ids: readonly string[],
  how: Alignment,
  label: { w: number; h: number },
): TemplateDocument {
  const chosen = doc.elements.filter((e) => ids.includes(e.id));
  if (chosen.length === 0) return doc;
  const frame = chosen.length === 1 ? { x: 0, y: 0, ...label } : unionBox(chosen.map(elementBox));
  if (!frame) return doc;
  return updateElements(doc, ids, (e) => {
    const b = elementBox(e);
    switch (how) {
      case 'left':
        return { x: frame.x };
      case 'hcenter':
        return { x: Math.floor(frame.x + (frame.w - b.w) / 2) };
      case 'right':
        return { x: frame.x + frame.w - b.w };
      case 'top':
        return { y: frame.y };
      case 'vcenter':
        return { y: Math.floor(frame.y + (frame.h - b.h) / 2) };
      case 'bottom':
        return { y: frame.y + frame.h - b.h };
    }
  });
}

/** Spaces three or more elements evenly between the outermost two, along one axis. */
export function distributeElements(doc: TemplateDocument, ids: readonly string[], axis: 'x' | 'y'): TemplateDocument {
  const chosen = doc.elements.filter((e) => ids.includes(e.id));
  if (chosen.length < 3) return doc;
  const pos = (b: Rect) => (axis === 'x' ? b.x : b.y);
  const size = (b: Rect) => (axis === 'x' ? b.w : b.h);
  const sorted = [...chosen].sort((a, b) => pos(elementBox(a)) - pos(elementBox(b)));
  const boxes = sorted.map(elementBox);
  const first = boxes[0];
  const last = boxes[boxes.length - 1];
  const total = boxes.reduce((n, b) => n + size(b), 0);
  const gap = (pos(last) + size(last) - pos(first) - total) / (boxes.length - 1);
  const targets = new Map<string, number>();
  let cursor = pos(first);
  sorted.forEach((e, i) => {
    targets.set(e.id, Math.round(cursor));
    cursor += size(boxes[i]) + gap;
  });
  return updateElements(doc, ids, (e) => {
    const at = targets.get(e.id);
    if (at === undefined) return {};
    return axis === 'x' ? { x: at } : { y: at };
  });
}

/** Inks an element may use on this colour type (white first). */
export function inksOf(colourType: ColourType): readonly Ink[] {
  return COLOUR_SETS[colourType];
}

/** Changes the colour type; inks the new set lacks become the nearest it has. */
export function setColourType(doc: TemplateDocument, colourType: ColourType): TemplateDocument {
  if (doc.colourType === colourType) return doc;
  const keep = (ink: Ink) => inkInSet(ink, colourType);
  const fixInk = (ink: Ink) => (COLOUR_SETS[colourType].includes(ink) ? ink : keep(ink));
  return {
    ...doc,
    colourType,
    background: COLOUR_SETS[colourType].includes(doc.background) ? doc.background : 'white',
    elements: doc.elements.map((e) => {
      const colour = fixInk(e.colour);
      const fill = e.fill === null ? null : fixInk(e.fill);
      return colour === e.colour && fill === e.fill ? e : { ...e, colour, fill };
    }),
  };
}

/**
 * Patches the document's own fields (size, rotation, background, dithering, NFC content). An
 * `nfc` of null takes the field out (the tag's NFC is not written); an equal one is no change.
 */
export function setDocument(
  doc: TemplateDocument,
  patch: Partial<Pick<TemplateDocument, 'size' | 'rotation' | 'background' | 'dither'>> & {
    nfc?: NfcBinding | null;
  },
): TemplateDocument {
  const { nfc, ...rest } = patch;
  const keys = Object.keys(rest) as (keyof typeof rest)[];
  const nfcSame =
    nfc === undefined || (nfc === null ? doc.nfc === undefined : doc.nfc?.key === nfc.key && doc.nfc.type === nfc.type);
  if (nfcSame && keys.every((k) => Object.is(rest[k], doc[k]))) return doc;
  const next: TemplateDocument = { ...doc, ...rest };
  if (nfcSame) return next;
  if (nfc === null) {
    const { nfc: _gone, ...without } = next;
    return without;
  }
  return { ...next, nfc: { key: nfc.key, type: nfc.type } };
}
