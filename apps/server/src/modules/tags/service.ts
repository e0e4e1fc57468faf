import {
  findTagModel,
  type LearnedTagModel,
  type OpTarget,
  type ParsedBodyOf,
  TARGET_NAMES_KEPT,
  type TagLabel,
  type TagPlace,
  WALL_MAX_TAGS,
} from '@esl/contract';
import type { Kysely } from 'kysely';
import type { CallContext } from '../../api/context';
import { conflict, notFound } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { relabelTags, tasksChanged } from '../../outbox/slots/enqueue';
import * as requests from '../../outbox/slots/requests';
import * as models from '../models/service';
import { clearGone, tagProblemKinds } from '../problems/service';
import * as products from '../products/service';
import { type CurrentStore, currentStore } from '../stores/service';
import * as templates from '../templates/service';
import * as repo from './repository';

export type LabelledTag = repo.TagDetailRow & {
  label: TagLabel;
  /** The learned model the tag is of (its `model` is a key the tenant's stations taught), else null. */
  learnedModel: LearnedTagModel | null;
  /** Its station reported a model key no station of the tenant described. */
  unknownModel: boolean;
};

/**
 * Tag rows with the template each shows and why (docs/TEMPLATES.md, "Which template a tag
 * shows"), and the learned model each is of.
 */
async function labelled(db: Kysely<Database>, at: CurrentStore, rows: readonly repo.TagDetailRow[]) {
  const learned = await models.learnedAmong(
    db,
    at.tenantId,
    rows.flatMap((r) => [r.model, r.hardware_model]),
  );
  const labels = await templates.resolveTemplates(
    db,
    rows.map((r) => ({
      id: r.id,
      tenantId: at.tenantId,
      storeId: at.storeId,
      model: r.model,
      colour: r.colour,
      productId: r.product_id,
    })),
  );
  return rows.map(
    (r): LabelledTag => ({
      ...r,
      label: labels.get(r.id) as TagLabel,
      learnedModel: learned.get(r.model) ?? null,
      unknownModel: models.isLearnedKey(r.hardware_model) && !learned.has(r.hardware_model),
    }),
  );
}

export async function list(ctx: CallContext, f: repo.TagFilter) {
  const at = await currentStore(ctx);
  const { rows, count } = await repo.listTags(ctx.services.db, at, f);
  return { rows: await labelled(ctx.services.db, at, rows), count };
}

/** How many IDs a conflict message names before it says "…". */
const NAMED_CONFLICTS = 5;

/**
 * Adds tags of one model to the current store, all or nothing: an ID the tenant has already (in
 * any store) refuses the whole call and names the IDs.
 */
export async function add(ctx: CallContext, body: ParsedBodyOf<'addTag'>) {
  const at = await currentStore(ctx);
  const model = findTagModel(body.model);
  if (!model) throw notFound();
  const colour = body.colour ?? model.colours[0];
  const ids = [...new Set(body.hardwareIds)];
  ctx.target = { kind: 'tags', names: ids, count: ids.length };
  const { db } = ctx.services;
  const duplicate = () => conflict(ids.slice(0, NAMED_CONFLICTS).join(', '));
  const created = await onUniqueViolation(
    db.transaction().execute(async (trx) => {
      // Held here or by another tenant: the same answer, which never names the holder.
      const taken = await repo.takenHardwareIds(trx, ids);
      if (taken.length) {
        const named = taken.slice(0, NAMED_CONFLICTS).join(', ');
        throw conflict(taken.length > NAMED_CONFLICTS ? `${named} …` : named);
      }
      const newIds = await repo.insertTags(
        trx,
        ids.map((hardware_id) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          hardware_id,
          model: model.code,
          colour,
          status: 'unknown',
          hardware_model: '',
          created_at: ctx.now,
        })),
      );
      return repo.findTagsByIds(trx, at, newIds);
    }),
    duplicate,
  );
  return labelled(db, at, created);
}

/**
 * Tag ids of the current store for hardware IDs, all or nothing: the first ID the store does not
 * have refuses the call (1002 naming it). Integration calls name tags this way.
 */
export async function idsOfHardwareIds(ctx: CallContext, hardwareIds: readonly string[]): Promise<number[]> {
  const at = await currentStore(ctx);
  const found = await repo.idsByHardwareIds(ctx.services.db, at, hardwareIds);
  const missing = hardwareIds.find((h) => !found.has(h));
  if (missing !== undefined) throw notFound({ kind: 'tag', value: missing });
  return hardwareIds.map((h) => found.get(h) as number);
}

/** All or nothing: an id that is not a tag of the current store refuses the whole call. */
/** Before the tags are known: their ids. */
function idsTarget(ids: readonly number[]): OpTarget {
  const unique = [...new Set(ids)];
  return { kind: 'tags', names: unique.map((id) => `#${id}`), count: unique.length };
}

