import { createHash } from 'node:crypto';
import type { LabelData, TemplateDocument } from '@esl/labels';
import type { BrandFace } from '@esl/labels/node';
import type { Transaction } from 'kysely';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import { addToPush, appendTagLog, closeRenderedPushes } from '../../infra/logs';
import type { MissingGlyphs, RenderedImage, RenderJob, RenderOutcome } from '../../infra/render';
import * as fonts from '../../modules/fonts/service';
import * as models from '../../modules/models/service';
import * as products from '../../modules/products/service';
import * as promotions from '../../modules/promotions/service';
import * as templates from '../../modules/templates/service';
import { enqueueEvent, type LabelProblemData } from '../../outbox/results/repository';
import { RENDER_LEASE_MS } from './policy';
import * as renderRepo from './render/repository';
import { settled, tagChanged } from './settle';
import type { EngineState } from './state';

/*
 * The render stage (docs/DELIVERY-ENGINE.md): claims slots waiting in `render` under a lease,
 * spread over the stations, resolves what each label shows, renders it through the pool (or
 * reuses the last picture when nothing it depends on changed) and stores the images; the slots
 * go on to `queued` (or done, when the tag shows that picture already, or failed).
 */

/** Slots of the first render claim of a burst: its labels render in well under a second. */
export const FIRST_BATCH = 64;

/** Version of what renders a label: bump it when the renderer or its fonts change pictures. */
const RENDERER = 'r2';

