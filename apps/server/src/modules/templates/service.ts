import {
  type DataKeyMapping,
  DEFAULT_KEY_NAMES,
  ErrorCode,
  type ParsedBodyOf,
  STANDARD_DATA_KEYS,
  type StandardDataKeyName,
  TARGET_NAMES_KEPT,
  type TemplateData,
} from '@esl/contract';
import { designSize, ELEMENT_TRAITS, type LabelData, SAMPLE_DATA, type TemplateDocument } from '@esl/labels';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { AppError, conflict, invalidField, notFound } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { Gate } from '../../infra/lib/gate';
import { randomHex } from '../../infra/lib/random';
import { drawPreview, renderThumbnail } from '../../infra/render';
import { labelTagsOfTenant, relabelTenant, rerenderTags, tasksChanged } from '../../outbox/slots/enqueue';
import { facesFor } from '../fonts/service';
import * as products from '../products/service';
import { checkFit, documentColumns, newDocument, readDocument } from './documents';
import { presentTemplate } from './presenter';
import * as repo from './repository';
import { resolveTemplates, rulesUsing } from './rules';

export type { LabelTag } from './assign';
export { assignToTags, resolveTemplate, resolveTemplates } from './rules';
export { installStarter, starterThumbnails } from './starter/install';

const inUse = (detail: string) => new AppError(ErrorCode.IN_USE, { detail });

async function presented(ctx: CallContext, tenantId: number, id: number) {
  const row = await repo.findTemplateRow(ctx.services.db, tenantId, id);
  if (!row) throw notFound();
  return presentTemplate(row);
}

async function ownTemplate(ctx: CallContext, id: number) {
  const { tenantId } = requireTenant(ctx);
  const row = await repo.findTemplate(ctx.services.db, tenantId, id);
  if (!row) throw notFound();
  return row;
}

export async function list(ctx: CallContext, filter: repo.TemplateFilter) {
  const { tenantId } = requireTenant(ctx);
  const { rows, count } = await repo.listTemplates(ctx.services.db, tenantId, filter);
  return { rows: rows.map(presentTemplate), count };
}

/**
 * Draws these templates' thumbnails again (a brand font they name has arrived: they were drawn in
 * the base font). A template saved meanwhile keeps the thumbnail its save drew.
 */
export async function redrawThumbnails(ctx: CallContext, ids: readonly number[]): Promise<number> {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  let redrawn = 0;
  for (const row of await repo.templatesByIds(db, tenantId, ids)) {
    const { doc } = readDocument(row.document, { ...row, colourType: row.colour_type });
    const png = await renderThumbnail(doc, ctx.services.previews, await facesFor(db, tenantId, [doc]));
    await db.transaction().execute(async (trx) => {
      if ((await repo.findTemplate(trx, tenantId, row.id))?.revision !== row.revision) return;
      const key = randomHex(16);
      await repo.saveThumb(trx, { template_id: row.id, tenant_id: tenantId, key, png, revision: row.revision });
      redrawn++;
    });
  }
  return redrawn;
}

/** Inserts a template with its thumbnail; names are unique within a tenant. */
async function create(ctx: CallContext, tenantId: number, name: string, doc: TemplateDocument) {
  const { db } = ctx.services;
  const png = await renderThumbnail(doc, ctx.services.previews, await facesFor(ctx.services.db, tenantId, [doc]));
  const id = await db.transaction().execute(async (trx) => {
    if (await repo.nameTaken(trx, tenantId, name)) throw conflict(name);
    const insert = repo.insertTemplate(trx, {
      tenant_id: tenantId,
      name,
      ...documentColumns(doc),
      revision: 1,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    const { id } = await onUniqueViolation(insert, () => conflict(name));
    await repo.saveThumb(trx, { template_id: id, tenant_id: tenantId, key: randomHex(16), png, revision: 1 });
    return id;
  });
  ctx.target = { kind: 'template', name };
  return presented(ctx, tenantId, id);
}

export async function add(ctx: CallContext, fields: ParsedBodyOf<'addTemplate'>) {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'template', name: fields.name };
  return create(ctx, tenantId, fields.name, newDocument(fields));
}

const COPY_WORD = { 'zh-CN': '副本', en: 'copy' } as const;

export async function copy(ctx: CallContext, id: number, name?: string) {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'template', name: `#${id}` };
  const source = await ownTemplate(ctx, id);
  const { doc } = readDocument(source.document, { ...source, colourType: source.colour_type });
  return create(ctx, tenantId, name ?? (await copyName(ctx, tenantId, source.name)), doc);
}

