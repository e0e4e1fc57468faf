import { randomUUID } from 'node:crypto';
import { fromLocalTime, type ParsedBodyOf, PROMOTION_TEXT_KEY } from '@esl/contract';
import type { Kysely, Updateable } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { invalidField, notFound } from '../../api/errors';
import type { Database, PromotionTable } from '../../infra/db/schema';
import { formatCents, toCents } from '../../infra/lib/price';
import { tasksChanged } from '../../outbox/slots/enqueue';
import * as products from '../products/service';
import { currentStore, scopeOf, storeRefs, timeZones } from '../stores/service';
import { covers, holds, type PromotionLike, winner } from './match';
import { presentPromotion } from './presenter';
import * as repo from './repository';

/*
 * Promotions (docs/PROMOTIONS.md): a promotional price and text for products of a store from a
 * wall-clock time to another. Nothing is written to the products: what a label shows during a
 * promotion is worked out when it is drawn (`promotionsAt`, `overlay`). The scheduler
 * (delivery/schedule) moves each promotion pending → started → ended at its times, relabelling its
 * products' tags then, and delivers the labels for those times ahead as timed labels.
 */

type At = { tenantId: number; storeId: number };

async function zoneOf(db: Kysely<Database>, at: At) {
  return (await timeZones(db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
}

export async function list(ctx: CallContext, f: ParsedBodyOf<'promotionList'>) {
  const at = await currentStore(ctx);
  const { rows, count } = await repo.listPromotions(ctx.services.db, at, f);
  const tz = await zoneOf(ctx.services.db, at);
  return { rows: rows.map((r) => presentPromotion(r, tz)), count };
}

/** Adds a promotion to the current store, or (`chain`) to every store the caller may see. */
export async function add(ctx: CallContext, body: ParsedBodyOf<'addPromotion'>) {
  const at = await currentStore(ctx);
  const caller = requireTenant(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'products', names: body.name ? [body.name] : body.barcodes, count: body.barcodes.length };
  const stores = body.scope === 'chain' ? (await storeRefs(db, scopeOf(caller))).map((s) => s.id) : [at.storeId];
  const zones = await timeZones(db, at.tenantId, stores);
  const batch = randomUUID();
  const rows = stores.map((storeId) => {
    const tz = zones.get(storeId) ?? 'UTC';
    return {
      tenant_id: at.tenantId,
      store_id: storeId,
      name: body.name,
      text: body.text,
      price_cents: toCents(body.price),
      barcodes: JSON.stringify(body.barcodes),
      match_key: body.barcodes.length ? '' : body.matchKey,
      match_value: body.barcodes.length ? '' : body.matchValue,
      start_at: fromLocalTime(body.startAt, tz),
      end_at: fromLocalTime(body.endAt, tz),
      state: 'pending',
      batch,
      // The ERP API's key has no user (0): nobody.
      created_by: at.userId || null,
      created_at: ctx.now,
      updated_at: ctx.now,
    };
  });
  const ids = (await repo.insertPromotions(db, rows)).map((r) => r.id);
  tasksChanged();
  return { ids, stores: stores.length };
}

/** Other fields for a promotion of the current store that has not ended; a started one is relabelled. */
export async function edit(ctx: CallContext, id: number, patch: Omit<ParsedBodyOf<'editPromotion'>, 'id'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const row = await repo.findPromotion(db, at, id);
  if (!row) throw notFound();
  ctx.target = { kind: 'products', names: [row.name || `#${row.id}`], count: 1 };
  const tz = await zoneOf(db, at);
  const set: Updateable<PromotionTable> = { updated_at: ctx.now };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.text !== undefined) set.text = patch.text;
  if (patch.price !== undefined) set.price_cents = toCents(patch.price);
  if (patch.barcodes !== undefined) {
    set.barcodes = JSON.stringify(patch.barcodes);
    if (patch.barcodes.length) Object.assign(set, { match_key: '', match_value: '' });
  }
  if (patch.matchKey !== undefined && !patch.barcodes?.length) set.match_key = patch.matchKey;
  if (patch.matchValue !== undefined && !patch.barcodes?.length) set.match_value = patch.matchValue;
  if (patch.startAt !== undefined) set.start_at = fromLocalTime(patch.startAt, tz);
  if (patch.endAt !== undefined) set.end_at = fromLocalTime(patch.endAt, tz);
  if (Number(set.end_at ?? row.end_at) <= Number(set.start_at ?? row.start_at))
    throw invalidField('endAt', 'beforeStart');
  const next = { ...row, ...set } as repo.PromotionRow;
  if (JSON.parse(next.barcodes).length === 0 && !(next.match_key && next.match_value))
    throw invalidField('barcodes', 'required');
  await db.transaction().execute(async (trx) => {
    if (!(await repo.updateOpen(trx, at, id, set))) throw invalidField('id', 'promoClosed');
    // What the tags show now may change: the products covered before or after are relabelled.
    if (holds(row, ctx.now) || holds(next, ctx.now)) {
      const fields = await products.matchFields(trx, at);
      const ids = [...fields].filter(([, f]) => covers(row, f) || covers(next, f)).map(([pid]) => pid);
      await relabel(trx, at, ids, ctx.now);
    }
  });
  tasksChanged();
  const updated = await repo.findPromotion(db, at, id);
  if (!updated) throw notFound();
  return presentPromotion(updated, tz);
}

/** Cancels promotions of the current store that have not ended: all of them, or none. */
export async function cancel(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'products', names: unique.map((id) => `#${id}`), count: unique.length };
  const n = await ctx.services.db.transaction().execute(async (trx) => {
    const open = await repo.openIn(trx, at, unique);
    if (open.length !== unique.length) throw invalidField('ids', 'promoClosed');
    let done = 0;
    const running: repo.PromotionRow[] = [];
    for (const p of open) {
      if (!(await repo.move(trx, p.id, p.state, 'cancelled', ctx.now))) throw invalidField('ids', 'promoClosed');
      done++;
      if (holds(p, ctx.now)) running.push(p);
    }
    if (running.length) {
      const fields = await products.matchFields(trx, at);
      const covered = [...fields].filter(([, f]) => running.some((p) => covers(p, f))).map(([pid]) => pid);
      await relabel(trx, at, covered, ctx.now);
    }
    return done;
  });
  tasksChanged();
  return n;
}

