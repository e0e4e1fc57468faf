import { sql } from 'kysely';
import { dialectOfDb } from '../../../infra/db/database';
import type { TaskState } from '../../../infra/db/schema';
import * as proof from '../../../modules/proof/repository';
import { PRIO } from '../../../outbox/slots/enqueue';
import { type Db, upsertTagCommandSlots } from '../../../outbox/slots/repository';

/** What a label is drawn from, as proof of price keeps it: the product and its price (null: no product). */
export interface LabelSource {
  productId: number | null;
  priceCents: number | null;
}

/*
 * SQL of the render stage (docs/DELIVERY-ENGINE.md): render slots claimed under a lease, spread
 * over the stations; what their tags need to be drawn; a rendered (or failed) slot and what its
 * tag desires now.
 */

export type RenderSlot = Awaited<ReturnType<typeof claimRenderSpread>>[number];

export function tagsForRender(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select([
      'id',
      'tenant_id',
      'store_id',
      'model',
      'colour',
      'product_id',
      'shown_ver',
      'hardware_id',
      'desired_hash',
      'render_key',
      'nfc_value',
    ])
    .where('id', 'in', ids)
    .execute();
}

/**
 * The timed labels of these tags whose picture is stored, with the render key it was drawn for
 * (docs/SCHEDULE.md "After T"): a relabel whose key is the same takes that picture.
 */
