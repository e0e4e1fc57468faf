import { Element, type ElementInput, TEMPLATE_VERSION, TemplateDocument } from '@esl/labels';

/** A 296 × 152 black/white/red document holding the given elements (defaults filled in). */
export function docWith(...elements: ElementInput[]): TemplateDocument {
  return TemplateDocument.parse({
    version: TEMPLATE_VERSION,
    size: { model: '0A', w: 296, h: 152 },
    colourType: 'bwr',
    elements: elements.map((e) => Element.parse(e)),
  });
}

export function rect(id: string, x: number, y: number, w: number, h: number): ElementInput {
  return { id, type: 'rect', x, y, w, h };
}

export const LABEL = { w: 296, h: 152 } as const;
