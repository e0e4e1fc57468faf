import {
  type FieldMap,
  hasPermission,
  type ParsedBodyOf,
  productLabelData,
  type ScheduleChanges,
  TARGET_NAMES_KEPT,
} from '@esl/contract';
import type { Kysely, Transaction } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { conflict, forbidden, notFound } from '../../api/errors';
import type { Dialect } from '../../infra/db/database';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { toCents } from '../../infra/lib/price';
import { dataPushed, PRIO, tasksChanged } from '../../outbox/slots/enqueue';
import { markProductGone } from '../problems/service';
import { type CurrentStore, currentStore } from '../stores/service';
import { effectiveFieldMap } from './mapping';
import { parseCustom, presentProduct } from './presenter';
import * as repo from './repository';

export { removeByBarcodes, upsertByBarcode } from './bulk';
// The import wizard's timed rows are scheduled by the schedule module (docs/SCHEDULE.md), which
// builds on this one: it hands the wizard its writer and merges custom cells as the import does.
export { mergeCustom, type ScheduleRows, type TimedRow } from './import/service';
export { importMapped } from './import/wizard';

export async function list(ctx: CallContext, f: repo.ProductFilter & { page: number; limit: number }) {
  const at = await currentStore(ctx);
  return repo.listProducts(ctx.services.db, at, f);
}

export async function find(ctx: CallContext, barcode: string) {
  const at = await currentStore(ctx);
  const row = await repo.findProductByBarcode(ctx.services.db, at, barcode);
  if (!row) throw notFound();
  return row;
}

export type ProductInput = ParsedBodyOf<'addProduct'>;
export type ProductPatch = Omit<ParsedBodyOf<'alterProduct'>, 'id'>;

const cents = (price: string | null | undefined) => (price === null || price === undefined ? null : toCents(price));

export async function add(ctx: CallContext, input: ProductInput) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'product', name: input.name, extra: input.barcode };
  if (await repo.barcodeTaken(db, at, input.barcode)) throw conflict(input.barcode);
  const { price, originalPrice, custom, ...text } = input;
  const id = await onUniqueViolation(
    repo.insertProduct(db, {
      ...text,
      tenant_id: at.tenantId,
      store_id: at.storeId,
      price_cents: toCents(price),
      original_price_cents: cents(originalPrice),
      custom: JSON.stringify(custom),
      price_changes: 0,
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    () => conflict(input.barcode),
  );
  const row = await repo.findProduct(db, at, id);
  if (!row) throw notFound();
  return row;
}

/** Changes the given fields; a new price (different from the current one) counts one price change. */
export async function alter(ctx: CallContext, id: number, patch: ProductPatch) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'product', name: `#${id}`, extra: '' };
  const current = await repo.findProduct(db, at, id);
  if (!current) throw notFound();
  ctx.target = { kind: 'product', name: patch.name ?? current.name, extra: current.barcode };
  const { price, originalPrice, custom, ...text } = patch;
  if (text.barcode !== undefined && (await repo.barcodeTaken(db, at, text.barcode, id))) throw conflict(text.barcode);
  const set: repo.ProductPatch = { ...text, updated_at: ctx.now };
  if (price !== undefined) set.price_cents = toCents(price);
  if (originalPrice !== undefined) set.original_price_cents = cents(originalPrice);
  if (custom !== undefined) set.custom = JSON.stringify(custom);
  await transact(db, async (trx) => {
    await onUniqueViolation(repo.updateProduct(trx, at, id, set), () => conflict(text.barcode ?? current.barcode));
    // Its tags show the new values: re-rendered and delivered (in this transaction: DELIVERY.md §5.2).
    const tagIds = await repo.tagIdsShowing(trx, at, { productIds: [id] });
    if (tagIds.length)
      await dataPushed(trx, at, { source: 'console', userId: at.userId, products: 1, tagIds, now: ctx.now });
  });
  tasksChanged();
  const row = await repo.findProduct(db, at, id);
  if (!row) throw notFound();
  return row;
}

