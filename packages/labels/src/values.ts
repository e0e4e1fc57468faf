import type { Binding, Element, LabelData } from './model/document';

export interface Resolved {
  readonly value: string | number;
  /** True when the value came from the data, false when it is the element's own content. */
  readonly bound: boolean;
}

/** The value an element shows: its bound field when bound and present, else its own content. */
export function resolveValue(element: Element, data: LabelData): Resolved | null {
  if (element.binding) {
    const value = data[element.binding.key];
    if (value !== undefined && value !== null && value !== '') return { value, bound: true };
  }
  const own = ownValue(element);
  return own === null || own === '' ? null : { value: own, bound: false };
}

function ownValue(element: Element): string | number | null {
  switch (element.type) {
    case 'text':
      return element.text;
    case 'price':
      return element.value;
    case 'barcode':
    case 'qrcode':
      return element.value;
    case 'image':
      return element.src;
    default:
      return null;
  }
}

/** A bound value as text, with the binding's format, prefix and suffix. */
export function formatValue(value: string | number, binding: Binding | null): string {
  if (!binding) return String(value);
  let text: string;
  switch (binding.format) {
    case 'upper':
      text = String(value).toUpperCase();
      break;
    case 'lower':
      text = String(value).toLowerCase();
      break;
    case 'fixed0':
    case 'fixed1':
    case 'fixed2': {
      const n = toNumber(value);
      text = n === null ? String(value) : n.toFixed(Number(binding.format.slice(5)));
      break;
    }
    default:
      text = String(value);
  }
  return `${binding.prefix}${text}${binding.suffix}`;
}

/** Text an element shows (text, barcode, QR code), or null when it has nothing to show. */
export function elementText(element: Element, data: LabelData): string | null {
  const resolved = resolveValue(element, data);
  if (resolved === null) return null;
  const binding = resolved.bound ? element.binding : null;
  // Symbols carry exact data: only a text element takes the binding's prefix and suffix.
  if (element.type !== 'text' && binding) return formatValue(resolved.value, { ...binding, prefix: '', suffix: '' });
  return formatValue(resolved.value, binding);
}

export function toNumber(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const trimmed = value.trim().replace(/^[^\d.+-]+/, '');
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}
