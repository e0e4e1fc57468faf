import type { Tag } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { useStore } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant, buildUser, login } from '../test/factories';
import { useApp } from '../test/harness';
import { businessStep } from './business';
import { rulesStep } from './rules';
import type { SeedContext } from './step';
import { DEMO_TEMPLATES, templatesStep } from './templates';

// `npm run demo` must show labels: the demo tenant gets a default template per model its demo
// templates were drawn for, and its tags are queued for a render (issue 13: a price change reaches
// the demo's simulated tags).

describe.each(await testDatabases())('demo template rules on $name', (db) => {
  const t = useApp(db);

  it('gives the demo tags their templates and queues their renders, once', async () => {
    const tenant = await buildTenant(t().app);
    const store = await buildStore(t().app, tenant.id);
    const ctx: SeedContext = {
      db: t().app.services.db,
      now: t().clock.time,
      passwordHash: '',
      tenantId: tenant.id,
      stores: new Map([['A', store.id]]),
      users: new Map(),
    };
    await templatesStep.run(ctx);
    await businessStep.run(ctx);
    await rulesStep.run(ctx);

    const { db: kdb } = t().app.services;
    const rules = await kdb.selectFrom('template_rules').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(rules.map((r) => [r.kind, r.store_id, r.model]).sort()).toEqual(
      DEMO_TEMPLATES.map((d) => ['default', null, d.doc.size.model]).sort(),
    );

    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['admin'] });
    const token = await login(t().app, user.username);
    await useStore(t().app, token, store.id);
    const tags = (await t().call<Tag[]>('/mgr/tag/list', { limit: 2000 }, { token })).data;
    const covered = new Set(DEMO_TEMPLATES.map((d) => `${d.doc.size.model}/${d.doc.colourType}`));
    const withTemplate = tags.filter((tag) => tag.label.templateId !== null);
    expect(withTemplate.length).toBeGreaterThan(0);
    for (const tag of tags) {
      const fits = covered.has(`${tag.model}/${tag.colour}`);
      // A bound tag of a covered model shows its template; the others have none (no unbound label seeded).
      expect(tag.label.templateId !== null, tag.hardwareId).toBe(fits && tag.product !== null);
    }
    const slots = await kdb
      .selectFrom('device_tasks')
      .select(['tag_id', 'state'])
      .where('tenant_id', '=', tenant.id)
      .execute();
    expect(slots.length).toBe(tags.length);
    expect(new Set(slots.map((s) => s.state))).toEqual(new Set(['render']));

    // A second start changes nothing, and rules the tenant removed stay removed.
    await rulesStep.run(ctx);
    expect(
      await kdb.selectFrom('template_rules').select('id').where('tenant_id', '=', tenant.id).execute(),
    ).toHaveLength(rules.length);
  });
});