/**
 * Products whose promotion changed: their `promo_price_cents` set to the winner's price now (null:
 * none runs; the price-accuracy report's "price now"), then their tags relabelled.
 */
async function relabel(db: Kysely<Database>, at: At, productIds: readonly number[], now: number): Promise<void> {
  if (productIds.length === 0) return;
  const hits = await promotionsAt(db, at, productIds, now);
  await products.setPromoPrices(
    db,
    at.tenantId,
    new Map(productIds.map((id) => [id, hits.get(id)?.priceCents ?? null])),
  );
  await products.relabelProducts(db, at, productIds, now);
}

/* ---- What labels show: the render stage and the scheduler ---- */

/** The promotion a product shows at a moment. */
export interface PromotionHit {
  id: number;
  priceCents: number;
  text: string;
  /** Its row version (a plan key part). */
  version: number;
}

/** For products of a store, the promotion each shows at `t` (the overlap rule of match.ts). */
export async function promotionsAt(
  db: Kysely<Database>,
  at: At,
  productIds: readonly number[],
  t: number,
): Promise<Map<number, PromotionHit>> {
  const out = new Map<number, PromotionHit>();
  if (productIds.length === 0) return out;
  const live = await repo.storePromotionsBetween(db, at, t, t + 1);
  if (live.length === 0) return out;
  for (const [pid, f] of await products.matchFields(db, at, productIds)) {
    const best = winner(live.filter((p) => holds(p, t) && covers(p, f)));
    if (best)
      out.set(pid, {
        id: best.id,
        priceCents: Number(best.price_cents),
        text: best.text,
        version: Number(best.updated_at),
      });
  }
  return out;
}

/**
 * A product's label data during a promotion: the promotional price, the regular price as the
 * original price (drawn struck through), the promotion text under `promo`.
 */
export function overlay(
  data: Readonly<Record<string, string | null>>,
  hit: PromotionHit | undefined,
): Readonly<Record<string, string | null>> {
  if (!hit) return data;
  return {
    ...data,
    price: formatCents(hit.priceCents),
    originalPrice: data.price ?? null,
    [PROMOTION_TEXT_KEY]: hit.text,
  };
}

/** The promotion times still to come of each covered product (the scheduler's plan). */
export interface ProductPromotions {
  tenantId: number;
  storeId: number;
  /** Starts and ends after now, ascending. */
  times: number[];
  /** Ids and versions of the promotions covering it (a plan key part). */
  key: string;
}

/** Every product an open promotion covers, with its times to come. */
export async function upcoming(db: Kysely<Database>, now: number): Promise<Map<number, ProductPromotions>> {
  const open = await repo.openPromotions(db);
  const byStore = new Map<string, typeof open>();
  for (const p of open)
    byStore.set(`${p.tenant_id}:${p.store_id}`, [...(byStore.get(`${p.tenant_id}:${p.store_id}`) ?? []), p]);
  const out = new Map<number, ProductPromotions>();
  for (const list of byStore.values()) {
    const { tenant_id: tenantId, store_id: storeId } = list[0] as (typeof open)[number];
    for (const [pid, f] of await products.matchFields(db, { tenantId, storeId })) {
      const mine = list.filter((p) => covers(p, f));
      if (mine.length === 0) continue;
      const times = [...new Set(mine.flatMap((p) => [Number(p.start_at), Number(p.end_at)]))]
        .filter((t) => t > now)
        .sort((a, b) => a - b);
      if (times.length === 0) continue;
      out.set(pid, { tenantId, storeId, times, key: mine.map((p) => `${p.id}.${p.updated_at}`).join(',') });
    }
  }
  return out;
}

/** Where a promotion should be at `now` by its times. */
const stateAt = (p: PromotionLike, now: number) =>
  now < Number(p.start_at) ? 'pending' : now < Number(p.end_at) ? 'started' : 'ended';

/**
 * Moves every open promotion to the state its times say (pending → started → ended, also after a
 * restart that missed a time), each in its own transaction, relabelling its products' tags first in
 * line. Answers how many moved.
 */
export async function applyTimes(db: Kysely<Database>, now: number): Promise<number> {
  let n = 0;
  for (const p of await repo.openPromotions(db)) {
    const to = stateAt(p, now);
    if (to === p.state) continue;
    await db.transaction().execute(async (trx) => {
      if (!(await repo.move(trx, p.id, p.state, to, now))) return;
      const at = { tenantId: p.tenant_id, storeId: p.store_id };
      const fields = await products.matchFields(trx, at);
      const covered = [...fields].filter(([, f]) => covers(p, f)).map(([pid]) => pid);
      await relabel(trx, at, covered, now);
      n++;
    });
  }
  if (n) tasksChanged();
  return n;
}