/** All or nothing: an id that is not a product of the current store refuses the whole call. */
export async function remove(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'products', names: unique.map((id) => `#${id}`), count: unique.length };
  const deleted = await transact(ctx.services.db, async (trx) => {
    const mine = await repo.productIdsIn(trx, at, unique);
    if (mine.size !== unique.length) throw notFound();
    const names = await repo.productNamesOf(trx, at, unique, TARGET_NAMES_KEPT);
    ctx.target = { kind: 'products', names, count: unique.length };
    // Their tags lose the product (the foreign key sets it null): they show the unbound label.
    const tagIds = await repo.tagIdsShowing(trx, at, { productIds: unique });
    // Misused until bound again or unbound on purpose (docs/PROBLEMS.md).
    await markProductGone(trx, at.tenantId, tagIds, ctx.now);
    const n = await repo.deleteProducts(trx, at, unique);
    if (tagIds.length) {
      await dataPushed(trx, at, {
        source: 'console',
        userId: at.userId,
        products: unique.length,
        tagIds,
        now: ctx.now,
      });
    }
    return n;
  });
  tasksChanged();
  return deleted;
}

/**
 * Reads the tenant's import field mapping, or replaces it when `fields` is given (which takes
 * product.import on top of the call's product.read).
 */
export async function fieldMap(ctx: CallContext, fields: FieldMap[] | undefined) {
  // The mapping belongs to the tenant, not to a store, so it needs no current store.
  const caller = requireTenant(ctx);
  const { db } = ctx.services;
  if (fields === undefined) {
    ctx.target = { kind: 'fieldMapping' };
    return effectiveFieldMap(await repo.findFieldMap(db, caller.tenantId));
  }
  ctx.target = { kind: 'fieldMapping' };
  if (!hasPermission(caller.roles, 'product.import')) throw forbidden();
  await repo.saveFieldMap(db, caller.tenantId, JSON.stringify(fields), ctx.now);
  return effectiveFieldMap(JSON.stringify(fields));
}

/** A product of a store by barcode, or undefined (the tags module binds tags to it). */
export function findByBarcode(db: Kysely<Database>, at: CurrentStore, barcode: string) {
  return repo.findProductByBarcode(db, at, barcode);
}

/** A product of the caller's current store as label data (the templates module's previews). */
export async function labelData(ctx: CallContext, productId: number): Promise<Readonly<Record<string, string | null>>> {
  const at = await currentStore(ctx);
  const row = await repo.findProduct(ctx.services.db, at, productId);
  if (!row) throw notFound();
  return productLabelData(presentProduct(row));
}

/**
 * The values template rules match on (docs/TEMPLATES.md, "Which template a tag shows"): each
 * product's text fields and custom fields by key, for products of one store.
 */
export async function ruleFields(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  ids: readonly number[],
): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  for (const row of await repo.ruleFields(db, at, [...new Set(ids)])) {
    const { id, custom, ...fields } = row;
    out.set(id, { ...parseCustom(custom), ...fields });
  }
  return out;
}

/**
 * Products of a store (all, or those of `ids`) by id with the values a promotion matches on
 * (docs/PROMOTIONS.md): the barcode, the text fields and the custom fields by key.
 */
export async function matchFields(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  ids?: readonly number[],
): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  for (const row of await repo.matchRows(db, at, ids && [...new Set(ids)])) {
    const { id, custom, ...fields } = row;
    out.set(id, { ...parseCustom(custom), ...fields });
  }
  return out;
}

/** The running promotion's price of products (null: none), set as promotions move (docs/PROMOTIONS.md). */
export function setPromoPrices(db: Kysely<Database>, tenantId: number, prices: ReadonlyMap<number, number | null>) {
  return repo.setPromoPrices(db, tenantId, prices);
}

/**
 * A promotion starting or ending (docs/PROMOTIONS.md): the tags of these products are relabelled
 * first in line (interactive priority) under a `schedule` data push. Answers how many.
 */
export async function relabelProducts(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  productIds: readonly number[],
  now: number,
): Promise<number> {
  if (productIds.length === 0) return 0;
  const tagIds = await repo.tagIdsShowing(db, at, { productIds });
  if (tagIds.length)
    await dataPushed(db, at, {
      source: 'schedule',
      userId: null,
      products: productIds.length,
      tagIds,
      now,
      prio: PRIO.interactive,
    });
  return tagIds.length;
}

/** A product as a label shows it: its values, its row version (`updated_at`) and its price (cents). */
export interface LabelSource {
  data: Readonly<Record<string, string | null>>;
  version: number;
  /** The price the label is drawn from (what proof of price compares, docs/PROOF.md). */
  priceCents: number;
}

