import { Element, type ElementType, type TemplateDocument } from '@esl/labels';
import { nextId } from './commands';

export interface NewElementContent {
  /** Text of a new text element (in the editor's language). */
  readonly text: string;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/**
 * A new element of a type, sized for the label and centred on it (each further element of the
 * same type a little lower and to the right, so they do not hide each other).
 */
export function newElement(
  doc: TemplateDocument,
  label: { w: number; h: number },
  type: ElementType,
  content: NewElementContent,
): Element {
  const { w: W, h: H } = label;
  const short = Math.min(W, H);
  const size = (w: number, h: number) => ({ w: clamp(Math.round(w), 1, W), h: clamp(Math.round(h), 0, H) });
  let box: { w: number; h: number };
  let extra: Record<string, unknown> = {};
  switch (type) {
    case 'text': {
      box = size(W * 0.5, Math.max(16, H * 0.18));
      extra = { text: content.text, font: { size: clamp(Math.round(box.h * 0.75), 8, 200) } };
      break;
    }
    case 'price': {
      box = size(W * 0.45, Math.max(24, H * 0.35));
      extra = { value: 9.9, font: { size: clamp(Math.round(box.h), 8, 400), weight: 'bold' } };
      break;
    }
    case 'barcode': {
      box = size(Math.max(W * 0.5, Math.min(W, 130)), Math.max(30, H * 0.3));
      extra = { value: '6901234567892', font: { size: clamp(Math.round(box.h * 0.25), 8, 40) } };
      break;
    }
    case 'qrcode': {
      box = size(Math.max(short * 0.4, 33), Math.max(short * 0.4, 33));
      extra = { value: 'https://example.com' };
      break;
    }
    case 'rect':
      box = size(W * 0.4, H * 0.3);
      extra = { strokeWidth: 2 };
      break;
    case 'line':
      box = { w: clamp(Math.round(W * 0.6), 1, W), h: 0 };
      extra = { strokeWidth: 2 };
      break;
    case 'image':
      box = size(short * 0.3, short * 0.3);
      break;
  }
  const same = doc.elements.filter((e) => e.type === type).length;
  const shift = (same % 5) * 8;
  const x = clamp(Math.round((W - box.w) / 2) + shift, 0, Math.max(0, W - box.w));
  const y = clamp(Math.round((H - box.h) / 2) + shift, 0, Math.max(0, H - box.h));
  return Element.parse({ id: nextId(doc, type), type, x, y, ...box, ...extra });
}