/** The tags by their hardware IDs (the first few), for the operation log. */
async function tagsTarget(db: Kysely<Database>, at: CurrentStore, ids: readonly number[]): Promise<OpTarget> {
  const unique = [...new Set(ids)];
  return { kind: 'tags', names: await repo.hardwareIdsOf(db, at, unique, TARGET_NAMES_KEPT), count: unique.length };
}

async function requireTags(db: Kysely<Database>, at: CurrentStore, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  const mine = await repo.tagIdsIn(db, at, unique);
  if (mine.size !== unique.length) throw notFound();
  return unique;
}

export async function remove(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  ctx.target = idsTarget(ids);
  const deleted = await ctx.services.db.transaction().execute(async (trx) => {
    const unique = await requireTags(trx, at, ids);
    ctx.target = await tagsTarget(trx, at, unique);
    return repo.deleteTags(trx, at, unique);
  });
  return deleted;
}

/**
 * The handheld flow: the tag by its hardware ID and the product by its barcode, both of the
 * current store. A tag shows one product, so binding replaces what it showed; a product may be
 * on many tags.
 */
export async function bind(ctx: CallContext, hardwareId: string, barcode: string) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'binding', name: hardwareId, extra: barcode };
  const tag = await repo.findTagByHardwareId(db, at.tenantId, hardwareId);
  if (!tag || tag.store_id !== at.storeId) throw notFound({ kind: 'tag', value: hardwareId });
  const product = await products.findByBarcode(db, at, barcode);
  if (!product) throw notFound({ kind: 'barcode', value: barcode });
  await db.transaction().execute(async (trx) => {
    await repo.setProduct(trx, at, [tag.id], product.id);
    await relabelTags(trx, at, [tag.id], ctx.now);
  });
  tasksChanged();
  const [row] = await labelled(db, at, await repo.findTagsByIds(db, at, [tag.id]));
  if (!row) throw notFound();
  return row;
}

export async function unbind(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  ctx.target = idsTarget(ids);
  const unique = await requireTags(ctx.services.db, at, ids);
  ctx.target = await tagsTarget(ctx.services.db, at, unique);
  const unbound = await ctx.services.db.transaction().execute(async (trx) => {
    const n = await repo.setProduct(trx, at, unique, null);
    // Unbound on purpose: no longer misused for a product deleted before (docs/PROBLEMS.md).
    await clearGone(trx, at.tenantId, unique);
    await relabelTags(trx, at, unique, ctx.now);
    return n;
  });
  tasksChanged();
  return unbound;
}

/**
 * Sets (or clears, with null) the template of tags of the current store, overriding every rule;
 * all or nothing: an id that is not a tag of the store, or a tag the template does not fit,
 * refuses the whole call.
 */
export async function setTemplate(ctx: CallContext, ids: readonly number[], templateId: number | null) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const unique = await requireTags(db, at, ids);
  const rows = await repo.findTagsByIds(db, at, unique);
  return templates.assignToTags(ctx, at, rows, templateId);
}

/** Who operates, where, when (the delivery requests' view of the call). */
async function operator(ctx: CallContext) {
  const at = await currentStore(ctx);
  return { tenantId: at.tenantId, storeId: at.storeId, userId: at.userId, now: ctx.now };
}

/** Refresh some tags (or, with null, every tag of the store): answers the request id at once. */
export async function refresh(ctx: CallContext, ids: readonly number[] | null, force: boolean) {
  const op = await operator(ctx);
  const tagIds = ids === null ? null : await requireTags(ctx.services.db, op, ids);
  ctx.target = tagIds === null ? { kind: 'allTags' } : await tagsTarget(ctx.services.db, op, tagIds);
  return requests.refresh(ctx.services.db, op, tagIds, force);
}

/** Roll call of some tags (a ping each) or, with null, of every tag (one job per station). */
export async function rollCall(ctx: CallContext, ids: readonly number[] | null, led?: requests.LedPattern) {
  const op = await operator(ctx);
  if (ids === null) {
    ctx.target = { kind: 'allTags' };
    return requests.rollCallAll(ctx.services.db, op);
  }
  const tagIds = await requireTags(ctx.services.db, op, ids);
  ctx.target = await tagsTarget(ctx.services.db, op, tagIds);
  return requests.ping(ctx.services.db, op, tagIds, led);
}

export async function flashLed(ctx: CallContext, ids: readonly number[], led: requests.LedPattern) {
  const op = await operator(ctx);
  const tagIds = await requireTags(ctx.services.db, op, ids);
  ctx.target = await tagsTarget(ctx.services.db, op, tagIds);
  return requests.led(ctx.services.db, op, tagIds, led);
}

