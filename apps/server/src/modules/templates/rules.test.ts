import { describeTarget, ErrorCode, hasPermission, type Tag, TENANT_ROLES, type TemplateRule } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildStorelessAdmin, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { addTemplate } from '../../test/templates';

describe.each(await testDatabases())('template assignment rules on $name', (db) => {
  const t = useApp(db);

  /** The label of each tag of the token's current store, by tag id. */
  async function labels(token: string) {
    const res = await t().call<Tag[]>('/mgr/tag/list', { limit: 100 }, { token });
    expect(res.code, res.msg).toBe(0);
    return new Map(res.data.map((tag) => [tag.id, tag.label]));
  }

  async function setRule(token: string, body: object) {
    const res = await t().call<TemplateRule>('/mgr/templ/setrule', body, { token });
    expect(res.code, `${JSON.stringify(body)}: ${res.msg}`).toBe(0);
    return res.data;
  }

  it('chooses by precedence: tag, store category, tenant category, store default, tenant default', async () => {
    const shop = await buildShop(t().app);
    const token = shop.tokens.admin;
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const fruit = await buildProduct(t().app, at, { custom: { category: 'Fruit' } });
    const tag = await buildTag(t().app, at, { model: '05', productId: fruit.id });
    const plain = await buildTag(t().app, at, { model: '05', productId: (await buildProduct(t().app, at)).id });
    const tpl = async (name: string) => addTemplate(t(), token, { model: '05', name });

    expect((await labels(token)).get(tag.id)).toEqual({
      templateId: null,
      templateName: '',
      source: 'none',
      ruleId: null,
      skipped: [],
    });
    const tenantDefault = await setRule(token, {
      scope: 'tenant',
      kind: 'default',
      model: '05',
      templateId: (await tpl('Chain')).id,
    });
    expect(tenantDefault).toMatchObject({
      scope: 'tenant',
      storeId: null,
      kind: 'default',
      model: '05',
      colour: 'bwr',
    });
    expect((await labels(token)).get(tag.id)).toMatchObject({ source: 'tenantDefault', templateName: 'Chain' });

    const storeDefault = await setRule(token, { kind: 'default', model: '05', templateId: (await tpl('Store')).id });
    expect(storeDefault).toMatchObject({ scope: 'store', storeId: shop.store.id });
    let now = await labels(token);
    expect(now.get(tag.id)).toMatchObject({ source: 'storeDefault', templateName: 'Store', ruleId: storeDefault.id });

    const tenantFruit = await tpl('Chain fruit');
    await setRule(token, {
      scope: 'tenant',
      kind: 'category',
      model: '05',
      matchKey: 'category',
      matchValue: 'fruit',
      templateId: tenantFruit.id,
    });
    now = await labels(token);
    expect(now.get(tag.id)).toMatchObject({ source: 'tenantCategory', templateId: tenantFruit.id });
    expect(now.get(plain.id)).toMatchObject({ source: 'storeDefault' });

    const storeFruit = await tpl('Store fruit');
    await setRule(token, {
      kind: 'category',
      model: '05',
      matchKey: 'category',
      matchValue: 'FRUIT',
      templateId: storeFruit.id,
    });
    expect((await labels(token)).get(tag.id)).toMatchObject({ source: 'storeCategory', templateId: storeFruit.id });

    const own = await tpl('Own');
    const set = await t().call('/mgr/tag/settemplate', { ids: [tag.id], templateId: own.id }, { token });
    expect(set).toMatchObject({ code: 0, data: { updated: 1 } });
    now = await labels(token);
    expect(now.get(tag.id)).toMatchObject({ source: 'tag', templateId: own.id, templateName: 'Own' });
    expect(now.get(plain.id)).toMatchObject({ source: 'storeDefault' });

    // Clearing the override falls back to the rules; setting a rule again replaces its template.
    await t().call('/mgr/tag/settemplate', { ids: [tag.id], templateId: null }, { token });
    expect((await labels(token)).get(tag.id)).toMatchObject({ source: 'storeCategory' });
    const again = await setRule(token, { kind: 'default', model: '05', templateId: own.id });
    expect(again.id).toBe(storeDefault.id);
    expect((await labels(token)).get(plain.id)).toMatchObject({ source: 'storeDefault', templateId: own.id });

    // Another store of the tenant sees the tenant's rules only.
    const other = await buildTag(t().app, { ...at, storeId: shop.otherStore.id }, { model: '05', productId: null });
    const otherProduct = await buildProduct(t().app, { ...at, storeId: shop.otherStore.id });
    await t()
      .app.services.db.updateTable('tags')
      .set({ product_id: otherProduct.id })
      .where('id', '=', other.id)
      .execute();
    expect((await labels(shop.otherStoreAdmin)).get(other.id)).toMatchObject({ source: 'tenantDefault' });

    const listed = await t().call<TemplateRule[]>('/mgr/templ/rulelist', {}, { token });
    expect(listed.data.map((r) => [r.scope, r.kind])).toEqual([
      ['tenant', 'category'],
      ['store', 'category'],
      ['tenant', 'default'],
      ['store', 'default'],
    ]);
    expect(listed).toMatchObject({ count: 4 });
    const storeOnly = await t().call<TemplateRule[]>('/mgr/templ/rulelist', { scope: 'store' }, { token });
    expect(storeOnly.data.every((r) => r.storeId === shop.store.id)).toBe(true);
    const fromOther = await t().call<TemplateRule[]>('/mgr/templ/rulelist', {}, { token: shop.otherStoreAdmin });
    expect(fromOther.data.map((r) => r.scope)).toEqual(['tenant', 'tenant']);
  });

  it('gives tags without a product the store’s unbound label, per model', async () => {
    const shop = await buildShop(t().app);
    const token = shop.tokens.editor;
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const empty = await buildTag(t().app, at, { model: '05' });
    const wide = await buildTag(t().app, at, { model: '0A' });
    const unbound05 = await addTemplate(t(), token, { model: '05', name: 'Empty 2.13' });
    const tenantUnbound = await addTemplate(t(), token, { model: '0A', name: 'Empty 2.66' });
    const normal = await addTemplate(t(), token, { model: '05', name: 'Price' });
    await setRule(token, { kind: 'unbound', model: '05', templateId: unbound05.id });
    await setRule(token, { scope: 'tenant', kind: 'unbound', model: '0A', templateId: tenantUnbound.id });
    await setRule(token, { kind: 'default', model: '05', templateId: normal.id });
    let now = await labels(token);
    expect(now.get(empty.id)).toMatchObject({ source: 'storeUnbound', templateName: 'Empty 2.13' });
    expect(now.get(wide.id)).toMatchObject({ source: 'tenantUnbound', templateName: 'Empty 2.66' });

    const product = await buildProduct(t().app, at);
    const bound = await t().call(
      '/mgr/tag/bindesl',
      { hardwareId: empty.hardware_id, barcode: product.barcode },
      { token },
    );
    expect(bound).toMatchObject({ code: 0, data: { label: { source: 'storeDefault', templateName: 'Price' } } });
    now = await labels(token);
    expect(now.get(empty.id)).toMatchObject({ source: 'storeDefault' });
    expect(now.get(wide.id)).toMatchObject({ source: 'tenantUnbound' });
  });

  it('refuses a template whose size or colours do not fit, in both languages, changing nothing', async () => {
    const shop = await buildShop(t().app);
    const token = shop.tokens.admin;
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const tag = await buildTag(t().app, at, { model: '05' });
    const wide = await addTemplate(t(), token, { model: '0A' });
    const red = await addTemplate(t(), token, { model: '05', colourType: 'bwr' });
    const blackWhite = await addTemplate(t(), token, { model: '06' });

    const size = {
      code: ErrorCode.VALIDATION,
      msg: "Template: the template's size does not match the tag model's screen",
    };
    expect(
      await t().call('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: wide.id }, { token }),
    ).toMatchObject(size);
    const zh = await t().call(
      '/mgr/templ/setrule',
      { kind: 'default', model: '05', templateId: wide.id },
      { token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('模板：模板尺寸与标签型号的屏幕尺寸不符');
    const colours = await t().call(
      '/mgr/templ/setrule',
      { kind: 'default', model: '05', colour: 'bwy', templateId: red.id },
      { token },
    );
    expect(colours).toMatchObject({
      code: 1001,
      msg: 'Template: the template uses colours the tag cannot show',
    });
    const coloursZh = await t().call(
      '/mgr/tag/settemplate',
      { ids: [tag.id], templateId: wide.id },
      { token, lang: 'zh-CN' },
    );
    expect(coloursZh.msg).toBe('模板：模板尺寸与标签型号的屏幕尺寸不符');
    expect((await t().call<TemplateRule[]>('/mgr/templ/rulelist', {}, { token })).data).toEqual([]);
    expect((await labels(token)).get(tag.id)).toMatchObject({ source: 'none' });

    // Black and white fits a black/white/red tag of the same size (this one shows no product).
    await setRule(token, { kind: 'unbound', model: '05', templateId: blackWhite.id });
    expect((await labels(token)).get(tag.id)).toMatchObject({ source: 'storeUnbound', templateId: blackWhite.id });
  });

  it('validates rule bodies, naming the field', async () => {
    const shop = await buildShop(t().app);
    const token = shop.tokens.admin;
    const tpl = await addTemplate(t(), token, { model: '05' });
    const cases: [object, string][] = [
      [{ kind: 'default', templateId: tpl.id }, 'Tag model: please select a model or an ID'],
      [{ kind: 'other', model: '05', templateId: tpl.id }, 'Kind: has the wrong format'],
      [{ kind: 'default', model: '06', colour: 'bwr', templateId: tpl.id }, 'Colour: has the wrong format'],
      [{ kind: 'category', model: '05', matchValue: 'x', templateId: tpl.id }, 'Match field: cannot be empty'],
      [{ kind: 'category', model: '05', matchKey: 'grade', templateId: tpl.id }, 'Match value: cannot be empty'],
      [
        { kind: 'category', model: '05', matchKey: 'price', matchValue: '1', templateId: tpl.id },
        'Match field: has the wrong format',
      ],
      [{ kind: 'default', model: '05', matchKey: 'grade', templateId: tpl.id }, 'Match field: has the wrong format'],
      [{ kind: 'default', model: '05', scope: 'shop', templateId: tpl.id }, 'Scope: has the wrong format'],
    ];
    for (const [body, msg] of cases) {
      expect(await t().call('/mgr/templ/setrule', body, { token }), JSON.stringify(body)).toMatchObject({
        code: 1001,
        msg,
      });
    }
    const storeless = await buildStorelessAdmin(t().app);
    const own = await addTemplate(t(), storeless.token, { model: '05' });
    expect(
      await t().call(
        '/mgr/templ/setrule',
        { kind: 'default', model: '05', templateId: own.id },
        { token: storeless.token },
      ),
    ).toMatchObject({ code: ErrorCode.STORE_NOT_SET });
    expect(
      await t().call(
        '/mgr/templ/setrule',
        { scope: 'tenant', kind: 'default', model: '05', templateId: own.id },
        { token: storeless.token },
      ),
    ).toMatchObject({ code: 0 });
  });

  it('keeps tenants apart and refuses deleting a template in use', async () => {
    const a = await buildShop(t().app);
    const b = await buildShop(t().app);
    const atA = { tenantId: a.tenant.id, storeId: a.store.id };
    const tagA = await buildTag(t().app, atA, { model: '05' });
    const tplA = await addTemplate(t(), a.tokens.admin, { model: '05', name: 'Mine' });
    const tplB = await addTemplate(t(), b.tokens.admin, { model: '05' });
    const ruleA = await setRule(a.tokens.admin, { scope: 'tenant', kind: 'unbound', model: '05', templateId: tplA.id });

    const notFound = { code: ErrorCode.NOT_FOUND };
    expect(
      await t().call(
        '/mgr/templ/setrule',
        { kind: 'unbound', model: '05', templateId: tplA.id },
        { token: b.tokens.admin },
      ),
    ).toMatchObject(notFound);
    expect(
      await t().call('/mgr/tag/settemplate', { ids: [tagA.id], templateId: tplB.id }, { token: b.tokens.admin }),
    ).toMatchObject(notFound);
    expect(
      await t().call('/mgr/tag/settemplate', { ids: [tagA.id], templateId: tplB.id }, { token: a.tokens.admin }),
    ).toMatchObject(notFound);
    expect(await t().call('/mgr/templ/delrule', { ids: [ruleA.id] }, { token: b.tokens.admin })).toMatchObject(
      notFound,
    );
    expect((await t().call<TemplateRule[]>('/mgr/templ/rulelist', {}, { token: b.tokens.admin })).data).toEqual([]);
    expect((await labels(a.tokens.admin)).get(tagA.id)).toMatchObject({ source: 'tenantUnbound', templateId: tplA.id });

    // A store's rule is deleted only from that store; the other store's admin does not see it.
    const storeRule = await setRule(a.tokens.admin, { kind: 'default', model: '05', templateId: tplA.id });
    expect(await t().call('/mgr/templ/delrule', { ids: [storeRule.id] }, { token: a.otherStoreAdmin })).toMatchObject(
      notFound,
    );

    const inUse = await t().call('/mgr/templ/delete', { ids: [tplA.id] }, { token: a.tokens.admin });
    expect(inUse).toMatchObject({ code: ErrorCode.IN_USE, msg: 'Still in use, cannot delete: Mine' });
    const del = await t().call('/mgr/templ/delrule', { ids: [ruleA.id, storeRule.id] }, { token: a.tokens.admin });
    expect(del).toMatchObject({ code: 0, data: { deleted: 2 } });
    expect(await t().call('/mgr/templ/delete', { ids: [tplA.id] }, { token: a.tokens.admin })).toMatchObject({
      code: 0,
    });

    const logged = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'code', 'target'])
      .where('user_id', '=', a.users.admin.id)
      .where('call', 'in', ['/mgr/templ/setrule', '/mgr/templ/delrule'])
      .orderBy('id')
      .execute();
    expect(logged.map((r) => ({ ...r, target: describeTarget(r.target, 'en') }))).toEqual([
      { call: '/mgr/templ/setrule', code: 0, target: 'tenant template rule unbound 2.13L/bwr → template Mine' },
      { call: '/mgr/templ/setrule', code: 0, target: 'store template rule default 2.13L/bwr → template Mine' },
      // The other store's session is the same administrator.
      { call: '/mgr/templ/delrule', code: 1002, target: '1 template rules' },
      { call: '/mgr/templ/delrule', code: 0, target: '2 template rules' },
    ]);
  });

  it('lets only roles with template.read list rules and template.write change them', async () => {
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const tag = await buildTag(t().app, at, { model: '05' });
    const tpl = await addTemplate(t(), shop.tokens.admin, { model: '05' });
    for (const role of TENANT_ROLES) {
      const token = shop.tokens[role];
      const read = await t().call('/mgr/templ/rulelist', {}, { token });
      expect(read.code, `${role} rulelist`).toBe(hasPermission([role], 'template.read') ? 0 : ErrorCode.FORBIDDEN);
      const writes: [string, object][] = [
        ['/mgr/templ/setrule', { kind: 'default', model: '05', templateId: tpl.id }],
        ['/mgr/tag/settemplate', { ids: [tag.id], templateId: tpl.id }],
        ['/mgr/templ/delrule', { ids: [999_999] }],
      ];
      const allowed = hasPermission([role], 'template.write');
      for (const [path, body] of writes) {
        const res = await t().call(path, body, { token });
        expect(res.code, `${role} ${path}`).toBe(allowed ? (path.endsWith('delrule') ? 1002 : 0) : ErrorCode.FORBIDDEN);
      }
    }
  });
});
