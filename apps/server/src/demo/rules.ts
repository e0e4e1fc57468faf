import { findTagModel } from '@esl/contract';
import { fitProblem } from '../modules/templates/assign';
import { relabelTenant } from '../outbox/slots/enqueue';
import { DEMO_MODELS } from './business';
import type { SeedContext, SeedStep } from './step';
import { ALL_DEMO_TEMPLATES } from './templates';

export interface DemoRule {
  kind: 'default' | 'unbound';
  model: string;
  colour: string;
  /** Name of the demo template it names. */
  template: string;
}

const shapeOf = (t: (typeof ALL_DEMO_TEMPLATES)[number]) => ({
  width: t.doc.size.w,
  height: t.doc.size.h,
  colourType: t.doc.colourType ?? 'bwr',
});

/**
 * The tenant-wide rules of the demo: for every model and colour type a demo tag can have, a
 * default label (the template drawn for that model and colour type, else any demo template drawn
 * for that colour type that fits) and the "no product" label for tags without a product; and a
 * default rule for each demo template's own model and colour type, so the other templates are in
 * use too.
 */
export function demoRules(): DemoRule[] {
  const out = new Map<string, DemoRule>();
  const add = (rule: DemoRule) => out.set(`${rule.kind}/${rule.model}/${rule.colour}`, rule);
  for (const t of ALL_DEMO_TEMPLATES) {
    const { model } = t.doc.size;
    if (model && t.doc.colourType !== 'bw')
      add({ kind: 'default', model, colour: t.doc.colourType ?? 'bwr', template: t.name });
  }
  for (const code of new Set(DEMO_MODELS)) {
    const model = findTagModel(code);
    if (!model) continue;
    for (const colour of model.colours) {
      const fitting = ALL_DEMO_TEMPLATES.filter((t) => fitProblem(shapeOf(t), model.code, colour) === null);
      const label =
        fitting.find((t) => t.doc.size.model === model.code && t.doc.colourType === colour) ??
        fitting.find((t) => t.doc.colourType === colour);
      const unbound = fitting.find((t) => t.doc.colourType === 'bw');
      if (label) add({ kind: 'default', model: model.code, colour, template: label.name });
      if (unbound) add({ kind: 'unbound', model: model.code, colour, template: unbound.name });
    }
  }
  return [...out.values()];
}

/**
 * Which label each demo tag shows: the tenant-wide rules of demoRules() whose template this run
 * added (a first start adds them all; a database seeded by an older demo gets the rules of the
 * templates it lacked), and every tag of the tenant queued for a render — so `npm run demo` shows
 * labels on every simulated tag within seconds and a price change reaches them. Rules of
 * templates that were already there are left as the user left them, removed ones included.
 */
export const rulesStep: SeedStep = {
  name: 'rules',
  async run(ctx: SeedContext) {
    const added = ctx.templatesAdded ?? new Map<string, number>();
    const existing = await ctx.db
      .selectFrom('template_rules')
      .select(['kind', 'model', 'colour'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('store_id', 'is', null)
      .where('tag_id', 'is', null)
      .where('kind', 'in', ['default', 'unbound'])
      .execute();
    const taken = new Set(existing.map((r) => `${r.kind}/${r.model}/${r.colour}`));
    const rows = demoRules().flatMap((rule) => {
      const id = added.get(rule.template);
      if (id === undefined || taken.has(`${rule.kind}/${rule.model}/${rule.colour}`)) return [];
      return [
        {
          tenant_id: ctx.tenantId,
          store_id: null,
          tag_id: null,
          kind: rule.kind,
          model: rule.model,
          colour: rule.colour,
          match_key: '',
          match_value: '',
          priority: 0,
          template_id: id,
          created_at: ctx.now,
          updated_at: ctx.now,
        },
      ];
    });
    if (rows.length === 0) return;
    await ctx.db.insertInto('template_rules').values(rows).execute();
    await relabelTenant(ctx.db, ctx.tenantId, ctx.now);
  },
};