/** What a tag's picture depends on: template and revision, the values it shows, model and colours. */
export function renderKey(
  templateId: number,
  revision: number,
  values: unknown,
  model: string,
  colour: string,
  fontHashes: readonly string[] = [],
): string {
  // The brand fonts' hashes only when there are some, so the keys of every other label stay as they were.
  const parts = [RENDERER, templateId, revision, values, model, colour];
  if (fontHashes.length) parts.push([...fontHashes].sort());
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** The brand faces of a tenant's set that a document names. */
function brandFacesOf(doc: TemplateDocument, faces: readonly BrandFace[]): BrandFace[] {
  if (faces.length === 0) return [];
  const families = fonts.familiesOf(doc);
  return faces.filter((f) => families.has(f.family.toLowerCase()));
}

/** How a refusal for a model no label can be drawn for begins (its code is `unsupported`). */
const UNDRAWABLE = /^tag model \S+ /;

/**
 * Why no label can be drawn for a tag of this model, or null: a learned model whose colours are
 * none of our colour types (docs/PROTOCOL.md §5.13), or a key no station of the tenant taught.
 */
export function undrawableWhy(code: string, panel: models.Panel | undefined): string | null {
  if (!panel) return models.isLearnedKey(code) ? `tag model ${code} is unknown: no station described it` : null;
  if (panel.learned && panel.colours.length === 0) {
    return `tag model ${code} (${panel.name}) has colours no label can be drawn in: ${panel.learned.colours.join(', ')}`;
  }
  return null;
}

/**
 * What a tag's label is drawn from, and its render key: the job for the pool with the brand faces
 * the document names and a learned model's panel. The render stage and the scheduler's planner
 * (a timed label, docs/SCHEDULE.md) both draw through it, so the picture a tag holds for a time is
 * the one the render stage draws once the change has taken effect, and has the same key.
 */
export function drawingOf(o: {
  tenantId: number;
  tagId: number;
  model: string;
  colour: string;
  templateId: number;
  doc: { doc: TemplateDocument; revision: number };
  values: Readonly<Record<string, unknown>>;
  brand: readonly BrandFace[];
  panel: models.Panel | undefined;
}): { job: RenderJob; key: string } {
  const faces = brandFacesOf(o.doc.doc, o.brand);
  const key = renderKey(
    o.templateId,
    o.doc.revision,
    o.values,
    o.model,
    o.colour,
    faces.map((f) => f.hash),
  );
  const panel = o.panel;
  return {
    key,
    job: {
      tenantId: o.tenantId,
      tagId: o.tagId,
      doc: o.doc.doc,
      data: o.values as LabelData,
      model: o.model,
      colour: o.colour,
      ...(faces.length ? { fonts: faces } : {}),
      ...(panel?.learned ? { panel: { w: panel.w, h: panel.h, wext: panel.wext, hexit: panel.hexit } } : {}),
    },
  };
}

/** A claimed batch: what each tag needs, and its renders under way in the pool. */
export interface Claimed {
  slots: renderRepo.RenderSlot[];
  tags: Map<number, Awaited<ReturnType<typeof renderRepo.tagsForRender>>[number]>;
  problems: Map<number, string>;
  keys: Map<number, string>;
  reused: Map<number, { tagId: number; hash: string; size: number }>;
  /** What each tag's label is drawn from (proof of price, docs/PROOF.md). */
  sources: Map<number, renderRepo.LabelSource>;
  /** The NFC content each tag's template and data give, JSON `{type, value}` (docs/SHELF.md). */
  nfc: Map<number, string>;
  outcomes: Promise<RenderOutcome[]>;
}

/**
 * Claims a batch (spread over the stations), reads what its labels show and hands the renders
 * to the pool; answers without waiting for them, so the pump writes the previous batch and
 * dispatches while the workers draw this one.
 */
export async function claimBatch(state: EngineState, size: number): Promise<Claimed | null> {
  const t = state.now();
  const slots = await renderRepo.claimRenderSpread(state.db, state.owner, t, RENDER_LEASE_MS, size);
  if (slots.length === 0) return null;
  const tags = new Map(
    (
      await renderRepo.tagsForRender(
        state.db,
        slots.flatMap((s) => (s.tag_id === null ? [] : [s.tag_id])),
      )
    ).map((x) => [x.id, x]),
  );
  // What each tag shows: its template (by the assignment rules) and its product's data.
  const jobs: RenderJob[] = [];
  const problems = new Map<number, string>();
  const keys = new Map<number, string>();
  const reused = new Map<number, { tagId: number; hash: string; size: number }>();
  const sources = new Map<number, renderRepo.LabelSource>();
  const nfc = new Map<number, string>();
  /** Jobs of tags whose last picture does not do: drawn unless a timed label has their key. */
  const maybeTimed = new Map<number, RenderJob>();
  const byStore = new Map<string, renderRepo.RenderSlot[]>();
  for (const s of slots)
    byStore.set(`${s.tenant_id}:${s.store_id}`, [...(byStore.get(`${s.tenant_id}:${s.store_id}`) ?? []), s]);
  for (const group of byStore.values()) {
    const { tenant_id: tenantId, store_id: storeId } = group[0] as renderRepo.RenderSlot;
    const rows = group.flatMap((s) => {
      const tag = s.tag_id === null ? undefined : tags.get(s.tag_id);
      return tag ? [tag] : [];
    });
    const learned = await models.learnedAmong(
      state.db,
      tenantId,
      rows.map((r) => r.model),
    );
    const bound = rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id]));
    // A promotion running now (docs/PROMOTIONS.md): its price and text, its template variant.
    const promos = await promotions.promotionsAt(state.db, { tenantId, storeId }, bound, t);
    const labels = await templates.resolveTemplates(
      state.db,
      rows.map((r) => ({
        id: r.id,
        tenantId,
        storeId,
        model: r.model,
        colour: r.colour,
        productId: r.product_id,
        promotion: r.product_id !== null && promos.has(r.product_id),
      })),
    );
    const docs = await templates.documentsOf(
      state.db,
      tenantId,
      [...labels.values()].flatMap((l) => (l.templateId === null ? [] : [l.templateId])),
    );
    // The tenant's brand faces its labels name (only this tenant's: another's family falls back).
    const brand = await fonts.facesFor(
      state.db,
      tenantId,
      [...docs.values()].map((d) => d.doc),
    );
    const data = await products.labelDataOf(state.db, { tenantId, storeId }, bound);
    for (const r of rows) {
      const product = r.product_id === null ? undefined : data.get(r.product_id);
      const promo = r.product_id === null ? undefined : promos.get(r.product_id);
      sources.set(r.id, { productId: r.product_id, priceCents: promo?.priceCents ?? product?.priceCents ?? null });
      const panel = models.panelOf(r.model, learned);
      const undrawable = undrawableWhy(r.model, panel);
      if (undrawable) {
        problems.set(r.id, undrawable);
        continue;
      }
      const label = labels.get(r.id);
      const doc = label?.templateId == null ? undefined : docs.get(label.templateId);
      if (!doc) {
        problems.set(r.id, 'noTemplate');
        continue;
      }
      const values = promotions.overlay(product?.data ?? {}, promo);
      // Only a tag whose model has an NFC chip is written (the catalogue's flag, a learned model's).
      const content = panel?.nfc ? nfcContent(doc.doc, values as LabelData) : null;
      if (content) nfc.set(r.id, content);
      // What the picture depends on; unchanged since the last render → the render is skipped too.
      const { job, key } = drawingOf({
        tenantId,
        tagId: r.id,
        model: r.model,
        colour: r.colour,
        templateId: label?.templateId ?? 0,
        doc,
        values,
        brand,
        panel,
      });
      keys.set(r.id, key);
      const slot = group.find((x) => x.tag_id === r.id);
      if (!slot || Number(slot.force)) {
        jobs.push(job);
        continue;
      }
      if (r.render_key === key && r.desired_hash && slot.hash === r.desired_hash && slot.size) {
        reused.set(r.id, { tagId: r.id, hash: r.desired_hash, size: Number(slot.size) });
        continue;
      }
      maybeTimed.set(r.id, job);
    }
  }
  // A scheduled change that took effect: the timed label its tags hold was drawn from the same
  // inputs (the same key), so that picture is taken, not drawn again (docs/SCHEDULE.md "After T").
  if (maybeTimed.size) {
    const timed = await renderRepo.timedPictures(state.db, [...maybeTimed.keys()]);
    for (const p of timed) {
      if (p.render_key !== keys.get(p.tag_id) || !p.hash || !p.size) continue;
      reused.set(p.tag_id, { tagId: p.tag_id, hash: p.hash, size: Number(p.size) });
      maybeTimed.delete(p.tag_id);
    }
    jobs.push(...maybeTimed.values());
  }
  state.counters.renders += jobs.length;
  const outcomes = jobs.length ? state.o.render.render(jobs) : Promise.resolve([]);
  outcomes.catch(() => {}); // awaited by storeBatch; not an unhandled rejection meanwhile
  return { slots, tags, problems, keys, reused, sources, nfc, outcomes };
}

