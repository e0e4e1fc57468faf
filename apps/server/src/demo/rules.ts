import { relabelTenant } from '../delivery/tasks/enqueue';
import type { SeedContext, SeedStep } from './step';
import { DEMO_TEMPLATES } from './templates';

/*
 * Which label each demo tag shows: one tenant-wide default rule per demo template, for the tag
 * model and colour type it was drawn for, and every tag of the tenant queued for a render — so a
 * newcomer's `npm run demo` shows labels on the simulated tags within seconds and a price change
 * reaches them. Only when the tenant has no rules at all (a first start), so rules a user changed
 * or removed are left as they are.
 */
export const rulesStep: SeedStep = {
  name: 'rules',
  async run(ctx: SeedContext) {
    const any = await ctx.db
      .selectFrom('template_rules')
      .select('id')
      .where('tenant_id', '=', ctx.tenantId)
      .executeTakeFirst();
    if (any) return;
    const templates = await ctx.db
      .selectFrom('templates')
      .select(['id', 'name'])
      .where('tenant_id', '=', ctx.tenantId)
      .where(
        'name',
        'in',
        DEMO_TEMPLATES.map((d) => d.name),
      )
      .execute();
    const idOf = new Map(templates.map((t) => [t.name, t.id]));
    const rows = DEMO_TEMPLATES.flatMap((d) => {
      const id = idOf.get(d.name);
      if (id === undefined || !d.doc.size.model) return [];
      return [
        {
          tenant_id: ctx.tenantId,
          store_id: null,
          tag_id: null,
          kind: 'default',
          model: d.doc.size.model,
          colour: d.doc.colourType ?? 'bwr',
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
