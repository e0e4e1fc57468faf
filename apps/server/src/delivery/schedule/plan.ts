import type { ScheduleChanges } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { groupBy } from '../../infra/lib/group';
import type { Notices } from '../../infra/notice/notices';
import type { RenderJob, RenderOutcome } from '../../infra/render';
import * as fonts from '../../modules/fonts/service';
import * as models from '../../modules/models/service';
import * as products from '../../modules/products/service';
import * as promotions from '../../modules/promotions/service';
import { type AppliedRecord, logAppliedMany, notifyApplied } from '../../modules/schedule/applied';
import { timeZones } from '../../modules/stores/service';
import * as templates from '../../modules/templates/service';
import { tasksChanged } from '../../outbox/slots/enqueue';
import { drawingOf, undrawableWhy } from '../tasks/render-stage';
import * as repo from './repository';

/*
 * The scheduler's two steps before dispatch (docs/SCHEDULE.md): due changes take effect (the
 * product is written and its tags relabelled first in line), and every tag whose product has a
 * pending change gets its next timed label planned: the label of the product as it will be at the
 * next change's time, rendered now, to be delivered ahead and shown by the tag at that time.
 */

export interface PlanDeps {
  db: Kysely<Database>;
  now: () => number;
  render: (jobs: RenderJob[]) => Promise<RenderOutcome[]>;
  storeImages: (tenantId: number, images: Extract<RenderOutcome, { hash: string }>[]) => Promise<void>;
  /** A timed label that was at a station and is no longer wanted: the station is asked to drop it. */
  withdraw: (row: repo.TimedRow) => Promise<void>;
  counters: { applied: number; planned: number };
  /** Where the user who scheduled a change hears that it took effect (absent: nobody is told). */
  notices?: Pick<Notices, 'toUser'> | null;
}

/** Due changes read and applied in one transaction (a commit each would be most of the cost). */
export const APPLY_BATCH = 200;

/**
 * Applies the changes whose time has come, oldest first, `APPLY_BATCH` to a transaction, each
 * with its own record: a tag-log row per tag it relabels. Then the users who scheduled them are
 * told, per store and batch (modules/schedule/applied.ts).
 */
export async function applyDue(d: PlanDeps): Promise<number> {
  let n = 0;
  const records: AppliedRecord[] = [];
  const zones = new Map<number, string>();
  for (;;) {
    const due = await repo.dueChanges(d.db, d.now(), APPLY_BATCH);
    if (due.length === 0) break;
    // Read before the transaction (SQLite has one connection: nothing outside it while it runs).
    const unknown = groupBy(
      due.filter((c) => !zones.has(c.store_id)),
      (c) => c.tenant_id,
    );
    for (const [tenantId, changes] of unknown)
      for (const [storeId, zone] of await timeZones(
        d.db,
        tenantId,
        changes.map((c) => c.store_id),
      ))
        zones.set(storeId, zone);
    const done = await d.db.transaction().execute(async (trx) => {
      const now = d.now();
      const mine = await repo.markAppliedMany(
        trx,
        due.map((c) => c.id),
        now,
      );
      // A store's changes together: its products written in order, one relabel push for them.
      const byStore = groupBy(
        due.filter((c) => mine.has(c.id)),
        (c) => `${c.tenant_id}:${c.store_id}`,
      );
      const out: AppliedRecord[] = [];
      for (const list of byStore.values()) {
        const first = list[0] as (typeof list)[number];
        const at = { tenantId: first.tenant_id, storeId: first.store_id };
        const written = await products.applyScheduledMany(
          trx,
          at,
          list.map((c) => ({ productId: c.product_id, changes: JSON.parse(c.changes) as ScheduleChanges })),
          now,
        );
        // A product deleted meanwhile: nothing was written, no tag shows it.
        out.push(
          ...(await logAppliedMany(
            trx,
            at,
            list.filter((c) => written.has(c.product_id)),
            zones.get(first.store_id) ?? 'UTC',
            now,
          )),
        );
      }
      return { out, applied: mine.size };
    });
    n += done.applied;
    records.push(...done.out);
    if (due.length < APPLY_BATCH) break;
  }
  if (records.length && d.notices) {
    try {
      await notifyApplied(d.db, d.notices, records);
    } catch {
      // A notice is a hint for the console: the changes and their records are committed.
    }
  }
  // Promotions starting or ending: their products' tags relabelled first in line.
  n += await promotions.applyTimes(d.db, d.now());
  if (n) {
    d.counters.applied += n;
    tasksChanged();
  }
  return n;
}

