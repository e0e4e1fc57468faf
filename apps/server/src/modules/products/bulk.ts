import { type OpenProductInput, TARGET_NAMES_KEPT } from '@esl/contract';
import type { CallContext } from '../../api/context';
import { invalidField } from '../../api/errors';
import { transact } from '../../infra/db/retry';
import { toCents } from '../../infra/lib/price';
import { dataPushed, tasksChanged } from '../../outbox/slots/enqueue';
import { dataChange } from '../../outbox/slots/requests';
import { currentStore } from '../stores/service';
import * as repo from './repository';

/** Every column an upsert may change on an existing product (created_at and the counters stay). */
const UPDATED: readonly repo.ImportColumn[] = [
  'qrcode',
  'name',
  'price_cents',
  'original_price_cents',
  'unit',
  'spec',
  'origin',
  'grade',
  'custom',
  'updated_at',
];

/** Custom fields in a stable text, so the same set compares equal whatever order it came in. */
function customText(custom: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(custom).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

function parseCustom(text: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * Adds or updates products of the current store by barcode, all or nothing, in one transaction
 * and batched statements (the integration API's bulk upsert). A new barcode needs a name and a
 * price; on a known one only the fields given change. A product already as asked is not written
 * at all (its `updated_at` stays), so the same call twice leaves the same state. Answers, besides
 * the counts, the request (`requestId`, `tasks`: the tags to relabel) whose progress and "request
 * done" callback tell when the tags show the change.
 */
export async function upsertByBarcode(ctx: CallContext, items: readonly OpenProductInput[], field = 'products') {
  const at = await currentStore(ctx);
  const { db, dialect } = ctx.services;
  ctx.target = {
    kind: 'products',
    names: items.slice(0, TARGET_NAMES_KEPT).map((p) => p.barcode),
    count: items.length,
  };
  const answer = await transact(db, async (trx) => {
    const existing = new Map(
      (
        await repo.productsByBarcodes(
          trx,
          at,
          items.map((p) => p.barcode),
          dialect,
        )
      ).map((row) => [row.barcode, row]),
    );
    const values: unknown[][] = [];
    const changed: number[] = [];
    let created = 0;
    let updated = 0;
    items.forEach((item, i) => {
      const row = existing.get(item.barcode);
      if (!row) {
        if (!item.name) throw invalidField(`${field}.${i}.name`, 'required');
        if (item.price === undefined) throw invalidField(`${field}.${i}.price`, 'required');
      }
      const next = {
        qrcode: item.qrcode ?? row?.qrcode ?? '',
        name: item.name || row?.name || '',
        price_cents: item.price !== undefined ? toCents(item.price) : Number(row?.price_cents ?? 0),
        original_price_cents:
          item.originalPrice !== undefined
            ? item.originalPrice === null
              ? null
              : toCents(item.originalPrice)
            : row?.original_price_cents === null || row?.original_price_cents === undefined
              ? null
              : Number(row.original_price_cents),
        unit: item.unit ?? row?.unit ?? '',
        spec: item.spec ?? row?.spec ?? '',
        origin: item.origin ?? row?.origin ?? '',
        grade: item.grade ?? row?.grade ?? '',
        custom: customText(item.custom ?? parseCustom(row?.custom ?? '{}')),
      };
      if (row) {
        const same =
          next.qrcode === row.qrcode &&
          next.name === row.name &&
          next.price_cents === Number(row.price_cents) &&
          next.original_price_cents === (row.original_price_cents === null ? null : Number(row.original_price_cents)) &&
          next.unit === row.unit &&
          next.spec === row.spec &&
          next.origin === row.origin &&
          next.grade === row.grade &&
          next.custom === customText(parseCustom(row.custom));
        if (same) return;
        updated++;
        changed.push(Number(row.id));
      } else {
        created++;
      }
      values.push([
        at.tenantId,
        at.storeId,
        item.barcode,
        next.qrcode,
        next.name,
        next.price_cents,
        next.original_price_cents,
        next.unit,
        next.spec,
        next.origin,
        next.grade,
        next.custom,
        0,
        ctx.now,
        ctx.now,
      ]);
    });
    if (values.length) await repo.upsertProducts(trx, dialect, values, UPDATED);
    // The tags showing a changed product are re-rendered and delivered, in this transaction
    // (a new product has no tags yet), under one request; the batch is one row of the data-push log.
    const tagIds = changed.length ? await repo.tagIdsShowing(trx, at, { productIds: changed }, dialect) : [];
    const request = await dataChange(trx, operator(at, ctx.now), 'product.upsert', tagIds, async (requestId) => {
      await dataPushed(trx, at, {
        source: 'api',
        userId: null,
        products: created + updated,
        tagIds,
        now: ctx.now,
        requestId,
      });
      return tagIds.length;
    });
    return { created, updated, unchanged: items.length - created - updated, ...request };
  });
  tasksChanged();
  return answer;
}

/**
 * Deletes products of the current store by barcode; barcodes it does not have are passed over.
 * Answers how many were deleted and the request of their tags' new (unbound) labels.
 */
export async function removeByBarcodes(ctx: CallContext, barcodes: readonly string[]) {
  const at = await currentStore(ctx);
  ctx.target = { kind: 'products', names: barcodes.slice(0, TARGET_NAMES_KEPT), count: barcodes.length };
  const { db, dialect } = ctx.services;
  const answer = await transact(db, async (trx) => {
    const rows = await repo.productsByBarcodes(trx, at, barcodes, dialect);
    const ids = rows.map((r) => Number(r.id));
    // Their tags lose the product (the foreign key sets it null): they show the unbound label.
    const tagIds = ids.length ? await repo.tagIdsShowing(trx, at, { productIds: ids }, dialect) : [];
    const deleted = ids.length ? await repo.deleteProducts(trx, at, ids) : 0;
    const request = await dataChange(trx, operator(at, ctx.now), 'product.delete', tagIds, async (requestId) => {
      await dataPushed(trx, at, { source: 'api', userId: null, products: ids.length, tagIds, now: ctx.now, requestId });
      return tagIds.length;
    });
    return { deleted, ...request };
  });
  tasksChanged();
  return answer;
}

/** The integration key acting in a store: no user behind it. */
function operator(at: { tenantId: number; storeId: number }, now: number) {
  return { tenantId: at.tenantId, storeId: at.storeId, userId: null, now };
}
