import {
  ErrorCode,
  IMPORT_REASONS,
  type ImportData,
  type ImportError,
  PRODUCT_IMPORT_MAX_ROWS,
  REQUIRED_PRODUCT_FIELDS,
  type SCHEDULE_SCOPES,
  ScheduleChanges,
} from '@esl/contract';
import type { Transaction } from 'kysely';
import type { CallContext } from '../../../api/context';
import { AppError } from '../../../api/errors';
import { transact } from '../../../infra/db/retry';
import type { Database } from '../../../infra/db/schema';
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

const reasonText = (ctx: CallContext, key: keyof typeof IMPORT_REASONS, detail = '') =>
  IMPORT_REASONS[key][ctx.lang].replace('{detail}', detail).replace('{field}', '');

const TEXT_COLUMNS = new Set(['name', 'unit', 'spec', 'origin', 'grade', 'qrcode']);

/** A row of a wizard import that takes effect at a time (docs/SCHEDULE.md): a scheduled change of its product. */
export interface TimedRow {
  line: number;
  barcode: string;
  /** Wall-clock time of the stores, `YYYY-MM-DDTHH:mm`. */
  at: string;
  /** The row's fields, custom ones excepted. */
  changes: ScheduleChanges;
  /** The row's custom cells, merged into each product's custom fields as the import does (null: none). */
  custom: Record<string, string> | null;
}

/**
 * Turns timed rows into scheduled changes inside the import's transaction; answers the changes
 * made and the barcodes the current store has no product for (then the import is refused). The
 * schedule module provides it (it builds on this one, not the reverse).
 */
export type ScheduleRows = (
  trx: Transaction<Database>,
  at: CurrentStore,
  rows: readonly TimedRow[],
  scope: (typeof SCHEDULE_SCOPES)[number],
  /** The changes' note: the file's name. */
  note: string,
) => Promise<{ changes: number; missing: string[] }>;

/** How a wizard import schedules: the writer, the whole file's time (if any), the scope. */
export interface ImportSchedule {
  write: ScheduleRows;
  at: string | undefined;
  scope: (typeof SCHEDULE_SCOPES)[number];
}

const priceText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A checked row's fields as the fields of a scheduled change (the same rules: ScheduleChanges). */
function changesOf(r: ImportRow): ScheduleChanges | null {
  const raw = {
    name: r.name,
    price: r.priceCents === undefined ? undefined : priceText(r.priceCents),
    originalPrice:
      r.originalPriceCents === undefined
        ? undefined
        : r.originalPriceCents === null
          ? null
          : priceText(r.originalPriceCents),
    unit: r.unit,
    spec: r.spec,
    origin: r.origin,
    grade: r.grade,
    qrcode: r.qrcode,
  };
  const parsed = ScheduleChanges.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

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
export function mergeCustom(saved: string | undefined, incoming: Record<string, string> | null): string {
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
 * With `schedule` (the wizard), a row with a time — its own, else the whole file's — becomes a
 * scheduled change instead, in the same transaction; a product the store lacks refuses the file.
 */
export async function writeTable(
  ctx: CallContext,
  at: CurrentStore,
  fileName: string,
  table: SheetRow[],
  plan: ReadonlyMap<number, string>,
  width: number,
  slicer: Slicer,
  schedule?: ImportSchedule,
): Promise<ImportData> {
  const { db, dialect } = ctx.services;
  const pause = () => slicer.pause();
  const checked = await checkRows(table.slice(1), plan, width, ctx.lang, pause);
  table.length = 0; // the parsed cells are no longer needed: let them go before writing
  const { errors } = checked;
  const timed: TimedRow[] = [];
  let good = checked.good;
  if (schedule) {
    const now: ImportRow[] = [];
    for (const r of good) {
      const time = r.at ?? schedule.at;
      if (time === undefined) {
        now.push(r);
        continue;
      }
      const changes = changesOf(r);
      if (changes === null) errors.push({ line: r.line, field: '', reason: reasonText(ctx, 'invalid') });
      else timed.push({ line: r.line, barcode: r.barcode, at: time, changes, custom: r.custom });
    }
    good = now;
  }
  if (errors.length) throw refused(errors.sort((a, b) => a.line - b.line));
  ctx.target = { kind: 'fileRows', name: fileName, count: good.length + timed.length };

  const columns = writtenColumns(plan.values());
  const result = await transact(db, async (trx) => {
    let scheduledChanges = 0;
    if (schedule && timed.length) {
      const done = await schedule.write(trx, at, timed, schedule.scope, fileName.slice(0, 200));
      if (done.missing.length) {
        const lines = new Map(timed.map((t) => [t.barcode, t.line]));
        throw refused(
          done.missing.map((b) => ({
            line: lines.get(b) ?? 0,
            field: 'barcode',
            reason: reasonText(ctx, 'notInStore', b),
          })),
        );
      }
      scheduledChanges = done.changes;
    }
    const scheduled = schedule ? { scheduled: timed.length, scheduledChanges } : {};
    if (good.length === 0) return { total: timed.length, inserted: 0, updated: 0, unchanged: 0, ...scheduled };
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
    const tagIds = await repo.tagIdsShowingBarcodes(trx, at, written, pause);
    await dataPushed(trx, at, { source: 'import', userId: at.userId, products: written.length, tagIds, now: ctx.now });
    return {
      total: good.length + timed.length,
      inserted,
      updated: written.length - inserted,
      unchanged: good.length - written.length,
      ...scheduled,
    };
  });
  tasksChanged();
  return result;
}