interface Plan {
  key: string;
  showAt: number;
  changes: ScheduleChanges[];
}

/** Products a pass plans from the changes it has not planned yet (the fast path). */
export const PLAN_PRODUCTS = 250;
/** Products with a pending change, and labels that are not idle, a sweep pass looks at. */
export const SWEEP_PRODUCTS = 200;
export const SWEEP_LABELS = 500;

/** Where the sweep is: the last product and the last timed label it looked at (0: from the start). */
export interface SweepCursor {
  product: number;
  label: number;
}

/**
 * Each product's next plan: the next moment its label changes — its next pending change, or the
 * start or end of a promotion covering it (docs/PROMOTIONS.md), whichever comes first — and every
 * change up to it, in order.
 */
function plansOf(
  productIds: Iterable<number>,
  rows: Awaited<ReturnType<typeof repo.pendingChangesOf>>,
  promos: ReadonlyMap<number, promotions.ProductPromotions>,
  now: number,
): Map<number, Plan> {
  const byProduct = groupBy(rows, (r) => r.product_id);
  const out = new Map<number, Plan>();
  for (const productId of productIds) {
    const list = byProduct.get(productId) ?? [];
    const next = list.find((r) => Number(r.effective_at) > now);
    if (!next && list.length) continue; // due: it is being applied
    const promo = promos.get(productId);
    const showAt = Math.min(next ? Number(next.effective_at) : Infinity, promo?.times[0] ?? Infinity);
    if (!Number.isFinite(showAt)) continue;
    const upTo = list.filter((r) => Number(r.effective_at) <= showAt);
    out.set(productId, {
      showAt,
      key: `${showAt}|${upTo.map((r) => `${r.id}.${r.updated_at}`).join(',')}|${promo?.key ?? ''}`,
      changes: upTo.map((r) => JSON.parse(r.changes) as ScheduleChanges),
    });
  }
  return out;
}

/**
 * One planner pass, bounded whatever the number of pending changes (docs/SCHEDULE.md "Planning in
 * batches"). The fast path: the next `PLAN_PRODUCTS` products with changes not planned as they
 * are (added, edited, cancelled, applied since: `planned = 0`) are taken and planned. When there
 * are none, the sweep: the next `SWEEP_PRODUCTS` products with a pending change or a promotion to
 * come, and the products of the next `SWEEP_LABELS` labels that are not idle, from where the last
 * sweep pass stopped — it finds what moved outside the changes (a product edited now, a template,
 * a tag bound elsewhere, a promotion) and what a process that stopped mid-pass left. Answers
 * whether there is more to do at once (the engine runs another pass without waiting for its timer).
 */
export async function planTags(d: PlanDeps, cursor: SweepCursor): Promise<boolean> {
  const now = d.now();
  const promos = await promotions.upcoming(d.db, now);
  const dirty = await repo.unplannedProducts(d.db, PLAN_PRODUCTS);
  if (dirty.length) {
    await repo.claimPlanned(d.db, dirty);
    await planProducts(d, dirty, promos, []);
    return true;
  }
  const products = await repo.pendingProductsAfter(d.db, cursor.product, SWEEP_PRODUCTS);
  const last = products.length < SWEEP_PRODUCTS ? Infinity : (products[products.length - 1] as number);
  const ids = new Set(products);
  for (const pid of promos.keys()) if (pid > cursor.product && pid <= last) ids.add(pid);
  cursor.product = Number.isFinite(last) ? last : 0;
  const labels = await repo.activeLabelsAfter(d.db, cursor.label, SWEEP_LABELS);
  cursor.label = labels.length < SWEEP_LABELS ? 0 : (labels[labels.length - 1]?.id ?? 0);
  for (const l of labels) if (l.product_id !== null) ids.add(l.product_id);
  const orphans = labels.filter((l) => l.product_id === null).map((l) => l.tag_id);
  return (await planProducts(d, [...ids], promos, orphans)) > 0;
}

