import { addStarterRules } from '../modules/templates/starter/install';
import { type StarterRule, starterRules } from '../modules/templates/starter/rules';
import { relabelTenant } from '../outbox/slots/enqueue';
import { DEMO_MODELS } from './business';
import type { SeedContext, SeedStep } from './step';

export type DemoRule = StarterRule;

/**
 * The tenant-wide rules of the demo: the starter rules (modules/templates/starter/rules.ts) for
 * every model a demo tag can have — a default label and the "no product" label for each of its
 * colour types — and a default rule for each template's own model and colour type.
 */
export function demoRules(): DemoRule[] {
  return starterRules(DEMO_MODELS);
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
    if ((await addStarterRules(ctx.db, ctx.tenantId, ctx.now, added, DEMO_MODELS)) === 0) return;
    await relabelTenant(ctx.db, ctx.tenantId, ctx.now);
  },
};