/** "<name> - copy", then "<name> - copy 2", … the first that is free (within 64 characters). */
async function copyName(ctx: CallContext, tenantId: number, name: string): Promise<string> {
  const suffix = ` - ${COPY_WORD[ctx.lang]}`;
  for (let n = 1; ; n++) {
    const tail = n === 1 ? suffix : `${suffix} ${n}`;
    const candidate = name.slice(0, 64 - tail.length) + tail;
    if (!(await repo.nameTaken(ctx.services.db, tenantId, candidate))) return candidate;
  }
}

/**
 * Deletes templates, all or nothing: one id that is not the tenant's refuses the whole call, and
 * one that an assignment rule or a tag names answers IN_USE (1011) naming it.
 */
export async function remove(ctx: CallContext, ids: readonly number[]) {
  const { tenantId } = requireTenant(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'templates', names: unique.map((id) => `#${id}`), count: unique.length };
  return ctx.services.db.transaction().execute(async (trx) => {
    if ((await repo.countTemplates(trx, tenantId, unique)) !== unique.length) throw notFound();
    const names = await repo.templateNamesOf(trx, tenantId, unique, TARGET_NAMES_KEPT);
    ctx.target = { kind: 'templates', names, count: unique.length };
    const used = await rulesUsing(trx, tenantId, unique);
    if (used.size > 0) {
      const inUseNames = await repo.templateNamesOf(trx, tenantId, [...used.keys()], TARGET_NAMES_KEPT);
      throw inUse(inUseNames.join(', '));
    }
    return repo.deleteTemplates(trx, tenantId, unique);
  });
}

export async function load(ctx: CallContext, id: number): Promise<TemplateData> {
  const { tenantId } = requireTenant(ctx);
  const row = await ownTemplate(ctx, id);
  const { doc, repairs } = readDocument(row.document, { ...row, colourType: row.colour_type });
  return { ...(await presented(ctx, tenantId, id)), doc, repairs: [...repairs] };
}

/**
 * Saves a document checked by the labels schema, bumps the revision and redraws the thumbnail.
 * A `revision` older than the stored one answers CONFLICT (someone saved in between).
 */
export async function save(ctx: CallContext, fields: ParsedBodyOf<'alterTemplateData'>) {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'template', name: `#${fields.id}` };
  const own = await ownTemplate(ctx, fields.id);
  ctx.target = { kind: 'template', name: fields.name ?? own.name };
  const doc = checkFit(fields.doc);
  const png = await renderThumbnail(doc, ctx.services.previews, await facesFor(ctx.services.db, tenantId, [doc]));
  await db.transaction().execute(async (trx) => {
    const current = await repo.findTemplate(trx, tenantId, fields.id);
    if (!current) throw notFound();
    if (fields.revision !== undefined && fields.revision !== current.revision) {
      throw conflict(`revision ${current.revision}`);
    }
    if (fields.name !== undefined && (await repo.nameTaken(trx, tenantId, fields.name, fields.id))) {
      throw conflict(fields.name);
    }
    const revision = current.revision + 1;
    const update = repo.updateTemplate(trx, tenantId, fields.id, current.revision, {
      ...(fields.name === undefined ? {} : { name: fields.name }),
      ...documentColumns(doc),
      revision,
      updated_at: ctx.now,
    });
    // No row: another save of the same revision committed in between.
    if (!(await onUniqueViolation(update, () => conflict(fields.name ?? current.name)))) {
      throw conflict(`revision ${revision}`);
    }
    await repo.saveThumb(trx, { template_id: fields.id, tenant_id: tenantId, key: randomHex(16), png, revision });
    // The tags showing it get the new label (re-rendered; only changed pictures are sent).
    await relabelTenant(trx, tenantId, ctx.now);
  });
  tasksChanged();
  return presented(ctx, tenantId, fields.id);
}

/** What sending templates or fonts to the tags started: how many tags, under which data-push rows. */
export interface DeviceSend {
  tags: number;
  pushIds: number[];
}

