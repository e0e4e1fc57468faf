import { Element, type ElementInput, type TemplateDocument } from './document';

// Pure edits for an editor (excalidraw style): each returns a new document and leaves the old one
// as it was, so undo is keeping the previous value. Elements are validated as they come in.

/** Appends an element (defaults filled in); throws if the id is taken or the element is invalid. */
export function addElement(doc: TemplateDocument, input: ElementInput): TemplateDocument {
  const element = Element.parse(input);
  if (doc.elements.some((e) => e.id === element.id)) throw new Error(`element id ${element.id} is taken`);
  return { ...doc, elements: [...doc.elements, element] };
}

/** Changes fields of one element (the type and id stay); throws if the result is invalid. */
export function updateElement(doc: TemplateDocument, id: string, patch: Partial<ElementInput>): TemplateDocument {
  return {
    ...doc,
    elements: doc.elements.map((e) => (e.id === id ? Element.parse({ ...e, ...patch, id: e.id, type: e.type }) : e)),
  };
}

export function removeElements(doc: TemplateDocument, ids: readonly string[]): TemplateDocument {
  return { ...doc, elements: doc.elements.filter((e) => !ids.includes(e.id)) };
}

/** Moves an element in the drawing order: 'front' and 'back' to the ends, 'forward'/'backward' one step. */
export function reorderElement(
  doc: TemplateDocument,
  id: string,
  to: 'front' | 'back' | 'forward' | 'backward',
): TemplateDocument {
  const from = doc.elements.findIndex((e) => e.id === id);
  if (from < 0) return doc;
  const elements = [...doc.elements];
  const [element] = elements.splice(from, 1);
  const target =
    to === 'front'
      ? elements.length
      : to === 'back'
        ? 0
        : to === 'forward'
          ? Math.min(elements.length, from + 1)
          : Math.max(0, from - 1);
  elements.splice(target, 0, element);
  return { ...doc, elements };
}

/** A fresh id for a new element of a type: "<type>-<n>" with the smallest free n on any page. */
export function nextElementId(doc: TemplateDocument, type: Element['type']): string {
  const taken = new Set([...doc.elements, ...(doc.pages ?? []).flatMap((p) => p.elements)].map((e) => e.id));
  let n = 1;
  while (taken.has(`${type}-${n}`)) n++;
  return `${type}-${n}`;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Image bytes (PNG, JPEG) as a data URL for an image element's `src`; works in browser and Node. */
export function bytesToDataUrl(
  bytes: Uint8Array,
  mime: 'image/png' | 'image/jpeg' | 'image/bmp' = 'image/png',
): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i];
    const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? BASE64[n & 63] : '=';
  }
  return `data:${mime};base64,${out}`;
}
