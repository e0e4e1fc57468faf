import {
  ErrorCode,
  IMPORT_REASONS,
  type ImportData,
  type ImportError,
  PRODUCT_IMPORT_MAX_ROWS,
  REQUIRED_PRODUCT_FIELDS,
} from '@esl/contract';
import type { CallContext } from '../../../api/context';
import { AppError } from '../../../api/errors';
import { transact } from '../../../infra/db/retry';
import { Gate } from '../../../infra/lib/gate';
import { dataPushed, tasksChanged } from '../../../outbox/slots/enqueue';
import { type CurrentStore, currentStore } from '../../stores/service';
import { effectiveFieldMap, planColumns } from '../mapping';
import * as repo from '../repository';
import type { SheetRow } from './csv';
import { readTable, readUpload } from './file';
import { checkRows, type ImportRow } from './rows';
import { Slicer } from './slices';

/**
 * Imports running at once: two per tenant (a third is told to try again), six in the process.
 * Each holds at most one file's limits in memory (limits.ts), so this bounds the whole.
 */
export const importGate = new Gate(2, 6);

export const refused = (errors: ImportError[]) => new AppError(ErrorCode.IMPORT_FAILED, {}, errors);

const TEXT_COLUMNS = new Set(['name', 'unit', 'spec', 'origin', 'grade', 'qrcode']);

/** Which table columns the file's columns write (the others of an existing product stay). */
function writtenColumns(fields: Iterable<string>): repo.ImportColumn[] {
  const out = new Set<repo.ImportColumn>(['updated_at']);
  for (const f of fields) {
    if (f === 'price') out.add('price_cents');
    else if (f === 'originalPrice') out.add('original_price_cents');
    else if (TEXT_COLUMNS.has(f)) out.add(f as repo.ImportColumn);
    else if (f !== 'barcode') out.add('custom');
  }
  return [...out];
}

/** Custom fields after the import: the file's values over the saved ones; an empty cell removes the key. */
function mergeCustom(saved: string | undefined, incoming: Record<string, string> | null): string {
  if (incoming === null) return saved ?? '{}';
  const merged: Record<string, string> = saved ? (JSON.parse(saved) as Record<string, string>) : {};
  for (const [k, v] of Object.entries(incoming)) {
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  return JSON.stringify(merged);
}

/** A checked row as the values of repo.IMPORT_COLUMNS. */
function valuesOf(r: ImportRow, at: CurrentStore, now: number, savedCustom: string | undefined): unknown[] {
  return [
    at.tenantId,
    at.storeId,
    r.barcode,
    r.qrcode ?? '',
    r.name ?? '',
    r.priceCents ?? 0,
    r.originalPriceCents ?? null,
    r.unit ?? '',
    r.spec ?? '',
    r.origin ?? '',
    r.grade ?? '',
    mergeCustom(savedCustom, r.custom),
    0,
    now,
    now,
  ];
}

/**
 * Imports a CSV or XLSX file into the current store through the tenant's field mapping, all or
 * nothing: every bad row is reported (line, field, reason in the caller's language) and then
 * nothing is written. Existing products (same barcode) are updated, others inserted, in batched
 * statements inside one transaction; a product the file gives as it already is counts unchanged.
 */
export async function importProducts(ctx: CallContext): Promise<ImportData> {
  const at = await currentStore(ctx);
  const leave = importGate.enter(at.tenantId);
  if (!leave) throw new AppError(ErrorCode.BUSY, { detail: 'importBusy' });
  try {
    return await runImport(ctx, at);
  } finally {
    leave();
  }
}

async function runImport(ctx: CallContext, at: CurrentStore): Promise<ImportData> {
  const { db } = ctx.services;
  const slicer = new Slicer();
  const file = await readUpload(ctx);
  ctx.target = { kind: 'file', name: file.name };
  const table = await readTable(ctx, file.bytes, slicer);
  const reason = (key: keyof typeof IMPORT_REASONS, detail = '') =>
    IMPORT_REASONS[key][ctx.lang].replace('{detail}', detail);

  const title = table[0];
  const rows = table.length - 1;
  if (!title || rows === 0) throw refused([{ line: title?.line ?? 1, field: '', reason: reason('noRows') }]);
  // The reader stops at the limit; this is the rule as the contract states it.
  if (rows > PRODUCT_IMPORT_MAX_ROWS) {
    throw refused([{ line: title.line, field: '', reason: reason('tooManyRows', String(PRODUCT_IMPORT_MAX_ROWS)) }]);
  }

  const map = effectiveFieldMap(await repo.findFieldMap(db, at.tenantId));
  const plan = planColumns(title.cells, map, REQUIRED_PRODUCT_FIELDS);
  if (plan.missing.length) {
    throw refused(
      plan.missing.map((m) => ({ line: title.line, field: m.name, reason: reason('missingColumn', m.tField) })),
    );
  }
  return writeTable(ctx, at, file.name, table, plan.columns, title.cells.length, slicer);
}

/**
 * Checks the product rows of `table` (after its title row, the first) through `columns` (column
 * index → field) and writes them, all or nothing; `width` is the title row's. Empties `table`.
 */
export async function writeTable(
  ctx: CallContext,
  at: CurrentStore,
  fileName: string,
  table: SheetRow[],
  plan: ReadonlyMap<number, string>,
  width: number,
  slicer: Slicer,
): Promise<ImportData> {
  const { db, dialect } = ctx.services;
  const pause = () => slicer.pause();
  const { good, errors } = await checkRows(table.slice(1), plan, width, ctx.lang, pause);
  table.length = 0; // the parsed cells are no longer needed: let them go before writing
  if (errors.length) throw refused(errors);
  ctx.target = { kind: 'fileRows', name: fileName, count: good.length };

  const columns = writtenColumns(plan.values());
  const result = await transact(db, async (trx) => {
    const before = await repo.countProducts(trx, at);
    // Saved custom fields are read only when the file has custom columns to merge into them.
    const saved = columns.includes('custom') ? await repo.customByBarcode(trx, at) : new Map<string, string>();
    const values: unknown[][] = [];
    for (const r of good) {
      values.push(valuesOf(r, at, ctx.now, saved.get(r.barcode)));
      if ((values.length & 1023) === 0) await pause();
    }
    const written = await repo.upsertProducts(trx, dialect, values, columns, pause);
    const inserted = (await repo.countProducts(trx, at)) - before;
    // Only the tags of products the file changed get a new label; rows given as they are stay quiet.
    const tagIds = written.length ? await repo.tagIdsShowing(trx, at, { barcodes: written }) : [];
    await dataPushed(trx, at, { source: 'import', userId: at.userId, products: written.length, tagIds, now: ctx.now });
    return {
      total: good.length,
      inserted,
      updated: written.length - inserted,
      unchanged: good.length - written.length,
    };
  });
  tasksChanged();
  return result;
}