/**
 * The tags of a tenant whose label (by the assignment rules) passes `uses`, by store. Tags are
 * read a page at a time, so a 20,000-tag tenant costs twenty rule lookups, not one huge IN list.
 */
async function tagsWhoseLabel(
  db: Kysely<Database>,
  tenantId: number,
  uses: (templateIds: readonly number[]) => Promise<Set<number>>,
): Promise<Map<number, number[]>> {
  const byStore = new Map<number, number[]>();
  let after = 0;
  for (;;) {
    const page = await labelTagsOfTenant(db, tenantId, after);
    if (page.length === 0) break;
    after = (page.at(-1) as { id: number }).id;
    const labels = await resolveTemplates(db, page);
    const chosen = [...labels.values()].flatMap((l) => (l.templateId === null ? [] : [l.templateId]));
    const wanted = await uses([...new Set(chosen)]);
    for (const tag of page) {
      const id = labels.get(tag.id)?.templateId;
      if (id == null || !wanted.has(id)) continue;
      byStore.set(tag.storeId, [...(byStore.get(tag.storeId) ?? []), tag.id]);
    }
  }
  return byStore;
}

/** Re-renders these tags (one data-push row per store) and wakes delivery. */
async function rerender(ctx: CallContext, tenantId: number, userId: number, byStore: Map<number, number[]>) {
  const out: DeviceSend = { tags: 0, pushIds: [] };
  if (byStore.size === 0) return out;
  await ctx.services.db.transaction().execute(async (trx) => {
    for (const [storeId, tagIds] of byStore) {
      out.pushIds.push(
        await rerenderTags(trx, { tenantId, storeId }, { source: 'console', userId, tagIds, now: ctx.now }),
      );
      out.tags += tagIds.length;
    }
  });
  tasksChanged();
  return out;
}

/**
 * Sends templates to the tags: every tag whose label uses one of them is rendered again and
 * delivered (a tag already showing the new picture is skipped by its hash).
 */
export async function sendTemplatesToDevices(ctx: CallContext, ids: readonly number[]): Promise<DeviceSend> {
  const { tenantId, userId } = requireTenant(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'templates', names: unique.map((id) => `#${id}`), count: unique.length };
  const names = await repo.templateNamesOf(ctx.services.db, tenantId, unique, TARGET_NAMES_KEPT);
  if (names.length) ctx.target = { kind: 'templates', names, count: unique.length };
  if ((await repo.countTemplates(ctx.services.db, tenantId, unique)) !== unique.length) throw notFound();
  const wanted = new Set(unique);
  const byStore = await tagsWhoseLabel(ctx.services.db, tenantId, async () => wanted);
  return rerender(ctx, tenantId, userId, byStore);
}

/** Whether a label draws text (in a font): text, prices, and barcodes that print their digits. */
export function drawsText(doc: TemplateDocument): boolean {
  return doc.elements.some((e) => ELEMENT_TRAITS[e.type].font && (e.type !== 'barcode' || e.showText));
}

/**
 * The fonts changed: our labels are drawn on the server, so the tags whose labels draw text are
 * rendered again and delivered where the picture changed.
 */
export async function sendFontsToDevices(ctx: CallContext): Promise<DeviceSend> {
  const { tenantId, userId } = requireTenant(ctx);
  ctx.target = { kind: 'fonts' };
  const known = new Map<number, boolean>();
  const byStore = await tagsWhoseLabel(ctx.services.db, tenantId, async (templateIds) => {
    const missing = templateIds.filter((id) => !known.has(id));
    if (missing.length) {
      const docs = await documentsOf(ctx.services.db, tenantId, missing);
      for (const id of missing)
        known.set(id, docs.has(id) && drawsText((docs.get(id) as { doc: TemplateDocument }).doc));
    }
    return new Set(templateIds.filter((id) => known.get(id)));
  });
  return rerender(ctx, tenantId, userId, byStore);
}

const isStandard = (name: string): name is StandardDataKeyName =>
  (STANDARD_DATA_KEYS as readonly string[]).includes(name);

/** Most custom data keys a tenant may have. */
export const MAX_CUSTOM_KEYS = 200;