/** Longest NFC value a station writes (docs/PROTOCOL.md §5.16). */
const NFC_MAX = 512;

/** The NFC content a template's `nfc` field takes from a label's data: JSON `{type, value}`, or null when empty. */
export function nfcContent(doc: TemplateDocument, data: LabelData): string | null {
  if (!doc.nfc) return null;
  const raw = data[doc.nfc.key];
  const value = raw === null || raw === undefined ? '' : String(raw).trim().slice(0, NFC_MAX);
  return value === '' ? null : JSON.stringify({ type: doc.nfc.type, value });
}

/**
 * Slots written per transaction when a batch is stored. On SQLite a transaction's queries run one
 * after another on the only connection and the event loop turns only between transactions: a
 * batch of 512 written at once held every other request for its whole length (about 2 s on a
 * loaded 2-core machine, bench/console-stall.bench.ts); 64 slots take a few tens of milliseconds.
 */
export const STORE_CHUNK = 64;

/**
 * Writes a claimed batch once rendered: images, what each tag desires, slots queued (or done, or
 * failed); in transactions of STORE_CHUNK slots, letting other work run between them. A process
 * that dies between two leaves the rest leased, as one that dies before writing: they are claimed
 * again when the lease ends.
 */
export async function storeBatch(state: EngineState, claimed: Claimed): Promise<void> {
  const outcomes = new Map((await claimed.outcomes).map((x) => [x.tagId, x]));
  for (let at = 0; at < claimed.slots.length; at += STORE_CHUNK) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    await storeSlots(state, claimed, outcomes, claimed.slots.slice(at, at + STORE_CHUNK));
  }
}

async function storeSlots(
  state: EngineState,
  claimed: Claimed,
  outcomes: Map<number, RenderOutcome>,
  slots: readonly renderRepo.RenderSlot[],
): Promise<void> {
  const { tags } = claimed;
  await transact(state.db, async (trx) => {
    const images = new Map<number, RenderedImage[]>();
    for (const s of slots) {
      const x = s.tag_id === null ? undefined : outcomes.get(s.tag_id);
      if (!x || !('hash' in x)) continue;
      const tenantId = tags.get(x.tagId)?.tenant_id;
      if (tenantId === undefined) continue;
      images.set(tenantId, [...(images.get(tenantId) ?? []), x]);
    }
    for (const [tenantId, list] of images) await state.o.render.storeImages(trx, tenantId, list);
    const t2 = state.now();
    const pushes = new Map<number, { rendered: number; failed: number; exception?: string }>();
    const pushed: Pushed = (id, ok, why) => {
      if (id === null) return;
      const p = pushes.get(id) ?? { rendered: 0, failed: 0 };
      if (ok) p.rendered++;
      else p.failed++;
      // A failure's reason, or what a rendered label lacks (characters no font draws).
      if (why !== undefined) p.exception ??= why;
      pushes.set(id, p);
    };
    for (const s of slots) await writeSlot(state, trx, claimed, outcomes, s, t2, pushed);
    for (const [id, p] of pushes) {
      await addToPush(trx, id, {
        rendered: p.rendered,
        failed: p.failed,
        ...(p.exception ? { exception: p.exception } : {}),
      });
    }
    // A push whose labels are all rendered (or failed) is finished now.
    await closeRenderedPushes(trx, [...pushes.keys()], t2);
  });
}

