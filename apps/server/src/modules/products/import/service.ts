import {
  ErrorCode,
  IMPORT_REASONS,
  type ImportData,
  type ImportError,
  PRODUCT_IMPORT_MAX_ROWS,
  REQUIRED_PRODUCT_FIELDS,
} from '@esl/contract';
import type { Insertable } from 'kysely';
import type { CallContext } from '../../../api/context';
import { AppError } from '../../../api/errors';
import type { ProductTable } from '../../../db/schema';
import { currentStore } from '../../stores/current';
import { touchStore } from '../../tags/counts';
import { effectiveFieldMap, planColumns } from '../mapping';
import * as repo from '../repository';
import { readTable, readUpload } from './file';
import { checkRows, type ImportRow } from './rows';

/** Rows per INSERT … ON CONFLICT statement: 15 columns a row stays under both databases' parameter limits. */
const BATCH = 1000;

const refused = (errors: ImportError[]) => new AppError(ErrorCode.IMPORT_FAILED, {}, errors);

/** Which table columns the file's columns write (the others of an existing product stay). */
function writtenColumns(fields: Iterable<string>): repo.ImportColumn[] {
  const out = new Set<repo.ImportColumn>(['updated_at']);
  for (const f of fields) {
    if (f === 'price') out.add('price_cents');
    else if (f === 'originalPrice') out.add('original_price_cents');
    else if (f === 'barcode') continue;
    else if (f === 'name' || f === 'unit' || f === 'spec' || f === 'origin' || f === 'grade' || f === 'qrcode')
      out.add(f);
    else out.add('custom');
  }
  return [...out];
}

/** Custom fields after the import: the file's values over the saved ones; an empty cell removes the key. */
function mergeCustom(saved: string | undefined, incoming: Record<string, string>): string {
  const merged: Record<string, string> = saved ? (JSON.parse(saved) as Record<string, string>) : {};
  for (const [k, v] of Object.entries(incoming)) {
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  return JSON.stringify(merged);
}

/**
 * Imports a CSV or XLSX file into the current store through the tenant's field mapping, all or
 * nothing: every bad row is reported (line, field, reason in the caller's language) and then
 * nothing is written. Existing products (same barcode) are updated, others inserted, in batched
 * statements inside one transaction.
 */
export async function importProducts(ctx: CallContext): Promise<ImportData> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const file = await readUpload(ctx);
  ctx.target = `import ${file.name}`;
  const table = await readTable(ctx, file.bytes);
  const reason = (key: keyof typeof IMPORT_REASONS, detail = '') =>
    IMPORT_REASONS[key][ctx.lang].replace('{detail}', detail);

  const [title, ...data] = table;
  if (!title || data.length === 0) throw refused([{ line: title?.line ?? 1, field: '', reason: reason('noRows') }]);
  if (data.length > PRODUCT_IMPORT_MAX_ROWS) {
    throw refused([{ line: title.line, field: '', reason: reason('tooManyRows', String(PRODUCT_IMPORT_MAX_ROWS)) }]);
  }

  const map = effectiveFieldMap(await repo.findFieldMap(db, at.tenantId));
  const plan = planColumns(title.cells, map, REQUIRED_PRODUCT_FIELDS);
  if (plan.missing.length) {
    throw refused(
      plan.missing.map((m) => ({ line: title.line, field: m.name, reason: reason('missingColumn', m.tField) })),
    );
  }
  const { good, errors } = checkRows(data, plan.columns, title.cells.length, ctx.lang);
  if (errors.length) throw refused(errors);
  ctx.target = `import ${file.name}: ${good.length} rows`;

  const columns = writtenColumns(plan.columns.values());
  const result = await db.transaction().execute(async (trx) => {
    const existing = await repo.productsByBarcode(trx, at);
    const rows = good.map((r) => toInsert(r, at, ctx.now, existing.get(r.barcode)?.custom));
    await repo.upsertProducts(trx, rows, columns, BATCH);
    const updated = good.reduce((n, r) => n + (existing.has(r.barcode) ? 1 : 0), 0);
    return { total: good.length, inserted: good.length - updated, updated };
  });
  // New names and barcodes change what the tag list's text filter finds.
  touchStore(db, at.storeId);
  return result;
}

function toInsert(
  r: ImportRow,
  at: { tenantId: number; storeId: number },
  now: number,
  savedCustom: string | undefined,
): Insertable<ProductTable> {
  return {
    tenant_id: at.tenantId,
    store_id: at.storeId,
    barcode: r.barcode,
    name: r.fields.name ?? '',
    price_cents: r.priceCents ?? 0,
    original_price_cents: r.originalPriceCents ?? null,
    unit: r.fields.unit ?? '',
    spec: r.fields.spec ?? '',
    origin: r.fields.origin ?? '',
    grade: r.fields.grade ?? '',
    qrcode: r.fields.qrcode ?? '',
    custom: mergeCustom(savedCustom, r.custom),
    price_changes: 0,
    created_at: now,
    updated_at: now,
  };
}
