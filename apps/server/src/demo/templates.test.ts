import type { DataKeyMapping, PreviewData, Template, TemplateData } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { buildTenant, buildUser, login } from '../test/factories';
import { useApp } from '../test/harness';
import type { SeedContext } from './step';
import { ALL_DEMO_TEMPLATES, templatesStep } from './templates';

describe.each(await testDatabases())('demo templates on $name', (db) => {
  const t = useApp(db);

  it('seeds ready templates once, each loading without repairs and drawing without problems', async () => {
    const tenant = await buildTenant(t().app);
    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['admin'] });
    const token = await login(t().app, user.username);
    const ctx: SeedContext = {
      db: t().app.services.db,
      now: t().clock.time,
      passwordHash: '',
      tenantId: tenant.id,
      stores: new Map(),
      users: new Map(),
    };
    await templatesStep.run(ctx);
    await t().call('/mgr/templ/Alterkeymap', { name: 'promo', tField: 'Renamed' }, { token });
    await templatesStep.run(ctx); // a second run adds nothing and keeps what the tenant changed

    const list = await t().call<Template[]>('/mgr/templ/list', { limit: 100 }, { token });
    expect(list.count).toBe(ALL_DEMO_TEMPLATES.length);
    expect(new Set(list.data.map((r) => r.name))).toEqual(new Set(ALL_DEMO_TEMPLATES.map((d) => d.name)));
    for (const row of list.data) {
      expect(row.thumbnail, row.name).not.toBe('');
      const loaded = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: row.id }, { token });
      expect(loaded.data.repairs, row.name).toEqual([]);
      const preview = await t().call<PreviewData>('/mgr/templ/preview', { id: row.id }, { token });
      expect(preview.code, preview.msg).toBe(0);
      expect(preview.data.problems, row.name).toEqual([]);
    }
    const keys = await t().call<DataKeyMapping[]>('/mgr/templ/getdatekeymap', {}, { token });
    expect(keys.data.filter((k) => !k.standard)).toEqual([
      { name: 'promo', tField: 'Renamed', standard: false },
      { name: 'memberPrice', tField: '会员价', standard: false },
    ]);
  });
});
