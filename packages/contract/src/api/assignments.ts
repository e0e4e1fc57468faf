import { z } from 'zod';
import { Id, Ids, Line, Paging } from '../common';
import { findTagModel, TagColourType } from '../models';
import { isCustomKey } from './products';
import { TagModelKey } from './tags';

/**
 * Assignment rules: which template a tag shows (docs/TEMPLATES.md, "Which template a tag shows").
 * Beyond SPEC.md, which leaves open how a tag gets its label.
 */

/** Rules set with /mgr/templ/setrule; per-tag overrides ('tag') are set with /mgr/tag/settemplate. */
export const RULE_KINDS = ['default', 'category', 'unbound'] as const;
export const RuleKind = z.enum(RULE_KINDS);
export type RuleKind = z.infer<typeof RuleKind>;
export const ListedRuleKind = z.enum(['tag', ...RULE_KINDS]);
export type ListedRuleKind = z.infer<typeof ListedRuleKind>;

/** 'tenant': every store of the tenant; 'store': the caller's current store only. */
export const RuleScope = z.enum(['tenant', 'store']);
export type RuleScope = z.infer<typeof RuleScope>;

/** The product fields a category rule may match: the text fields, and any custom field key. */
export const RULE_MATCH_FIELDS = ['name', 'unit', 'spec', 'origin', 'grade'] as const;
export const RuleMatchKey = z
  .string()
  .trim()
  .refine((k) => (RULE_MATCH_FIELDS as readonly string[]).includes(k) || isCustomKey(k), 'invalid');

export const TemplateRule = z.object({
  id: z.number().int(),
  scope: RuleScope,
  /** The store of a 'store' rule; null for a tenant rule. */
  storeId: z.number().int().nullable(),
  kind: ListedRuleKind,
  /** The tag of a per-tag override, with its hardware ID; null otherwise. */
  tagId: z.number().int().nullable(),
  hardwareId: z.string().nullable(),
  model: z.string(),
  modelName: z.string(),
  colour: TagColourType,
  /** Category rules: the product field and the value it must have (trimmed, any letter case); '' otherwise. */
  matchKey: z.string(),
  matchValue: z.string(),
  /** Category rules: lower is tried first, then the older rule. */
  priority: z.number().int(),
  templateId: z.number().int(),
  templateName: z.string(),
  updatedAt: z.number().int(),
});
export type TemplateRule = z.infer<typeof TemplateRule>;

export const RuleListBody = Paging.extend({
  /** Left out: the tenant's rules and those of the current store (when one is set). */
  scope: RuleScope.optional(),
  kind: ListedRuleKind.optional(),
  model: TagModelKey.optional(),
  templateId: Id.optional(),
});

/**
 * Sets the template of one rule, adding the rule when its key (scope, kind, model, colour and,
 * for a category rule, field and value) is new. The template must fit the model and colour type.
 */
export const SetRuleBody = z
  .object({
    scope: RuleScope.default('store'),
    kind: RuleKind,
    /** A catalogue code, or the key of one of the tenant's learned models (its colour type then). */
    model: TagModelKey,
    /** One of the model's colour types; the model's usual one when left out. */
    colour: TagColourType.optional(),
    /** Category rules only. */
    matchKey: RuleMatchKey.optional(),
    matchValue: Line(64).optional(),
    priority: z.coerce.number().int().min(0).max(1000).default(0),
    templateId: Id,
  })
  .superRefine((b, ctx) => {
    const catalogue = findTagModel(b.model);
    if (catalogue && b.colour !== undefined && !catalogue.colours.includes(b.colour)) {
      ctx.addIssue({ code: 'custom', path: ['colour'], message: 'invalid' });
    }
    if (b.kind === 'category') {
      if (!b.matchKey) ctx.addIssue({ code: 'custom', path: ['matchKey'], message: 'required' });
      if (!b.matchValue) ctx.addIssue({ code: 'custom', path: ['matchValue'], message: 'required' });
    } else {
      if (b.matchKey) ctx.addIssue({ code: 'custom', path: ['matchKey'], message: 'invalid' });
      if (b.matchValue) ctx.addIssue({ code: 'custom', path: ['matchValue'], message: 'invalid' });
    }
  });

/** Sets (a template id) or clears (null) the template of tags of the current store. */
export const SetTagTemplateBody = z.object({ ids: Ids, templateId: Id.nullable() });
export const SetTagTemplateData = z.object({ updated: z.number().int() });
