import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import { offsetOf } from '../../../infra/db/query';
import type { Database, TemplateRuleTable } from '../../../infra/db/schema';
import type { Rule } from '../assign';

type Db = Kysely<Database>;
type RuleEb = ExpressionBuilder<Database & { r: TemplateRuleTable }, 'r'>;

// Assignment rules: which template a tag shows (docs/TEMPLATES.md, "Which template a tag shows").

/** The rules a caller sees: the tenant's, plus those of one store (its current store) when given. */
export interface RuleScope {
  tenantId: number;
  storeId: number | null;
}

export interface RuleFilter {
  page: number;
  limit: number;
  scope?: 'tenant' | 'store';
  kind?: string;
  model?: string;
  templateId?: number;
}

function inScope(eb: RuleEb, scope: RuleScope, only?: 'tenant' | 'store') {
  const tenantWide = eb('r.store_id', 'is', null);
  if (only === 'tenant' || scope.storeId === null) return only === 'store' ? eb.lit(false) : tenantWide;
  const store = eb('r.store_id', '=', scope.storeId);
  return only === 'store' ? store : eb.or([tenantWide, store]);
}

function withTemplate(db: Db, tenantId: number) {
  return db
    .selectFrom('template_rules as r')
    .innerJoin('templates as t', 't.id', 'r.template_id')
    .where('r.tenant_id', '=', tenantId)
    .select([
      'r.id',
      'r.store_id',
      'r.tag_id',
      'r.kind',
      'r.model',
      'r.colour',
      'r.match_key',
      'r.match_value',
      'r.priority',
      'r.template_id',
      'r.updated_at',
      't.name as template_name',
      't.width',
      't.height',
      't.colour_type',
    ]);
}

type RuleRow = Awaited<ReturnType<ReturnType<typeof withTemplate>['execute']>>[number];

export function toRule(row: RuleRow): Rule {
  return {
    id: row.id,
    storeId: row.store_id,
    tagId: row.tag_id,
    kind: row.kind,
    model: row.model,
    colour: row.colour,
    matchKey: row.match_key,
    matchValue: row.match_value,
    priority: row.priority,
    templateId: row.template_id,
    templateName: row.template_name,
    template: { width: row.width, height: row.height, colourType: row.colour_type },
  };
}

/**
 * Every rule that can choose a template for tags of one store: the tenant's and the store's
 * rules, and the overrides of the given tags.
 */
export async function rulesForTags(db: Db, tenantId: number, storeId: number, tagIds: readonly number[]) {
  const rows = await withTemplate(db, tenantId)
    .where((eb) =>
      eb.or([eb('r.store_id', 'is', null), eb.and([eb('r.store_id', '=', storeId), eb('r.tag_id', 'is', null)])]),
    )
    .execute();
  const overrides: RuleRow[] = [];
  for (let i = 0; i < tagIds.length; i += 1000) {
    const chunk = tagIds.slice(i, i + 1000);
    overrides.push(
      ...(await withTemplate(db, tenantId).where('r.store_id', '=', storeId).where('r.tag_id', 'in', chunk).execute()),
    );
  }
  return [...rows, ...overrides].map(toRule);
}