/** Label pages (docs/PAGES.md): tags show page `page` (at `at`, or now), back to page 1 after `staySeconds`. */
export async function showPage(
  ctx: CallContext,
  ids: readonly number[],
  page: number,
  staySeconds: number,
  at?: number,
) {
  const op = await operator(ctx);
  const tagIds = await requireTags(ctx.services.db, op, ids);
  ctx.target = await tagsTarget(ctx.services.db, op, tagIds);
  // A time already past is now: the tags switch at their next check-in.
  const timed = at !== undefined && at > op.now ? { at } : {};
  return requests.showPage(ctx.services.db, op, tagIds, { page, stayS: staySeconds, ...timed });
}

/**
 * Progress of one of the caller's tenant's operations with each tag's result (the integration
 * API: the key names a tenant, not a store).
 */
export async function progressWithResults(ctx: CallContext, id: number) {
  const tenantId = ctx.caller?.tenantId;
  if (tenantId === null || tenantId === undefined) throw notFound();
  const found = await requests.progress(ctx.services.db, tenantId, id);
  if (!found) throw notFound();
  return { ...found, results: await requests.results(ctx.services.db, tenantId, id) };
}

/** Progress of one of the tenant's operations. */
export async function progress(ctx: CallContext, id: number) {
  const at = await currentStore(ctx);
  const found = await requests.progress(ctx.services.db, at.tenantId, id);
  if (!found) throw notFound();
  return found;
}

/* Where a tag is (docs/SHELF.md). */

/** How the operation log writes a place: `A3 / 2 / 4 / #7`, '—' when cleared. */
function placeText(p: TagPlace): string {
  const parts = [p.aisle, p.bay, p.shelf].map((v) => v ?? '');
  if (p.position !== null) parts.push(`#${p.position}`);
  return parts.some(Boolean) ? parts.join(' / ') : '—';
}

/** Sets where one tag of the current store is, by id or hardware ID (the handheld's scan). */
export async function setPosition(
  ctx: CallContext,
  body: TagPlace & { id?: number | undefined; hardwareId?: string | undefined },
) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const place: TagPlace = { aisle: body.aisle, bay: body.bay, shelf: body.shelf, position: body.position };
  let id = body.id;
  if (body.hardwareId !== undefined) {
    ctx.target = { kind: 'tagPlace', name: body.hardwareId, extra: placeText(place) };
    const tag = await repo.findTagByHardwareId(db, at.tenantId, body.hardwareId);
    if (!tag || tag.store_id !== at.storeId || (id !== undefined && id !== tag.id)) {
      throw notFound({ kind: 'tag', value: body.hardwareId });
    }
    id = tag.id;
  }
  if (id === undefined) throw notFound();
  const [row] = await repo.findTagsByIds(db, at, [id]);
  if (!row) throw notFound();
  ctx.target = { kind: 'tagPlace', name: row.hardware_id, extra: placeText(place) };
  await repo.setPlaces(db, at, [{ id, ...place }]);
  const [updated] = await labelled(db, at, await repo.findTagsByIds(db, at, [id]));
  if (!updated) throw notFound();
  return updated;
}

/** Sets where many tags of the current store are, by hardware ID; all or nothing. */
export async function importPositions(ctx: CallContext, rows: ReadonlyArray<TagPlace & { hardwareId: string }>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'tags', names: rows.slice(0, TARGET_NAMES_KEPT).map((r) => r.hardwareId), count: rows.length };
  return db.transaction().execute(async (trx) => {
    const wanted = [...new Set(rows.map((r) => r.hardwareId))];
    const found = new Map<string, number>();
    for (let i = 0; i < wanted.length; i += 500) {
      for (const [h, id] of await repo.idsByHardwareIds(trx, at, wanted.slice(i, i + 500))) found.set(h, id);
    }
    const missing = wanted.find((h) => !found.has(h));
    if (missing !== undefined) throw notFound({ kind: 'tag', value: missing });
    // A hardware ID given twice: its last row wins.
    const last = new Map(rows.map((r) => [r.hardwareId, r]));
    return repo.setPlaces(
      trx,
      at,
      [...last.values()].map((r) => ({
        id: found.get(r.hardwareId) as number,
        aisle: r.aisle,
        bay: r.bay,
        shelf: r.shelf,
        position: r.position,
      })),
    );
  });
}

/** The store wall: the current store's placed tags in wall order, and the problem kinds of its tags. */
export async function wall(ctx: CallContext, aisle: string | undefined) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const [rows, { aisles, unplaced }, problems] = await Promise.all([
    repo.wallTags(db, at, aisle, WALL_MAX_TAGS),
    repo.aislesOf(db, at),
    tagProblemKinds(ctx, at),
  ]);
  return { aisles, unplaced, truncated: rows.length > WALL_MAX_TAGS, rows: rows.slice(0, WALL_MAX_TAGS), problems };
}