/** Standard keys first (renamed or with their default name in the caller's language), then custom keys. */
export async function keyMap(ctx: CallContext): Promise<DataKeyMapping[]> {
  const { tenantId } = requireTenant(ctx);
  const rows = await repo.listDataKeys(ctx.services.db, tenantId);
  const named = new Map(rows.map((r) => [r.name, r.t_field]));
  const standard = STANDARD_DATA_KEYS.map((name) => ({
    name,
    tField: named.get(name) ?? DEFAULT_KEY_NAMES[name][ctx.lang],
    standard: true,
  }));
  const custom = rows
    .filter((r) => !isStandard(r.name))
    .map((r) => ({ name: r.name, tField: r.t_field, standard: false }));
  return [...standard, ...custom];
}

export async function alterKey(ctx: CallContext, name: string, tField: string): Promise<DataKeyMapping> {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'dataKey', name };
  await ctx.services.db.transaction().execute(async (trx) => {
    const rows = await repo.listDataKeys(trx, tenantId);
    const custom = rows.filter((r) => !isStandard(r.name));
    const known = rows.some((r) => r.name === name);
    if (!isStandard(name) && !known && custom.length >= MAX_CUSTOM_KEYS) throw invalidField('name', 'tooBig');
    const position = Math.max(0, ...rows.map((r) => r.position)) + 1;
    await repo.upsertDataKey(trx, tenantId, name, tField, position);
  });
  return { name, tField, standard: isStandard(name) };
}

export async function replaceKeys(ctx: CallContext, keys: readonly { name: string; tField: string }[]) {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'dataKeys', count: keys.length };
  const custom = keys.filter((k) => !isStandard(k.name));
  if (custom.length > MAX_CUSTOM_KEYS) throw invalidField('keys', 'tooBig');
  await ctx.services.db.transaction().execute((trx) =>
    repo.replaceDataKeys(
      trx,
      tenantId,
      keys.map((k, position) => ({ ...k, position })),
    ),
  );
  return keyMap(ctx);
}

/** The label as the tag will show it, from a saved or unsaved document and a product or sample data. */
export async function preview(ctx: CallContext, fields: ParsedBodyOf<'templatePreview'>) {
  const { tenantId } = requireTenant(ctx);
  let doc = fields.doc !== undefined ? checkFit(fields.doc) : (await load(ctx, fields.id ?? 0)).doc;
  if (fields.dither) doc = { ...doc, dither: fields.dither };
  const base: LabelData =
    fields.productId !== undefined ? await products.labelData(ctx, fields.productId) : SAMPLE_DATA;
  const { w, h } = designSize(doc);
  const leave = w * h > LARGE_PREVIEW_PIXELS ? previewGate.enter(tenantId) : () => {};
  if (!leave) throw new AppError(ErrorCode.BUSY, { detail: 'previewBusy' });
  try {
    const faces = await facesFor(ctx.services.db, tenantId, [doc]);
    const rendered = await drawPreview(ctx.services.previews, doc, { ...base, ...fields.data }, faces);
    return { ...rendered, colourType: doc.colourType };
  } finally {
    leave();
  }
}

/**
 * Previews above this many pixels (a 1024 × 1024 panel) are drawn one per tenant and two in the
 * process at a time; the next is told to try again. They are drawn in the app's render pool (a
 * worker thread: a 4096 × 4096 preview, one synchronous render in @esl/labels, held every other
 * request for its whole drawing when it ran on the request thread, four at once 1.3 s, issue 11
 * item 3); the gate keeps them from piling up in the pool's queue, each holding a worker for
 * hundreds of milliseconds. Labels of real tags are far below the line.
 */
export const LARGE_PREVIEW_PIXELS = 1024 * 1024;
export const previewGate = new Gate(1, 2);

/** Documents of templates (by id) with their revisions, for delivery's renders. */
export async function documentsOf(
  db: Kysely<Database>,
  tenantId: number,
  ids: readonly number[],
): Promise<Map<number, { doc: TemplateDocument; revision: number }>> {
  const out = new Map<number, { doc: TemplateDocument; revision: number }>();
  for (const row of await repo.templatesByIds(db, tenantId, [...new Set(ids)])) {
    out.set(row.id, {
      doc: readDocument(row.document, { ...row, colourType: row.colour_type }).doc,
      revision: row.revision,
    });
  }
  return out;
}
