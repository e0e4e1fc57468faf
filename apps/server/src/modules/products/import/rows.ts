import {
  BARCODE_PATTERN,
  IMPORT_REASONS,
  IMPORT_TIME_FIELD,
  IMPORT_TIME_LABEL,
  type ImportError,
  type ImportReason,
  type Language,
  PRODUCT_FIELD_LABELS,
  type ProductField,
} from '@esl/contract';
import { fromSpreadsheet } from '../../../infra/lib/formula';
import { centsOf } from '../../../infra/lib/price';
import type { SheetRow } from './csv';

type TextField = 'name' | 'unit' | 'spec' | 'origin' | 'grade' | 'qrcode';

/**
 * A valid row of an import, ready to write. A field is undefined when the file has no column
 * for it; an empty cell of an optional column is '' (or null for the original price).
 */
export interface ImportRow {
  line: number;
  barcode: string;
  priceCents: number | undefined;
  originalPriceCents: number | null | undefined;
  name: string | undefined;
  unit: string | undefined;
  spec: string | undefined;
  origin: string | undefined;
  grade: string | undefined;
  qrcode: string | undefined;
  /** Null when the file has no custom columns. */
  custom: Record<string, string> | null;
  /** The row's "takes effect at" (YYYY-MM-DDTHH:mm on the stores' clocks); undefined: none given. */
  at: string | undefined;
}

/**
 * A "takes effect at" cell as a wall-clock time `YYYY-MM-DDTHH:mm`, or null when it is not one:
 * a date (- / or . between its parts) and a time to the minute (seconds, when given, must be 00),
 * as typed or as a spreadsheet's date-and-time cell reads (dates.ts).
 */
export function localTimeOf(value: string): string | null {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:T|\s+)(\d{1,2}):(\d{2})(?::00)?$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d || h > 23 || mi > 59) {
    return null;
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}`;
}

const MAX_LENGTH: Record<TextField, number> = { name: 200, unit: 20, spec: 64, origin: 64, grade: 32, qrcode: 500 };
const CUSTOM_MAX = 500;
const LINE_BREAK = /[\r\n]/;

type Kind = 'barcode' | 'price' | 'originalPrice' | TextField | 'custom' | 'at';

function kindOf(field: string): Kind {
  if (field === 'barcode' || field === 'price' || field === 'originalPrice') return field;
  if (field === IMPORT_TIME_FIELD) return 'at';
  return field in MAX_LENGTH ? (field as TextField) : 'custom';
}

function problem(line: number, field: string, key: ImportReason, lang: Language, detail = ''): ImportError {
  const label =
    field === IMPORT_TIME_FIELD
      ? IMPORT_TIME_LABEL[lang]
      : field in PRODUCT_FIELD_LABELS
        ? PRODUCT_FIELD_LABELS[field as ProductField][lang]
        : field;
  return { line, field, reason: IMPORT_REASONS[key][lang].replace('{field}', label).replace('{detail}', detail) };
}

/**
 * The same rules as the add and alter calls, applied to every row, collecting every problem.
 * Written as plain loops without closures per row: it runs 200,000 times for a large file.
 * `pause` is awaited between rows so a large file does not hold up other requests (see Slicer).
 */
export async function checkRows(
  rows: readonly SheetRow[],
  columns: ReadonlyMap<number, string>,
  width: number,
  lang: Language,
  pause: () => Promise<void> = async () => {},
): Promise<{ good: ImportRow[]; errors: ImportError[] }> {
  const errors: ImportError[] = [];
  const good: ImportRow[] = [];
  const firstLine = new Map<string, number>();
  const plan = [...columns].map(([index, field]) => ({ index, field, kind: kindOf(field) }));
  const hasCustom = plan.some((p) => p.kind === 'custom');

  let n = 0;
  for (const { line, cells } of rows) {
    if ((++n & 255) === 0) await pause();
    const before = errors.length;
    if (cells.length > width && cells.slice(width).some((c) => c.trim() !== '')) {
      errors.push(problem(line, '', 'columns', lang));
    }
    const row: ImportRow = {
      line,
      barcode: '',
      priceCents: undefined,
      originalPriceCents: undefined,
      name: undefined,
      unit: undefined,
      spec: undefined,
      origin: undefined,
      grade: undefined,
      qrcode: undefined,
      custom: hasCustom ? {} : null,
      at: undefined,
    };
    for (const { index, field, kind } of plan) {
      const value = fromSpreadsheet((cells[index] ?? '').trim());
      switch (kind) {
        case 'barcode':
          if (value === '') errors.push(problem(line, field, 'required', lang));
          else if (!BARCODE_PATTERN.test(value)) errors.push(problem(line, field, 'invalid', lang));
          else row.barcode = value;
          break;
        case 'price':
        case 'originalPrice': {
          if (value === '') {
            if (kind === 'price') errors.push(problem(line, field, 'required', lang));
            else row.originalPriceCents = null;
            break;
          }
          const cents = centsOf(value);
          if (cents < 0) errors.push(problem(line, field, 'invalid', lang));
          else if (kind === 'price') row.priceCents = cents;
          else row.originalPriceCents = cents;
          break;
        }
        case 'at': {
          if (value === '') break;
          const local = localTimeOf(value);
          if (local === null) errors.push(problem(line, field, 'badTime', lang));
          else row.at = local;
          break;
        }
        default: {
          if (value === '' && kind === 'name') {
            errors.push(problem(line, field, 'required', lang));
            break;
          }
          const max = kind === 'custom' ? CUSTOM_MAX : MAX_LENGTH[kind];
          if (LINE_BREAK.test(value)) errors.push(problem(line, field, 'lineBreak', lang));
          // The API refuses U+0000 everywhere (PostgreSQL cannot store it); a file may not bring one in.
          else if (value.includes('\u0000')) errors.push(problem(line, field, 'invalid', lang));
          else if (value.length > max) errors.push(problem(line, field, 'tooLong', lang));
          else if (kind === 'custom') (row.custom as Record<string, string>)[field] = value;
          else row[kind] = value;
        }
      }
    }
    if (row.barcode) {
      const first = firstLine.get(row.barcode);
      if (first !== undefined) errors.push(problem(line, 'barcode', 'duplicate', lang, String(first)));
      else firstLine.set(row.barcode, line);
    }
    if (errors.length === before) good.push(row);
  }
  return { good, errors };
}