export function timedPictures(db: Db, tagIds: readonly number[]) {
  if (tagIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('timed_labels as l')
    .innerJoin('tag_images as i', (j) => j.onRef('i.tenant_id', '=', 'l.tenant_id').onRef('i.hash', '=', 'l.hash'))
    .select(['l.tag_id', 'l.hash', 'l.size', 'l.render_key'])
    .where('l.tag_id', 'in', tagIds)
    .where('l.render_key', 'is not', null)
    .execute();
}

/**
 * NFC content a rendered label's data gives the tag (docs/SHELF.md), as JSON `{type, value}`: when
 * it is not what was last queued for the tag, the tag remembers it and its `nfc` slot gets a new
 * revision (background priority; a station without `nfc` in its kinds fails it as unsupported).
 */
export async function nfcChanged(
  db: Db,
  c: { tenantId: number; storeId: number; tagId: number; was: string | null; content: string; now: number },
): Promise<boolean> {
  if (c.content === c.was) return false;
  await db.updateTable('tags').set({ nfc_value: c.content }).where('id', '=', c.tagId).execute();
  await upsertTagCommandSlots(db, {
    tenantId: c.tenantId,
    storeId: c.storeId,
    tagIds: [c.tagId],
    kind: 'nfc',
    payload: c.content,
    prio: PRIO.bulk,
    requestId: null,
    now: c.now,
  });
  return true;
}

/**
 * A rendered slot: the tag desires `hash`, drawn from `source` (its product and price, docs/PROOF.md);
 * the slot waits for dispatch (or is done when the tag shows it already).
 */
export async function slotRendered(
  db: Db,
  s: {
    id: number;
    rev: number;
    tagId: number;
    hash: string;
    size: number;
    skip: boolean;
    now: number;
    renderKey: string | null;
    source: LabelSource;
    /** When the change this render carries was made: the tag's screen is wrong since then if it disagrees. */
    changedAt: number;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({
      state: s.skip ? 'done' : 'queued',
      code: s.skip ? 'skipped' : null,
      hash: s.hash,
      size: s.size,
      rendered_at: s.now,
      finished_at: s.skip ? s.now : null,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', '=', 'render')
    .executeTakeFirst();
  // A newer rev arrived while this one rendered: it will set what the tag desires.
  if (Number(r.numUpdatedRows) === 0) return false;
  const { priceCents } = s.source;
  const productId = s.source.productId ?? proof.NO_PRODUCT;
  // The screen as it will be judged once this is written: a tag reporting this picture shows its price.
  const screen = proof.screenOf('', {
    desiredHash: proof.text(s.hash),
    desiredPrice: proof.bigint(priceCents),
    desiredProduct: proof.integer(productId),
    desiredAt: proof.bigint(s.now),
  });
  await db
    .updateTable('tags')
    .set({
      desired_hash: s.hash,
      desired_rev: s.rev,
      desired_at: s.now,
      render_key: s.renderKey,
      desired_price_cents: priceCents,
      desired_product_id: productId,
      ...proof.wrongSince(proof.agrees(screen, proof.integer(productId), proof.bigint(priceCents)), s.changedAt),
    })
    .where('id', '=', s.tagId)
    .execute();
  return true;
}

/**
 * A tag whose new label could not be drawn keeps its screen: when that disagrees with its product
 * now (`source`), its price is wrong since the change (docs/PROOF.md).
 */
export async function labelUnrendered(db: Db, tagId: number, source: LabelSource, changedAt: number): Promise<void> {
  const agreement = proof.agrees(
    proof.screenOf(''),
    proof.integer(source.productId ?? proof.NO_PRODUCT),
    proof.bigint(source.priceCents),
  );
  await db.updateTable('tags').set(proof.wrongSince(agreement, changedAt)).where('id', '=', tagId).execute();
}

/** A slot that could not be rendered: final until its data changes. */
export async function slotFailed(
  db: Db,
  s: { id: number; rev: number; state: TaskState; code: string; detail: string | null; now: number },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({ state: 'failed', code: s.code, detail: s.detail, finished_at: s.now, lease_owner: null, lease_until: null })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', '=', s.state)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Leases up to `limit` slots waiting for a render (or whose render lease ran out), spread over
 * the stations their tags are routed to: each station's first slot before any station's second
 * (by priority, then slot id), so a full-store refresh feeds every station from its first batch
 * instead of rendering one station's tags after another's. A process that dies leaves its slots
 * leased until `leaseMs` has passed; then any process claims them. A slot held by coalescing
 * (`not_before` in the future) waits.
 */
export async function claimRenderSpread(db: Db, owner: string, now: number, leaseMs: number, limit: number) {
  const ranked = db
    .selectFrom('device_tasks as d')
    .leftJoin('tags as t', 't.id', 'd.tag_id')
    .select([
      'd.id',
      'd.prio',
      sql<number>`row_number() over (partition by d.prio, t.station_id order by d.id)`.as('k'),
    ])
    .where('d.state', '=', 'render')
    .where('d.not_before', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .as('r');
  const returned = [
    'id',
    'rev',
    'tenant_id',
    'store_id',
    'tag_id',
    'force',
    'request_id',
    'push_id',
    'hash',
    'size',
    'queued_at',
  ] as const;
  if (dialectOfDb(db) === 'postgres') {
    // Several processes claim at once (scale-out): the spread order picks candidates, and the rows
    // are then locked FOR UPDATE SKIP LOCKED in a materialized CTE, so a row another process is
    // claiming is passed over instead of waited for, and no more than `limit` rows are claimed.
    const candidates = db
      .selectFrom(ranked)
      .select(['r.id', 'r.prio', 'r.k'])
      .orderBy('r.prio')
      .orderBy('r.k')
      .orderBy('r.id')
      .limit(limit * 4);
    return db
      .with('cand', () => candidates)
      .with(
        (cte) => cte('due').materialized(),
        (q) =>
          q
            .selectFrom('device_tasks as d')
            .innerJoin('cand', 'cand.id', 'd.id')
            .select('d.id')
            .where('d.state', '=', 'render')
            .where('d.not_before', '<=', now)
            .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
            .orderBy('cand.prio')
            .orderBy('cand.k')
            .orderBy('cand.id')
            .limit(limit)
            .forUpdate(['d'])
            .skipLocked(),
      )
      .updateTable('device_tasks')
      .from('due')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .whereRef('device_tasks.id', '=', 'due.id')
      .returning(returned.map((c) => `device_tasks.${c}` as const))
      .execute();
  }
  const due = await db
    .selectFrom(ranked)
    .select('r.id')
    .orderBy('r.prio')
    .orderBy('r.k')
    .orderBy('r.id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('device_tasks')
    .set({ lease_owner: owner, lease_until: now + leaseMs })
    .where(
      'id',
      'in',
      due.map((d) => d.id),
    )
    .where('state', '=', 'render')
    .where('not_before', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(returned)
    .execute();
}
