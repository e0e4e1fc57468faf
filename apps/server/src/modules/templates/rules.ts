import {
  findTagModel,
  type ParsedBodyOf,
  PROMOTION_RULE_KEY,
  TARGET_NAMES_KEPT,
  type TagLabel,
  type TemplateRule,
} from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { conflict, invalidField, notFound } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { relabelTags, relabelTenant, tasksChanged } from '../../outbox/slots/enqueue';
import * as models from '../models/service';
import * as products from '../products/service';
import { currentStore } from '../stores/service';
import { fitProblem, type LabelTag, pickTemplate } from './assign';
import * as repo from './repository';
import * as rulesRepo from './rules/repository';

/**
 * The template each tag shows and the rule that chose it (docs/TEMPLATES.md, "Which template a
 * tag shows"): the one function the tag list, and later rendering and delivery, ask. Reads the
 * rules once per store, and the products only when a category rule could match them.
 */
export async function resolveTemplates(
  db: Kysely<Database>,
  tags: readonly LabelTag[],
): Promise<Map<number, TagLabel>> {
  const out = new Map<number, TagLabel>();
  const byStore = new Map<string, LabelTag[]>();
  for (const tag of tags) {
    const key = `${tag.tenantId}:${tag.storeId}`;
    byStore.set(key, [...(byStore.get(key) ?? []), tag]);
  }
  for (const group of byStore.values()) {
    const { tenantId, storeId } = group[0] as LabelTag;
    const found = await rulesRepo.rulesForTags(
      db,
      tenantId,
      storeId,
      group.map((t) => t.id),
    );
    const bound = group.flatMap((t) => (t.productId === null ? [] : [t.productId]));
    const fields =
      bound.length > 0 && found.some((r) => r.kind === 'category')
        ? await products.ruleFields(db, { tenantId, storeId }, bound)
        : new Map<number, Record<string, string>>();
    const learned = await models.learnedAmong(
      db,
      tenantId,
      group.map((t) => t.model),
    );
    for (const tag of group) {
      const own = tag.productId === null ? null : (fields.get(tag.productId) ?? {});
      // The template's promotion variant: a category rule on `promotion` = 1 (docs/PROMOTIONS.md).
      const values = own && tag.promotion ? { ...own, [PROMOTION_RULE_KEY]: '1' } : own;
      out.set(tag.id, pickTemplate(tag, values, found, learned));
    }
  }
  return out;
}

/** The template one tag shows and why. */
export async function resolveTemplate(db: Kysely<Database>, tag: LabelTag): Promise<TagLabel> {
  return (await resolveTemplates(db, [tag])).get(tag.id) as TagLabel;
}

/** The caller's current store id, or null when none is set; `required` answers 1008 instead of null. */
async function storeOf(ctx: CallContext, required: boolean): Promise<number | null> {
  const caller = requireTenant(ctx);
  if (caller.storeId === null && !required) return null;
  return (await currentStore(ctx)).storeId;
}

export function presentRule(
  row: rulesRepo.ListedRuleRow,
  learned: ReadonlyMap<string, { name: string }> = new Map(),
): TemplateRule {
  return {
    id: row.id,
    scope: row.store_id === null ? 'tenant' : 'store',
    storeId: row.store_id,
    kind: row.kind as TemplateRule['kind'],
    tagId: row.tag_id,
    hardwareId: row.hardware_id,
    model: row.model,
    modelName: findTagModel(row.model)?.name ?? learned.get(row.model)?.name ?? row.model,
    colour: row.colour as TemplateRule['colour'],
    matchKey: row.match_key,
    matchValue: row.match_value,
    priority: row.priority,
    templateId: row.template_id,
    templateName: row.template_name,
    updatedAt: Number(row.updated_at),
  };
}

export async function listRules(ctx: CallContext, f: rulesRepo.RuleFilter) {
  const { tenantId } = requireTenant(ctx);
  const storeId = await storeOf(ctx, f.scope === 'store');
  const { rows, count } = await rulesRepo.listRules(ctx.services.db, { tenantId, storeId }, f);
  const learned = await models.learnedAmong(
    ctx.services.db,
    tenantId,
    rows.map((r) => r.model),
  );
  return { rows: rows.map((r) => presentRule(r, learned)), count };
}

/**
 * A template of the tenant that fits every given model and colour type; otherwise 1001 on
 * `templateId` saying whether the size or the colours do not fit.
 */
async function fittingTemplate(
  ctx: CallContext,
  tenantId: number,
  templateId: number,
  tags: readonly { model: string; colour: string }[],
) {
  const template = await repo.findTemplate(ctx.services.db, tenantId, templateId);
  if (!template) throw notFound();
  const shape = { ...template, colourType: template.colour_type };
  const learned = await models.learnedAmong(
    ctx.services.db,
    tenantId,
    tags.map((t) => t.model),
  );
  for (const tag of tags) {
    const problem = fitProblem(shape, tag.model, tag.colour, learned);
    if (problem) throw invalidField('templateId', problem);
  }
  return template;
}