/** Counts a slot's label on its data push: rendered (with what it lacks, if anything), or failed and why. */
type Pushed = (id: number | null, ok: boolean, why?: string) => void;

/** One slot of a rendered batch: queued (or done, skipped) with its picture, or failed. */
async function writeSlot(
  state: EngineState,
  trx: Transaction<Database>,
  claimed: Claimed,
  outcomes: Map<number, RenderOutcome>,
  s: renderRepo.RenderSlot,
  t2: number,
  pushed: Pushed,
) {
  const { tags, problems, keys, reused, sources } = claimed;
  const tag = s.tag_id === null ? undefined : tags.get(s.tag_id);
  const source = tag && sources.get(tag.id);
  const changedAt = Number(s.queued_at ?? t2);
  const x = s.tag_id === null ? undefined : (outcomes.get(s.tag_id) ?? reused.get(s.tag_id));
  if (!tag || !x || !('hash' in x)) {
    const detail = !tag ? 'noTag' : (problems.get(tag.id) ?? (x && 'error' in x ? x.error : 'noRender'));
    // No template chose the tag: nothing to show, not a failed synthesis (logged only when asked for).
    // A tag whose model no label can be drawn for: refused as unsupported, never reopened.
    const code = detail === 'noTemplate' ? 'noTemplate' : UNDRAWABLE.test(detail) ? 'unsupported' : 'renderError';
    if (
      await renderRepo.slotFailed(trx, {
        id: s.id,
        rev: s.rev,
        state: 'render',
        code,
        detail: detail.slice(0, 200),
        now: t2,
      })
    ) {
      state.counters.renderFailed++;
      // The tag keeps what it shows: a price it no longer has is wrong from the change on.
      if (tag && source) await renderRepo.labelUnrendered(trx, tag.id, source, changedAt);
      pushed(s.push_id, false, `${tag?.hardware_id ?? s.tag_id}: ${detail}`);
      const log = code !== 'noTemplate' || s.request_id !== null;
      await settled(
        state,
        trx,
        { ...s, kind: 'image', hardware_id: tag?.hardware_id, attempt: 0 },
        false,
        log ? { result: 'failed', code } : undefined,
      );
    }
    return;
  }
  const skip = !Number(s.force) && tag.shown_ver === x.hash.slice(0, 16);
  if (
    await renderRepo.slotRendered(trx, {
      id: s.id,
      rev: s.rev,
      tagId: tag.id,
      hash: x.hash,
      size: x.size,
      skip,
      now: t2,
      renderKey: keys.get(tag.id) ?? null,
      source: source ?? { productId: tag.product_id, priceCents: null },
      changedAt,
    })
  ) {
    if (reused.has(tag.id)) state.counters.renderReused++;
    else state.counters.rendered++;
    // A reused picture was reported when it was rendered.
    const missing = reused.has(tag.id) ? [] : ((x as RenderedImage).missingGlyphs ?? []);
    const unknown = reused.has(tag.id) ? [] : ((x as RenderedImage).unknownFonts ?? []);
    const why = [
      ...(missing.length > 0 ? [missingGlyphsText(tag, missing)] : []),
      ...(unknown.length > 0 ? [unknownFontsText(tag, unknown)] : []),
    ];
    pushed(s.push_id, true, why.length > 0 ? why.join('; ') : undefined);
    if (missing.length > 0) await reportMissingGlyphs(trx, s, tag, x.hash, missing, t2);
    // Drawn in the base font where the template names a family the tenant lacks.
    if (unknown.length > 0) await reportUnknownFonts(trx, s, tag, x.hash, unknown, t2);
    if (skip) {
      state.counters.skipped++;
      await settled(state, trx, { ...s, kind: 'image', hardware_id: tag.hardware_id, hash: x.hash, attempt: 0 }, true, {
        result: 'skipped',
        code: 'skipped',
      });
    } else tagChanged(state, s.tenant_id, s.store_id, tag.id);
    // The NFC content follows the label's data: queued only when it differs from the last queued.
    const content = claimed.nfc.get(tag.id);
    if (content) {
      await renderRepo.nfcChanged(trx, {
        tenantId: s.tenant_id,
        storeId: s.store_id,
        tagId: tag.id,
        was: tag.nfc_value,
        content,
        now: t2,
      });
    }
  }
}