/**
 * Plans the tags of these products whose plan changed: a new next time, a change added, edited or
 * cancelled, or the tag's current label re-rendered (its render key: a product edit, a template) —
 * its timed label is rendered again (rev + 1). A tag with nothing pending any more (and the
 * `orphans`, tags bound to no product now) goes idle, and a label a station still holds for a time
 * to come is withdrawn. Answers how many labels it rendered.
 */
async function planProducts(
  d: PlanDeps,
  productIds: readonly number[],
  promos: ReadonlyMap<number, promotions.ProductPromotions>,
  orphans: readonly number[],
): Promise<number> {
  if (productIds.length === 0 && orphans.length === 0) return 0;
  const now = d.now();
  const plans = plansOf(productIds, await repo.pendingChangesOf(d.db, productIds), promos, now);
  const tags = await repo.tagsOfProducts(d.db, productIds);
  const rows = new Map(
    (await repo.labelsOfTags(d.db, [...tags.map((t) => t.id), ...orphans])).map((r) => [r.tag_id, r]),
  );
  const todo: Array<{ tag: (typeof tags)[number]; plan: Plan; key: string }> = [];
  const wanted = new Set<number>();
  for (const tag of tags) {
    const plan = tag.product_id === null ? undefined : plans.get(tag.product_id);
    if (!plan) continue;
    wanted.add(tag.id);
    const key = `${tag.product_id}|${plan.key}|${tag.render_key ?? ''}`;
    if (rows.get(tag.id)?.plan_key !== key) todo.push({ tag, plan, key });
  }
  const idle: number[] = [];
  for (const row of rows.values()) {
    if (wanted.has(row.tag_id) || row.state === 'idle') continue;
    if ((row.state === 'sent' || row.state === 'held') && row.show_at !== null && Number(row.show_at) > now)
      await d.withdraw(row);
    idle.push(row.id);
  }
  await repo.idleMany(d.db, idle, now);
  for (let i = 0; i < todo.length; i += 256) await renderPlans(d, todo.slice(i, i + 256));
  return todo.length;
}