/** Sets the template of a rule, adding the rule when its key is new in its scope. */
export async function setRule(ctx: CallContext, body: ParsedBodyOf<'setTemplateRule'>) {
  const { tenantId } = requireTenant(ctx);
  const storeId = body.scope === 'store' ? await storeOf(ctx, true) : null;
  // A catalogue model, or one the tenant's stations taught (its one colour type).
  const learned = await models.learnedAmong(ctx.services.db, tenantId, [body.model]);
  const model = models.panelOf(body.model, learned);
  if (!model || model.colours.length === 0) throw invalidField('model', 'invalid');
  if (body.colour !== undefined && !model.colours.includes(body.colour)) throw invalidField('colour', 'invalid');
  const colour = body.colour ?? (model.colours[0] as string);
  const key = {
    tenantId,
    storeId,
    kind: body.kind,
    model: model.code,
    colour,
    matchKey: body.kind === 'category' ? (body.matchKey ?? '') : '',
    matchValue: body.kind === 'category' ? (body.matchValue ?? '').trim() : '',
  };
  const match = body.kind === 'category' ? ` ${key.matchKey}=${key.matchValue}` : '';
  const target = {
    kind: storeId === null ? ('tenantRule' as const) : ('storeRule' as const),
    name: `${body.kind} ${model.name}/${colour}${match}`,
    extra: `#${body.templateId}`,
  };
  ctx.target = target;
  const template = await fittingTemplate(ctx, tenantId, body.templateId, [{ model: model.code, colour }]);
  ctx.target = { ...target, extra: template.name };
  const { db } = ctx.services;
  const id = await onUniqueViolation(
    db.transaction().execute(async (trx) => {
      const existing = await rulesRepo.findRuleId(trx, key);
      const patch = { template_id: body.templateId, priority: body.priority, updated_at: ctx.now };
      // Which tags the rule changes is the renderer's question: every tag of the tenant is
      // re-rendered, and only those whose picture changed are sent (skip by hash).
      await relabelTenant(trx, tenantId, ctx.now);
      if (existing) {
        await rulesRepo.updateRule(trx, tenantId, existing.id, patch);
        return existing.id;
      }
      return rulesRepo.insertRule(trx, {
        tenant_id: tenantId,
        store_id: storeId,
        tag_id: null,
        kind: key.kind,
        model: key.model,
        colour: key.colour,
        match_key: key.matchKey,
        match_value: key.matchValue,
        ...patch,
        created_at: ctx.now,
      });
    }),
    () => conflict(`${body.kind} ${model.code}/${colour}${match}`),
  );
  tasksChanged();
  const row = await rulesRepo.findRule(db, tenantId, id);
  if (!row) throw notFound();
  return presentRule(row, learned);
}

/** Deletes rules the caller sees (the tenant's and the current store's), all or nothing. */
export async function removeRules(ctx: CallContext, ids: readonly number[]) {
  const { tenantId } = requireTenant(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'templateRules', count: unique.length };
  const storeId = await storeOf(ctx, false);
  const removed = await ctx.services.db.transaction().execute(async (trx) => {
    if ((await rulesRepo.countRules(trx, { tenantId, storeId }, unique)) !== unique.length) throw notFound();
    await relabelTenant(trx, tenantId, ctx.now);
    return rulesRepo.deleteRules(trx, tenantId, unique);
  });
  tasksChanged();
  return removed;
}

/**
 * Sets (or, with null, clears) the template of tags of one store, all or nothing: every tag must
 * fit the template. The tags module has checked the tags are the caller's.
 */
export async function assignToTags(
  ctx: CallContext,
  at: { tenantId: number; storeId: number },
  tags: readonly { id: number; hardware_id: string; model: string; colour: string }[],
  templateId: number | null,
): Promise<number> {
  const names = tags.slice(0, TARGET_NAMES_KEPT).map((t) => t.hardware_id);
  ctx.target = { kind: 'tagTemplateCleared', names, count: tags.length };
  if (templateId !== null) {
    ctx.target = { kind: 'tagTemplate', names, count: tags.length, extra: `#${templateId}` };
    const template = await fittingTemplate(ctx, at.tenantId, templateId, tags);
    ctx.target = { ...ctx.target, extra: template.name };
  }
  await ctx.services.db.transaction().execute(async (trx) => {
    await rulesRepo.setTagRules(trx, at, tags, templateId, ctx.now);
    await relabelTags(
      trx,
      at,
      tags.map((t) => t.id),
      ctx.now,
    );
  });
  tasksChanged();
  return tags.length;
}

/** How many rules name each of the templates (for the IN_USE refusal of delete). */
export function rulesUsing(db: Kysely<Database>, tenantId: number, templateIds: readonly number[]) {
  return rulesRepo.rulesUsing(db, tenantId, templateIds);
}