export async function listRules(db: Db, scope: RuleScope, f: RuleFilter) {
  let q = db
    .selectFrom('template_rules as r')
    .where('r.tenant_id', '=', scope.tenantId)
    .where((eb) => inScope(eb, scope, f.scope));
  if (f.kind) q = q.where('r.kind', '=', f.kind);
  if (f.model) q = q.where('r.model', '=', f.model);
  if (f.templateId) q = q.where('r.template_id', '=', f.templateId);
  const ids = q.select('r.id');
  const [rows, total] = await Promise.all([
    withTemplate(db, scope.tenantId)
      .leftJoin('tags as g', 'g.id', 'r.tag_id')
      .select('g.hardware_id')
      .where('r.id', 'in', ids)
      .orderBy('r.model')
      .orderBy('r.colour')
      .orderBy('r.kind')
      .orderBy('r.priority')
      .orderBy('r.id')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type ListedRuleRow = Awaited<ReturnType<typeof listRules>>['rows'][number];

export function findRule(db: Db, tenantId: number, id: number) {
  return withTemplate(db, tenantId)
    .leftJoin('tags as g', 'g.id', 'r.tag_id')
    .select('g.hardware_id')
    .where('r.id', '=', id)
    .executeTakeFirst();
}

/** The rule with this key in this scope (store null: the tenant's), if any. */
export function findRuleId(
  db: Db,
  key: {
    tenantId: number;
    storeId: number | null;
    kind: string;
    model: string;
    colour: string;
    matchKey: string;
    matchValue: string;
  },
) {
  return db
    .selectFrom('template_rules')
    .select('id')
    .where('tenant_id', '=', key.tenantId)
    .where('store_id', key.storeId === null ? 'is' : '=', key.storeId)
    .where('tag_id', 'is', null)
    .where('kind', '=', key.kind)
    .where('model', '=', key.model)
    .where('colour', '=', key.colour)
    .where('match_key', '=', key.matchKey)
    .where('match_value', '=', key.matchValue)
    .executeTakeFirst();
}

export async function insertRule(db: Db, row: Insertable<TemplateRuleTable>): Promise<number> {
  const { id } = await db.insertInto('template_rules').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateRule(
  db: Db,
  tenantId: number,
  id: number,
  patch: { template_id: number; priority: number; updated_at: number },
) {
  await db.updateTable('template_rules').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** How many of the ids are rules the scope sees (per-tag overrides included). */
export async function countRules(db: Db, scope: RuleScope, ids: readonly number[]) {
  const row = await db
    .selectFrom('template_rules as r')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.tenant_id', '=', scope.tenantId)
    .where((eb) => inScope(eb, scope))
    .where('r.id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteRules(db: Db, tenantId: number, ids: readonly number[]) {
  const result = await db
    .deleteFrom('template_rules')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

/** Replaces the overrides of tags of one store: none (templateId null) or one each. */
export async function setTagRules(
  db: Db,
  at: { tenantId: number; storeId: number },
  tags: readonly { id: number; model: string; colour: string }[],
  templateId: number | null,
  now: number,
) {
  for (let i = 0; i < tags.length; i += 500) {
    const chunk = tags.slice(i, i + 500);
    await db
      .deleteFrom('template_rules')
      .where('tenant_id', '=', at.tenantId)
      .where('store_id', '=', at.storeId)
      .where(
        'tag_id',
        'in',
        chunk.map((t) => t.id),
      )
      .execute();
    if (templateId === null) continue;
    await db
      .insertInto('template_rules')
      .values(
        chunk.map((t) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          tag_id: t.id,
          kind: 'tag',
          model: t.model,
          colour: t.colour,
          template_id: templateId,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** How many rules (per-tag overrides included) name each of the templates that has any. */
export async function rulesUsing(db: Db, tenantId: number, templateIds: readonly number[]) {
  const rows = await db
    .selectFrom('template_rules')
    .select(['template_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('template_id', 'in', templateIds)
    .groupBy('template_id')
    .execute();
  return new Map(rows.map((r) => [r.template_id, Number(r.n)]));
}

/** Inserts rules in one statement. */
export async function insertRules(db: Db, rows: readonly Insertable<TemplateRuleTable>[]) {
  if (rows.length) await db.insertInto('template_rules').values(rows).execute();
}

/** The model, colour type and kind of the tenant's tenant-wide default and unbound rules. */
export function tenantDefaultRules(db: Db, tenantId: number) {
  return db
    .selectFrom('template_rules')
    .select(['kind', 'model', 'colour'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', 'is', null)
    .where('tag_id', 'is', null)
    .where('kind', 'in', ['default', 'unbound'])
    .execute();
}