/** Renders a batch of plans (template by the assignment rules, product values after the changes). */
async function renderPlans(
  d: PlanDeps,
  batch: Array<{ tag: Awaited<ReturnType<typeof repo.tagsOfProducts>>[number]; plan: Plan; key: string }>,
) {
  const jobs: RenderJob[] = [];
  /** Each picture's key → the tag it is drawn for; the other tags with that key → that tag. */
  const drawn = new Map<string, number>();
  const copies = new Map<number, number>();
  /** Each tag's render key once the change has taken effect. */
  const keys = new Map<number, string>();
  const byStore = groupBy(batch, (b) => `${b.tag.tenant_id}:${b.tag.store_id}`);
  for (const group of byStore.values()) {
    const { tenant_id: tenantId, store_id: storeId } = (group[0] as (typeof batch)[number]).tag;
    // The promotion each product shows at its plan's time (docs/PROMOTIONS.md).
    const promos = new Map<number, promotions.PromotionHit>();
    for (const [t, at] of groupBy(group, (g) => g.plan.showAt)) {
      const ids = at.map(({ tag }) => tag.product_id as number);
      for (const [pid, hit] of await promotions.promotionsAt(d.db, { tenantId, storeId }, ids, t)) promos.set(pid, hit);
    }
    const labels = await templates.resolveTemplates(
      d.db,
      group.map(({ tag }) => ({
        id: tag.id,
        tenantId,
        storeId,
        model: tag.model,
        colour: tag.colour,
        productId: tag.product_id,
        promotion: promos.has(tag.product_id as number),
      })),
    );
    const docs = await templates.documentsOf(
      d.db,
      tenantId,
      [...labels.values()].flatMap((l) => (l.templateId === null ? [] : [l.templateId])),
    );
    const data = await products.labelDataAfter(
      d.db,
      { tenantId, storeId },
      new Map(group.map(({ tag, plan }) => [tag.product_id as number, plan.changes])),
    );
    // Drawn as the render stage draws the tag's label once the change has taken effect: the
    // tenant's brand faces, a learned model's panel (render-stage.ts drawingOf).
    const learned = await models.learnedAmong(
      d.db,
      tenantId,
      group.map(({ tag }) => tag.model),
    );
    const brand = await fonts.facesFor(
      d.db,
      tenantId,
      [...docs.values()].map((x) => x.doc),
    );
    for (const { tag } of group) {
      const templateId = labels.get(tag.id)?.templateId;
      const doc = templateId == null ? undefined : docs.get(templateId);
      const own = data.get(tag.product_id as number);
      const values = own && promotions.overlay(own, promos.get(tag.product_id as number));
      const panel = models.panelOf(tag.model, learned);
      if (!doc || !values || templateId == null || undrawableWhy(tag.model, panel)) continue;
      const { job, key } = drawingOf({
        tenantId,
        tagId: tag.id,
        model: tag.model,
        colour: tag.colour,
        templateId,
        doc,
        values,
        brand,
        panel,
      });
      keys.set(tag.id, key);
      // A product's tags of one model share their picture: drawn once (the job has nothing of the tag).
      const same = `${tenantId}|${key}`;
      const first = drawn.get(same);
      if (first !== undefined) {
        copies.set(tag.id, first);
        continue;
      }
      drawn.set(same, tag.id);
      jobs.push(job);
    }
  }
  const outcomes = new Map((jobs.length ? await d.render(jobs) : []).map((o) => [o.tagId, o]));
  const images = new Map<number, Extract<RenderOutcome, { hash: string }>[]>();
  // Stored once each (the drawn ones), then the copies take their picture.
  const tenantOf = new Map(batch.map((b) => [b.tag.id, b.tag.tenant_id]));
  for (const o of outcomes.values()) {
    if (!('hash' in o)) continue;
    const tenantId = tenantOf.get(o.tagId) as number;
    images.set(tenantId, [...(images.get(tenantId) ?? []), o]);
  }
  for (const [tenantId, list] of images) await d.storeImages(tenantId, list);
  for (const [tagId, from] of copies) {
    const o = outcomes.get(from);
    if (o) outcomes.set(tagId, { ...o, tagId });
  }
  // The batch's rows in one statement; a tag without a picture (no template, a render error) is
  // planned as failed: it gets its label when the change takes effect.
  const labels: repo.PlannedLabel[] = batch.map(({ tag, plan, key }) => {
    const o = outcomes.get(tag.id);
    const ok = o !== undefined && 'hash' in o;
    // A picture that lacks characters or a font is drawn again after T, so the render stage
    // reports what it lacks in the tag's log; any other is taken as it is (its key).
    const whole = ok && !o.missingGlyphs?.length && !o.unknownFonts?.length;
    return {
      tag: { id: tag.id, tenantId: tag.tenant_id, storeId: tag.store_id },
      planKey: key,
      showAt: plan.showAt,
      hash: ok ? o.hash : '',
      size: ok ? o.size : 0,
      state: ok ? 'queued' : 'failed',
      renderKey: whole ? (keys.get(tag.id) ?? null) : null,
    };
  });
  await repo.plannedMany(d.db, labels, d.now());
  d.counters.planned += labels.filter((l) => l.state === 'queued').length;
}
