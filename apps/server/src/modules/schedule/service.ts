import { randomUUID } from 'node:crypto';
import {
  fromLocalTime,
  type ParsedBodyOf,
  type SCHEDULE_SCOPES,
  type ScheduleChanges,
  type ScheduleStatus,
} from '@esl/contract';
import type { Insertable, Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { invalidField, notFound } from '../../api/errors';
import type { Database, ScheduledChangeTable } from '../../infra/db/schema';
import { tasksChanged } from '../../outbox/slots/enqueue';
import * as products from '../products/service';
import { type CurrentStore, currentStore, scopeOf, storeRefs, timeZones } from '../stores/service';
import { presentChange } from './presenter';
import * as repo from './repository';

/*
 * Prices on a schedule (docs/SCHEDULE.md): product changes that take effect at a wall-clock time
 * of each store. The scheduler (delivery/schedule) applies them at their time and delivers each
 * tag's label for it ahead of time as a timed image; here they are added, listed, edited and
 * cancelled. Every write wakes the scheduler (tasksChanged), which plans the tags again.
 */

export async function list(ctx: CallContext, f: ParsedBodyOf<'scheduleList'>) {
  const at = await currentStore(ctx);
  const { rows, count } = await repo.listChanges(ctx.services.db, at, f);
  const tz = (await timeZones(ctx.services.db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
  const progress = await repo.progressOf(ctx.services.db, at, rows);
  return { rows: rows.map((r) => presentChange(r, tz, progress.get(r.id))), count };
}

/**
 * Schedules a change of a product of the current store; `chain`: of the product with the same
 * barcode in every store the caller may see as well, each at the time on its own store's clock.
 */
export async function add(ctx: CallContext, body: ParsedBodyOf<'addSchedule'>) {
  const at = await currentStore(ctx);
  const caller = requireTenant(ctx);
  const { db } = ctx.services;
  const product = await products.findInStore(db, at, body.productId);
  if (!product) throw notFound();
  ctx.target = { kind: 'product', name: product.name, extra: product.barcode };
  let targets = [{ store_id: at.storeId, id: product.id }];
  if (body.scope === 'chain') {
    const stores = (await storeRefs(db, scopeOf(caller))).map((s) => s.id);
    targets = await products.sameBarcode(db, at.tenantId, stores, product.barcode);
  }
  const zones = await timeZones(
    db,
    at.tenantId,
    targets.map((x) => x.store_id),
  );
  const batch = randomUUID();
  const rows = targets.map((x) => ({
    tenant_id: at.tenantId,
    store_id: x.store_id,
    product_id: x.id,
    changes: JSON.stringify(body.changes),
    effective_at: fromLocalTime(body.at, zones.get(x.store_id) ?? 'UTC'),
    status: 'pending',
    note: body.note,
    batch,
    created_by: at.userId,
    created_at: ctx.now,
    updated_at: ctx.now,
    applied_at: null,
  }));
  const ids = rows.length ? (await repo.insertChanges(db, rows)).map((r) => r.id) : [];
  tasksChanged();
  return { ids, stores: new Set(targets.map((x) => x.store_id)).size };
}

/** A change by barcode (the import wizard's timed rows, the ERP API). */
export interface BarcodeChange {
  barcode: string;
  /** Wall-clock time of the stores, `YYYY-MM-DDTHH:mm`. */
  at: string;
  changes: ScheduleChanges;
  /** Custom cells of an import row, merged into each product's own custom fields as they are now. */
  custom?: Record<string, string> | null;
}

/**
 * Schedules changes of the current store's products named by barcode (at most one item per
 * barcode), as `add` does one: `chain` also changes the same barcode's product in every store the
 * caller may see, each at the time on its own store's clock. Nothing is written when the current
 * store lacks one of the barcodes: they are answered in `missing`. Runs in the caller's
 * transaction; the caller wakes the scheduler (tasksChanged) once it is committed.
 */
export async function addByBarcodes(
  db: Kysely<Database>,
  ctx: CallContext,
  at: CurrentStore,
  items: readonly BarcodeChange[],
  scope: (typeof SCHEDULE_SCOPES)[number],
  note: string,
): Promise<{ ids: number[]; stores: number; missing: string[] }> {
  const caller = requireTenant(ctx);
  const { dialect } = ctx.services;
  const barcodes = items.map((i) => i.barcode);
  const here = await products.withBarcodesIn(db, dialect, at.tenantId, [at.storeId], barcodes);
  const found = new Set(here.map((p) => p.barcode));
  const missing = barcodes.filter((b) => !found.has(b));
  if (missing.length) return { ids: [], stores: 0, missing };
  let targets = here;
  if (scope === 'chain') {
    const others = (await storeRefs(db, scopeOf(caller))).map((s) => s.id).filter((id) => id !== at.storeId);
    targets = [...here, ...(await products.withBarcodesIn(db, dialect, at.tenantId, others, barcodes))];
  }
  const zones = await timeZones(
    db,
    at.tenantId,
    targets.map((t) => t.store_id),
  );
  const byBarcode = new Map(items.map((i) => [i.barcode, i]));
  // A file names few times and a chain few zones: each instant worked out once, not per row.
  const instants = new Map<string, number>();
  const instant = (local: string, tz: string) => {
    const k = `${local}|${tz}`;
    let t = instants.get(k);
    if (t === undefined) {
      t = fromLocalTime(local, tz);
      instants.set(k, t);
    }
    return t;
  };
  const batch = randomUUID();
  const rows: Insertable<ScheduledChangeTable>[] = [];
  for (const t of targets) {
    const item = byBarcode.get(t.barcode);
    if (!item) continue;
    const changes = item.custom
      ? { ...item.changes, custom: JSON.parse(products.mergeCustom(t.custom, item.custom)) as Record<string, string> }
      : item.changes;
    rows.push({
      tenant_id: at.tenantId,
      store_id: t.store_id,
      product_id: t.id,
      changes: JSON.stringify(changes),
      effective_at: instant(item.at, zones.get(t.store_id) ?? 'UTC'),
      status: 'pending',
      note,
      batch,
      created_by: at.userId || null,
      created_at: ctx.now,
      updated_at: ctx.now,
      applied_at: null,
    });
  }
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    for (const r of await repo.insertChanges(db, rows.slice(i, i + 500))) ids.push(r.id);
  }
  return { ids, stores: new Set(targets.map((t) => t.store_id)).size, missing: [] };
}

/**
 * The ERP API's scheduling (docs/INTEGRATION.md): changes of the current store's products by
 * barcode, all or nothing — a barcode the store lacks refuses the call (not found, naming it).
 */
export async function addForBarcodes(
  ctx: CallContext,
  items: readonly BarcodeChange[],
  scope: (typeof SCHEDULE_SCOPES)[number],
  note: string,
) {
  const at = await currentStore(ctx);
  ctx.target = { kind: 'products', names: items.slice(0, 20).map((i) => i.barcode), count: items.length };
  const done = await ctx.services.db.transaction().execute((trx) => addByBarcodes(trx, ctx, at, items, scope, note));
  const missing = done.missing[0];
  if (missing !== undefined) throw notFound({ kind: 'barcode', value: missing });
  await largeFileAdded(ctx, done.ids.length);
  tasksChanged();
  return { ids: done.ids, stores: done.stores };
}

/** The store's changes of one product by barcode (not found when the store lacks it), or all of them. */
export async function listByBarcode(
  ctx: CallContext,
  f: { status?: ScheduleStatus; barcode?: string; page: number; limit: number },
) {
  const at = await currentStore(ctx);
  let productId: number | undefined;
  if (f.barcode !== undefined) {
    const product = await products.findByBarcode(ctx.services.db, at, f.barcode);
    if (!product) throw notFound({ kind: 'barcode', value: f.barcode });
    productId = product.id;
  }
  return list(ctx, { status: f.status, productId, page: f.page, limit: f.limit });
}

/** Another time and/or other fields for a pending change of the current store. */
export async function edit(ctx: CallContext, id: number, patch: { at?: string; changes?: ScheduleChanges }) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const row = await repo.findChange(db, at, id);
  if (!row) throw notFound();
  ctx.target = { kind: 'product', name: row.product_name, extra: row.barcode };
  const tz = (await timeZones(db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
  const set = {
    updated_at: ctx.now,
    ...(patch.at === undefined ? {} : { effective_at: fromLocalTime(patch.at, tz) }),
    ...(patch.changes === undefined ? {} : { changes: JSON.stringify(patch.changes) }),
  };
  if (!(await repo.updatePending(db, at, id, set))) throw invalidField('id', 'notPending');
  tasksChanged();
  const updated = await repo.findChange(db, at, id);
  if (!updated) throw notFound();
  return presentChange(updated, tz);
}

/** Cancels pending changes of the current store: all of them, or none when one is not pending. */
export async function cancel(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'products', names: unique.map((id) => `#${id}`), count: unique.length };
  const n = await ctx.services.db.transaction().execute(async (trx) => {
    if ((await repo.pendingIn(trx, at, unique)) !== unique.length) throw invalidField('ids', 'notPending');
    return repo.cancelPending(trx, at, unique, ctx.now);
  });
  tasksChanged();
  return n;
}

/** Changes added at once from which PostgreSQL's statistics of the table are refreshed. */
const LARGE_FILE = 5000;

/** After a large file is committed: the statistics the scheduler's reads are planned on, refreshed (PostgreSQL). */
export async function largeFileAdded(ctx: CallContext, added: number): Promise<void> {
  if (added >= LARGE_FILE && ctx.services.dialect === 'postgres') await repo.refreshStatistics(ctx.services.db);
}
