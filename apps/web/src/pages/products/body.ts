import {
  type BodyOf,
  type FieldMap,
  ImportError,
  isCustomKey,
  PRODUCT_FIELDS,
  type Product,
  type ProductField,
} from '@esl/contract';
import type { FilterOf } from '../../components/list/useListQuery';

/** One custom field as the form edits it. */
export interface CustomRow {
  key?: string;
  value?: string;
}

/** What the product dialog's form holds. */
export interface ProductFormValues {
  barcode: string;
  name: string;
  price: string;
  originalPrice?: string;
  qrcode?: string;
  unit?: string;
  spec?: string;
  origin?: string;
  grade?: string;
  custom?: CustomRow[];
}

const text = (v: string | undefined) => (v ?? '').trim();

/** Custom rows as the call's record; rows with no key are dropped. */
export function customRecord(rows: readonly CustomRow[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows ?? []) {
    const key = text(row.key);
    if (key) out[key] = text(row.value);
  }
  return out;
}

export function addProductBody(v: ProductFormValues): BodyOf<'addProduct'> {
  const originalPrice = text(v.originalPrice);
  return {
    barcode: text(v.barcode),
    name: text(v.name),
    price: text(v.price),
    originalPrice: originalPrice ? originalPrice : null,
    qrcode: text(v.qrcode),
    unit: text(v.unit),
    spec: text(v.spec),
    origin: text(v.origin),
    grade: text(v.grade),
    custom: customRecord(v.custom),
  };
}

/** An edit sends every field, so a field emptied in the form is emptied on the server too. */
export function alterProductBody(id: number, v: ProductFormValues): BodyOf<'alterProduct'> {
  return { id, ...addProductBody(v) };
}

/** A product as the dialog's form starts editing it. */
export function productFormValues(p: Product): ProductFormValues {
  return {
    barcode: p.barcode,
    name: p.name,
    price: p.price,
    originalPrice: p.originalPrice ?? '',
    qrcode: p.qrcode,
    unit: p.unit,
    spec: p.spec,
    origin: p.origin,
    grade: p.grade,
    custom: Object.entries(p.custom).map(([key, value]) => ({ key, value })),
  };
}

export type BoundChoice = 'bound' | 'unbound';

export interface ProductFilterValues {
  text?: string;
  bound?: BoundChoice;
}

/** The list's filters (and the export's: the same ones, without paging). */
export function productFilter(values: ProductFilterValues): FilterOf<'productList'> {
  const t = values.text?.trim();
  return {
    text: t ? t : undefined,
    bound: values.bound === undefined ? undefined : values.bound === 'bound',
  };
}

export function isStandardField(name: string): name is ProductField {
  return (PRODUCT_FIELDS as readonly string[]).includes(name);
}

/** One row of the field-mapping editor. */
export interface MappingRow {
  name: string;
  tField: string;
}

/**
 * Problems of a mapping before it is sent: empty or repeated column titles (case-insensitive),
 * custom keys that are not keys or repeat. Answers a message key per row index, for rows with one.
 */
export function mappingProblems(
  rows: readonly MappingRow[],
): Map<number, 'title' | 'titleRepeat' | 'key' | 'keyRepeat'> {
  const problems = new Map<number, 'title' | 'titleRepeat' | 'key' | 'keyRepeat'>();
  const titles = new Map<string, number>();
  const names = new Map<string, number>();
  rows.forEach((row, i) => {
    const name = row.name.trim();
    const title = row.tField.trim();
    if (!isStandardField(name) && !isCustomKey(name)) problems.set(i, 'key');
    else if (names.has(name)) problems.set(i, 'keyRepeat');
    else if (!title) problems.set(i, 'title');
    else if (titles.has(title.toLowerCase())) problems.set(i, 'titleRepeat');
    names.set(name, i);
    if (title) titles.set(title.toLowerCase(), i);
  });
  return problems;
}

/** The mapping the call takes, trimmed. */
export function mappingBody(rows: readonly MappingRow[]): FieldMap[] {
  return rows.map((r) => ({ name: r.name.trim(), tField: r.tField.trim() }));
}

/** The bad rows of a refused import, read defensively from the refusal's data. */
export function importErrorsOf(data: unknown): ImportError[] {
  if (!Array.isArray(data)) return [];
  const out: ImportError[] = [];
  for (const item of data) {
    const parsed = ImportError.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
