import type { Template } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { addTemplate, nameDoc, priceDoc } from '../../test/templates';

type Role = 'admin' | 'editor' | 'manager' | 'clerk' | 'stock';
const ROLES: Role[] = ['admin', 'editor', 'manager', 'clerk', 'stock'];
const READERS: Role[] = ['admin', 'editor', 'manager'];
const WRITERS: Role[] = ['admin', 'editor'];

describe.each(await testDatabases())('template access on $name', (db) => {
  const t = useApp(db);

  it('lets readers read and writers write, and refuses everyone else', async () => {
    const { tokens } = await buildWorld(t().app);
    const tpl = await addTemplate(t(), tokens.admin, { name: 'Shared' });
    let n = 0;
    const calls: [string, () => object, Role[], number][] = [
      ['/mgr/templ/list', () => ({}), READERS, 0],
      ['/mgr/templ/gettempledata', () => ({ id: tpl.id }), READERS, 0],
      ['/mgr/templ/getdatekeymap', () => ({}), READERS, 0],
      ['/mgr/templ/preview', () => ({ id: tpl.id }), READERS, 0],
      ['/mgr/templ/addtemple', () => ({ name: `New ${n++}`, model: '1C' }), WRITERS, 0],
      ['/mgr/templ/TemplateCopy', () => ({ id: tpl.id, name: `Copy ${n++}` }), WRITERS, 0],
      ['/mgr/templ/alerttempData', () => ({ id: tpl.id, doc: priceDoc() }), WRITERS, 0],
      ['/mgr/templ/Alterkeymap', () => ({ name: 'brand', tField: 'Brand' }), WRITERS, 0],
      ['/mgr/templ/UpdateDataKeyMap', () => ({ keys: [] }), WRITERS, 0],
      ['/mgr/templ/updatedevtmpl', () => ({ ids: [tpl.id] }), WRITERS, 0],
      ['/mgr/templ/updatedevfonts', () => ({}), WRITERS, 0],
    ];
    for (const [path, body, allowed, success] of calls) {
      for (const role of ROLES) {
        const res = await t().call(path, body(), { token: tokens[role] });
        expect(res.code, `${role} ${path}: ${res.msg}`).toBe(allowed.includes(role) ? success : 1003);
      }
    }
    const doomed = await addTemplate(t(), tokens.admin);
    for (const role of ['manager', 'clerk', 'stock'] as const) {
      expect((await t().call('/mgr/templ/delete', { ids: [doomed.id] }, { token: tokens[role] })).code).toBe(1003);
    }
    expect((await t().call('/mgr/templ/delete', { ids: [doomed.id] }, { token: tokens.editor })).code).toBe(0);
    expect((await t().call('/mgr/templ/list', {})).code).toBe(800);
  });

  it("refuses ids of another tenant's templates and changes nothing", async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const theirs = await addTemplate(t(), b.tokens.admin, { name: 'Theirs' });
    await t().call('/mgr/templ/alerttempData', { id: theirs.id, doc: priceDoc() }, { token: b.tokens.admin });
    const mine = await addTemplate(t(), a.tokens.admin, { name: 'Mine' });
    const snapshot = async () => ({
      template: await t().app.services.db.selectFrom('templates').selectAll().where('id', '=', theirs.id).execute(),
      thumbs: await t()
        .app.services.db.selectFrom('template_thumbs')
        .select(['key', 'revision'])
        .where('template_id', '=', theirs.id)
        .execute(),
    });
    const before = await snapshot();
    expect(before.template).toHaveLength(1);

    const token = a.tokens.admin;
    const attempts: [string, object][] = [
      ['/mgr/templ/gettempledata', { id: theirs.id }],
      ['/mgr/templ/alerttempData', { id: theirs.id, doc: nameDoc() }],
      ['/mgr/templ/alerttempData', { id: theirs.id, doc: nameDoc(), name: 'hijacked' }],
      ['/mgr/templ/TemplateCopy', { id: theirs.id }],
      ['/mgr/templ/delete', { ids: [theirs.id] }],
      ['/mgr/templ/delete', { ids: [mine.id, theirs.id] }],
      ['/mgr/templ/updatedevtmpl', { ids: [theirs.id] }],
      ['/mgr/templ/preview', { id: theirs.id }],
    ];
    for (const [path, body] of attempts) {
      const res = await t().call(path, body, { token });
      expect(res.code, `${path} ${JSON.stringify(body)}`).toBe(1002);
    }
    expect(await snapshot()).toEqual(before);
    const list = await t().call<Template[]>('/mgr/templ/list', { limit: 2000 }, { token });
    expect(list.data.map((r) => r.id)).toEqual([mine.id]);
    // Names are unique per tenant, not across tenants.
    const same = await t().call('/mgr/templ/addtemple', { name: 'Theirs', model: '0A' }, { token });
    expect(same.code).toBe(0);
    expect((await t().call('/mgr/templ/list', {}, { token })).count).toBe(2);
    expect((await t().call('/mgr/templ/list', {}, { token: b.tokens.admin })).count).toBe(1);
  });
});
