import { findTagModel, type Tag } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { useStore } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant, buildUser, login } from '../test/factories';
import { useApp } from '../test/harness';
import { businessStep, DEMO_MODELS } from './business';
import { demoRules, rulesStep } from './rules';
import type { SeedContext } from './step';
import { ALL_DEMO_TEMPLATES, templatesStep } from './templates';

// `npm run demo` must show a label on EVERY demo tag (issue 13): each model and colour type a
// demo tag comes in (yellow and seven-colour panels too) has a default label and a "no product"
// label, and the tags are queued for a render so a price change reaches the simulated tags.

describe('demo rules, as data', () => {
  it('cover every model and colour type of the demo tags, bound and unbound', () => {
    const rules = demoRules();
    const names = new Set(ALL_DEMO_TEMPLATES.map((t) => t.name));
    for (const code of new Set(DEMO_MODELS)) {
      const model = findTagModel(code);
      expect(model, code).toBeDefined();
      for (const colour of model?.colours ?? []) {
        for (const kind of ['default', 'unbound'] as const) {
          const rule = rules.find((r) => r.kind === kind && r.model === code && r.colour === colour);
          expect(rule, `${kind} ${code}/${colour}`).toBeDefined();
          expect(names.has(rule?.template ?? '')).toBe(true);
        }
      }
    }
  });
});

describe.each(await testDatabases())('demo template rules on $name', (db) => {
  const t = useApp(db);

  it('gives every demo tag a template and queues the renders; a second start changes nothing', async () => {
    const tenant = await buildTenant(t().app);
    const store = await buildStore(t().app, tenant.id);
    const ctx: SeedContext = {
      db: t().app.services.db,
      now: t().clock.time,
      passwordHash: '',
      tenantId: tenant.id,
      stores: new Map([['A', store.id]]),
      users: new Map(),
      templatesAdded: new Map(),
    };
    await templatesStep.run(ctx);
    await businessStep.run(ctx);
    await rulesStep.run(ctx);

    const { db: kdb } = t().app.services;
    const rules = await kdb.selectFrom('template_rules').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(rules.length).toBe(demoRules().length);

    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['admin'] });
    const token = await login(t().app, user.username);
    await useStore(t().app, token, store.id);
    const tags = (await t().call<Tag[]>('/mgr/tag/list', { limit: 2000 }, { token })).data;
    expect(tags.length).toBeGreaterThan(0);
    // Every colour type the demo models come in is among the tags (so the check below covers them).
    const kinds = new Set(tags.map((tag) => tag.colour));
    expect([...kinds].sort()).toEqual(['bwr', 'bwry', 'bwy', 'seven']);
    expect(tags.some((tag) => tag.product === null)).toBe(true);
    for (const tag of tags) {
      expect(tag.label.templateId, `${tag.hardwareId} ${tag.model}/${tag.colour}`).not.toBeNull();
      expect(tag.label.source).toBe(tag.product === null ? 'tenantUnbound' : 'tenantDefault');
    }
    const slots = await kdb
      .selectFrom('device_tasks')
      .select(['tag_id', 'state'])
      .where('tenant_id', '=', tenant.id)
      .execute();
    expect(slots.length).toBe(tags.length);
    expect(new Set(slots.map((s) => s.state))).toEqual(new Set(['render']));

    // A second start adds nothing, and rules the tenant removed stay removed.
    const removed = rules[0];
    await kdb
      .deleteFrom('template_rules')
      .where('id', '=', removed?.id ?? 0)
      .execute();
    await templatesStep.run({ ...ctx, templatesAdded: new Map() });
    await rulesStep.run({ ...ctx, templatesAdded: new Map() });
    expect(
      await kdb.selectFrom('template_rules').select('id').where('tenant_id', '=', tenant.id).execute(),
    ).toHaveLength(rules.length - 1);
  });

  it('gives a database seeded before the yellow and seven-colour templates their rules', async () => {
    const tenant = await buildTenant(t().app);
    const ctx: SeedContext = {
      db: t().app.services.db,
      now: t().clock.time,
      passwordHash: '',
      tenantId: tenant.id,
      stores: new Map(),
      users: new Map(),
      templatesAdded: new Map(),
    };
    await templatesStep.run(ctx);
    // As an older demo left it: the templates of the first five, with their default rules.
    const { db: kdb } = t().app.services;
    const later = ALL_DEMO_TEMPLATES.slice(5).map((d) => d.name);
    await kdb.deleteFrom('templates').where('tenant_id', '=', tenant.id).where('name', 'in', later).execute();
    for (const name of later) ctx.templatesAdded?.delete(name);
    await rulesStep.run(ctx);
    const before = await kdb.selectFrom('template_rules').select('id').where('tenant_id', '=', tenant.id).execute();
    expect(before.length).toBeLessThan(demoRules().length);

    const next = { ...ctx, templatesAdded: new Map<string, number>() };
    await templatesStep.run(next);
    await rulesStep.run(next);
    const after = await kdb.selectFrom('template_rules').select('id').where('tenant_id', '=', tenant.id).execute();
    expect(after.length).toBe(demoRules().length);
  });
});