type RenderTag = Claimed['tags'] extends Map<number, infer T> ? T : never;

/** "AA000001 product 12: name "한" (U+D55C)": what the push log keeps of a label's missing characters. */
function missingGlyphsText(tag: RenderTag, missing: readonly MissingGlyphs[]): string {
  const codes = (chars: string) =>
    Array.from(chars, (c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
  const what = missing.map((m) => `${m.field ?? m.element} "${m.chars}" (${codes(m.chars)})`).join('; ');
  return `${tag.hardware_id} product ${tag.product_id ?? '-'}: no font can draw ${what}`;
}

/** "AA000001 product 12: font "Acme" of element name is not available": what the push log keeps. */
function unknownFontsText(tag: RenderTag, unknown: readonly { element: string; family: string }[]): string {
  const what = unknown.map((u) => `"${u.family}" (${u.element})`).join(', ');
  return `${tag.hardware_id} product ${tag.product_id ?? '-'}: font ${what} not available, drawn in the base font`;
}

/** A 'render' row of the tag log: the label went out, with what it lacks (`code`). */
async function logRenderProblem(
  trx: Transaction<Database>,
  s: renderRepo.RenderSlot,
  tag: RenderTag,
  hash: string,
  code: 'unknownFont' | 'missingGlyph',
  now: number,
): Promise<void> {
  if (s.tag_id === null || !tag.hardware_id) return;
  await appendTagLog(trx, [
    {
      tenantId: s.tenant_id,
      storeId: s.store_id,
      tagId: s.tag_id,
      hardwareId: tag.hardware_id,
      requestId: s.request_id,
      kind: 'render',
      rev: s.rev,
      result: 'ok',
      code,
      hash,
      finishedAt: now,
    },
  ]);
}

/**
 * A label went out with characters no font of its elements can draw (they show as boxes): never
 * silent. The tag log gets a 'render' row with the code 'missingGlyph' (the delivery's own row
 * follows as usual), and the tenant's callback a `label.problem` event naming the product, the
 * fields and the characters.
 */
async function reportMissingGlyphs(
  trx: Transaction<Database>,
  s: renderRepo.RenderSlot,
  tag: RenderTag,
  hash: string,
  missing: readonly MissingGlyphs[],
  now: number,
) {
  await reportLabelProblem(trx, s, tag, hash, now, {
    code: 'missingGlyph',
    problems: missing.map((m) => ({ element: m.element, field: m.field, chars: m.chars })),
  });
}

/**
 * A label went out drawn in the base font where its template names a family the tenant does not
 * have (deleted, or another tenant's): a 'render' tag-log row with the code 'unknownFont' and a
 * `label.problem` event naming the elements and families.
 */
async function reportUnknownFonts(
  trx: Transaction<Database>,
  s: renderRepo.RenderSlot,
  tag: RenderTag,
  hash: string,
  unknown: readonly { element: string; family: string }[],
  now: number,
) {
  await reportLabelProblem(trx, s, tag, hash, now, {
    code: 'unknownFont',
    problems: unknown.map((u) => ({ element: u.element, family: u.family })),
  });
}

/** The tag-log row and the callback event of a label that went out lacking something. */
async function reportLabelProblem(
  trx: Transaction<Database>,
  s: renderRepo.RenderSlot,
  tag: RenderTag,
  hash: string,
  now: number,
  problem: Pick<LabelProblemData, 'code' | 'problems'>,
) {
  if (s.tag_id === null || !tag.hardware_id) return;
  await logRenderProblem(trx, s, tag, hash, problem.code, now);
  const data: LabelProblemData = {
    storeId: s.store_id,
    tagId: s.tag_id,
    hardwareId: tag.hardware_id,
    productId: tag.product_id,
    requestId: s.request_id,
    ...problem,
  };
  await enqueueEvent(trx, {
    tenantId: s.tenant_id,
    storeId: s.store_id,
    type: 'label.problem',
    orderKey: `tag:${s.tag_id}`,
    data,
    now,
  });
}
