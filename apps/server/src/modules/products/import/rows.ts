import {
  BARCODE_PATTERN,
  IMPORT_REASONS,
  type ImportError,
  type ImportReason,
  type Language,
  PRICE_PATTERN,
  PRODUCT_FIELD_LABELS,
  type ProductField,
} from '@esl/contract';
import { toCents } from '../price';
import type { SheetRow } from './csv';

/** A valid row of an import, ready to write. Only the fields with a column are present. */
export interface ImportRow {
  line: number;
  barcode: string;
  fields: Partial<Record<Exclude<ProductField, 'barcode' | 'price' | 'originalPrice'>, string>>;
  priceCents?: number;
  /** null: the column is there and the cell is empty (clears the original price). */
  originalPriceCents?: number | null;
  custom: Record<string, string>;
}

const MAX_LENGTH: Record<string, number> = {
  name: 200,
  unit: 20,
  spec: 64,
  origin: 64,
  grade: 32,
  qrcode: 500,
};
const CUSTOM_MAX = 500;
const REQUIRED = new Set(['barcode', 'name', 'price']);
const LINE_BREAK = /[\r\n]/;

/** The same rules as the add and alter calls, applied to every row, collecting every problem. */
export function checkRows(
  rows: readonly SheetRow[],
  columns: ReadonlyMap<number, string>,
  width: number,
  lang: Language,
): { good: ImportRow[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const good: ImportRow[] = [];
  const firstLine = new Map<string, number>();
  const label = (field: string) =>
    field in PRODUCT_FIELD_LABELS ? PRODUCT_FIELD_LABELS[field as ProductField][lang] : field;
  const reason = (key: ImportReason, field: string, detail = '') =>
    IMPORT_REASONS[key][lang].replace('{field}', label(field)).replace('{detail}', detail);
  const plan = [...columns];

  for (const { line, cells } of rows) {
    const before = errors.length;
    const fail = (field: string, key: ImportReason, detail = '') =>
      errors.push({ line, field, reason: reason(key, field, detail) });
    if (cells.length > width && cells.slice(width).some((c) => c.trim() !== '')) fail('', 'columns');

    const row: ImportRow = { line, barcode: '', fields: {}, custom: {} };
    for (const [index, field] of plan) {
      const value = (cells[index] ?? '').trim();
      if (value === '') {
        if (REQUIRED.has(field)) fail(field, 'required');
        else if (field === 'originalPrice') row.originalPriceCents = null;
        else if (field in MAX_LENGTH) row.fields[field as keyof ImportRow['fields']] = '';
        else row.custom[field] = '';
        continue;
      }
      if (field === 'barcode') {
        if (!BARCODE_PATTERN.test(value)) fail(field, 'invalid');
        else row.barcode = value;
      } else if (field === 'price' || field === 'originalPrice') {
        if (!PRICE_PATTERN.test(value)) fail(field, 'invalid');
        else if (field === 'price') row.priceCents = toCents(value);
        else row.originalPriceCents = toCents(value);
      } else {
        const max = MAX_LENGTH[field] ?? CUSTOM_MAX;
        if (LINE_BREAK.test(value)) fail(field, 'lineBreak');
        else if (value.length > max) fail(field, 'tooLong');
        else if (field in MAX_LENGTH) row.fields[field as keyof ImportRow['fields']] = value;
        else row.custom[field] = value;
      }
    }

    if (row.barcode) {
      const first = firstLine.get(row.barcode);
      if (first !== undefined) fail('barcode', 'duplicate', String(first));
      else firstLine.set(row.barcode, line);
    }
    if (errors.length === before) good.push(row);
  }
  return { good, errors };
}