/** Products of a store as label data, by id, for delivery's renders. */
export async function labelDataOf(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  ids: readonly number[],
): Promise<Map<number, LabelSource>> {
  const out = new Map<number, LabelSource>();
  for (const row of await repo.productsByIds(db, at, [...new Set(ids)])) {
    out.set(row.id, {
      data: productLabelData(presentProduct(row)),
      version: Number(row.updated_at),
      priceCents: Number(row.price_cents),
    });
  }
  return out;
}

/** The row fields a set of product changes writes (a scheduled change's fields, docs/SCHEDULE.md). */
function patchOf(changes: ScheduleChanges, now: number): repo.ProductPatch {
  const { price, originalPrice, custom, ...text } = changes;
  const set: repo.ProductPatch = { ...text, updated_at: now };
  if (price !== undefined) set.price_cents = toCents(price);
  if (originalPrice !== undefined) set.original_price_cents = cents(originalPrice);
  if (custom !== undefined) set.custom = JSON.stringify(custom);
  return set;
}

/** A product of a store, or undefined (the schedule module checks what a change names). */
export function findInStore(db: Kysely<Database>, at: { tenantId: number; storeId: number }, id: number) {
  return repo.findProduct(db, { ...at, userId: 0 }, id);
}

/**
 * The products of each of `storeIds` among `barcodes` (id, store, barcode, custom fields), by the
 * (store, barcode) index, 1,000 barcodes a statement: what a scheduled import changes.
 */
export async function withBarcodesIn(
  db: Kysely<Database>,
  dialect: Dialect,
  tenantId: number,
  storeIds: readonly number[],
  barcodes: readonly string[],
) {
  const out: { id: number; store_id: number; barcode: string; custom: string }[] = [];
  for (const storeId of new Set(storeIds)) {
    for (let i = 0; i < barcodes.length; i += 1000) {
      const chunk = barcodes.slice(i, i + 1000);
      for (const p of await repo.productsByBarcodes(db, { tenantId, storeId, userId: 0 }, chunk, dialect)) {
        out.push({ id: p.id, store_id: p.store_id, barcode: p.barcode, custom: p.custom });
      }
    }
  }
  return out;
}

/** Products of other stores of a tenant with this barcode: each store's id and product id. */
export function sameBarcode(db: Kysely<Database>, tenantId: number, storeIds: readonly number[], barcode: string) {
  return repo.productsWithBarcode(db, tenantId, storeIds, barcode);
}

/**
 * Scheduled changes of one store taking effect together (the scheduler's apply step, in its
 * transaction), in the order given: each product's fields written, then the tags of the products
 * written relabelled first in line under ONE `schedule` data push for them all (one row in the
 * data-push log per store and apply batch, not one per change). Answers the ids of the products
 * written; a product gone meanwhile is left out (nothing written, no tag relabelled).
 */
export async function applyScheduledMany(
  trx: Transaction<Database>,
  at: { tenantId: number; storeId: number },
  items: ReadonlyArray<{ productId: number; changes: ScheduleChanges }>,
  now: number,
): Promise<Set<number>> {
  const store = { ...at, userId: 0 };
  const written = new Set<number>();
  for (const { productId, changes } of items)
    if ((await repo.updateProduct(trx, store, productId, patchOf(changes, now))) > 0) written.add(productId);
  if (written.size === 0) return written;
  const tagIds = await repo.tagIdsShowing(trx, at, { productIds: [...written] });
  if (tagIds.length)
    await dataPushed(trx, at, {
      source: 'schedule',
      userId: null,
      products: written.size,
      tagIds,
      now,
      prio: PRIO.interactive,
    });
  return written;
}

/**
 * Label data of products as they will be once these changes (in order) have taken effect: what a
 * timed image shows (docs/SCHEDULE.md). Products not found are left out.
 */
export async function labelDataAfter(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  changes: ReadonlyMap<number, readonly ScheduleChanges[]>,
): Promise<Map<number, Readonly<Record<string, string | null>>>> {
  const out = new Map<number, Readonly<Record<string, string | null>>>();
  for (const row of await repo.productsByIds(db, at, [...changes.keys()])) {
    let next = { ...row };
    for (const c of changes.get(row.id) ?? []) next = { ...next, ...patchOf(c, Number(row.updated_at)) } as typeof row;
    out.set(row.id, productLabelData(presentProduct(next)));
  }
  return out;
}
