import {
  DRAWN_TEMPLATES,
  MORE_TEMPLATES,
  STARTER_DATA_KEYS,
  STARTER_TEMPLATES,
} from '../modules/templates/starter/documents';
import { addStarterTemplates, starterThumbnails } from '../modules/templates/starter/install';
import type { SeedContext, SeedStep } from './step';

// The demo tenant's templates are the starter templates every new tenant gets
// (modules/templates/starter): the names below are the demo's words for them.

/** Custom data keys of the demo tenant. */
export const DEMO_DATA_KEYS = STARTER_DATA_KEYS;
/** The shelf labels drawn by hand for the common tag models. */
export const DEMO_TEMPLATES = DRAWN_TEMPLATES;
/** Labels for the other models and colour types, and the "no product" labels. */
export const DEMO_MORE_TEMPLATES = MORE_TEMPLATES;
/** Every demo template. */
export const ALL_DEMO_TEMPLATES = STARTER_TEMPLATES;

/** Adds the demo templates that are missing (by name) and the demo tenant's custom data keys. */
export const templatesStep: SeedStep = {
  name: 'templates',
  async run(ctx: SeedContext) {
    const added = await addStarterTemplates(ctx.db, ctx.tenantId, ctx.now, () => starterThumbnails());
    for (const [name, id] of added) ctx.templatesAdded?.set(name, id);
  },
};
