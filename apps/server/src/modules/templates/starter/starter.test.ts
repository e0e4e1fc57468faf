import type { AddTagsData, Tag, Template, TemplateRule, Tenant } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { clientDigest } from '../../../infra/lib/passwords';
import { testDatabases } from '../../../test/databases';
import { buildOperator, login } from '../../../test/factories';
import { useApp } from '../../../test/harness';
import { STARTER_TEMPLATES } from './documents';

// A new tenant starts with the starter templates (the demo's, one source) and tenant-wide rules,
// so a tag bound in its first store shows a label before anyone draws one (issue 27 item 6).

describe.each(await testDatabases())('a new tenant’s starter templates on $name', (db) => {
  const t = useApp(db);

  it('lists the starter templates, and a tag bound in the first store gets a sensible label', async () => {
    const op = await buildOperator(t().app);
    const added = await t().call<Tenant>(
      '/saas/sa/addtenant',
      { name: 'Corner Shop', account: 'corner', sapwd: clientDigest('corner-1') },
      { token: op.token },
    );
    expect(added.code, added.msg).toBe(0);
    const token = await login(t().app, 'corner', 'corner-1');

    const list = await t().call<Template[]>('/mgr/templ/list', { limit: 100 }, { token });
    expect(new Set(list.data.map((x) => x.name))).toEqual(new Set(STARTER_TEMPLATES.map((x) => x.name)));
    expect(list.data.every((x) => x.thumbnail !== '')).toBe(true);
    // Newest first, so the list reads in the starter set's order: the drawn shelf labels first.
    expect(list.data.map((x) => x.name)).toEqual(STARTER_TEMPLATES.map((x) => x.name));
    const rules = await t().call<TemplateRule[]>('/mgr/templ/rulelist', { limit: 2000 }, { token });
    expect(rules.count).toBeGreaterThan(STARTER_TEMPLATES.length);

    const store = await t().call<{ id: number }>('/mgr/station/add', { name: 'First', code: 'F1' }, { token });
    expect(store.code, store.msg).toBe(0);
    expect((await t().call('/user/setcurrshop', { curshop: store.data.id }, { token })).code).toBe(0);
    const product = await t().call('/mgr/product/add', { barcode: '6900001', name: 'Tea', price: '3.50' }, { token });
    expect(product.code, product.msg).toBe(0);

    // A tag of each kind a shop meets: three-colour, yellow, four-colour (a three-colour label
    // fits it), black and white, and a seven-colour poster; each bound, and one left unbound.
    const cases: [model: string, colour: string, id: string, template: string][] = [
      ['0A', 'bwr', 'AA000001', '标准价签 2.66 寸 三色'],
      ['05', 'bwy', 'AA000002', '小价签 2.13 寸 黄色'],
      ['08', 'bwry', 'AA000003', '小价签 2.13 寸 三色'],
      ['06', 'bw', 'AA000004', '小价签 2.13 寸 黑白'],
      ['23', 'seven', 'AA000005', '彩色海报 7.3 寸 七色'],
    ];
    for (const [model, colour, hardwareId, template] of cases) {
      const tag = await t().call<AddTagsData>('/mgr/tag/add', { model, colour, hardwareIds: [hardwareId] }, { token });
      expect(tag.code, tag.msg).toBe(0);
      const bound = await t().call<Tag>('/mgr/tag/bindesl', { hardwareId, barcode: '6900001' }, { token });
      expect(bound.code, bound.msg).toBe(0);
      expect(bound.data.label, `${model}/${colour}`).toMatchObject({ templateName: template, source: 'tenantDefault' });
    }
    const loose = await t().call<AddTagsData>('/mgr/tag/add', { model: '0F', hardwareIds: ['AA000006'] }, { token });
    expect(loose.data.tags[0]?.label).toMatchObject({ templateName: '未绑定 2.9 寸', source: 'tenantUnbound' });
  });

  it('gives each new tenant its own copy', async () => {
    const op = await buildOperator(t().app);
    const names: string[][] = [];
    for (const account of ['north', 'south']) {
      const res = await t().call(
        '/saas/sa/addtenant',
        { name: account, account, sapwd: clientDigest('pw') },
        { token: op.token },
      );
      expect(res.code, res.msg).toBe(0);
      const token = await login(t().app, account, 'pw');
      const list = await t().call<Template[]>('/mgr/templ/list', { limit: 100 }, { token });
      expect(list.count).toBe(STARTER_TEMPLATES.length);
      names.push(list.data.map((x) => String(x.id)));
    }
    // Two tenants, two sets of rows.
    expect(names[0]?.some((id) => names[1]?.includes(id))).toBe(false);
  });
});
