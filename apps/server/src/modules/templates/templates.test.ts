import { describeTarget, type Template, type TemplateData } from '@esl/contract';
import { TEMPLATE_VERSION, TemplateDocument } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { addTemplate, nameDoc, priceDoc } from '../../test/templates';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

describe.each(await testDatabases())('templates on $name', (db) => {
  const t = useApp(db);

  it('adds from a model or a width × length, lists with filters and paging, serves thumbnails', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const byModel = await t().call<Template>('/mgr/templ/addtemple', { name: ' 价签 A ', model: '0a' }, { token });
    expect(byModel.code, byModel.msg).toBe(0);
    expect(byModel.data).toMatchObject({
      name: '价签 A',
      model: '0A',
      modelName: '2.66L',
      width: 296,
      length: 152,
      colourType: 'bwr',
      rotation: 0,
      revision: 1,
      createdAt: t().clock.time,
      updatedAt: t().clock.time,
    });
    const yellow = await t().call<Template>(
      '/mgr/templ/addtemple',
      { name: 'Yellow', model: '0D', colourType: 'bwy' },
      { token },
    );
    expect(yellow.data).toMatchObject({ model: '0D', colourType: 'bwy' });
    t().clock.advance(1000);
    const free = await t().call<Template>(
      '/mgr/templ/addtemple',
      { name: 'Free', width: 320, length: '240', colourType: 'bw', rotation: 90 },
      { token },
    );
    expect(free.data).toMatchObject({
      model: null,
      modelName: '',
      width: 320,
      length: 240,
      colourType: 'bw',
      rotation: 90,
    });

    const all = await t().call<Template[]>('/mgr/templ/list', {}, { token });
    expect(all.count).toBe(3);
    expect(all.data[0].id).toBe(free.data.id); // most recently changed first
    const page2 = await t().call<Template[]>('/mgr/templ/list', { page: 2, limit: 2 }, { token });
    expect(page2).toMatchObject({ count: 3 });
    expect(page2.data).toHaveLength(1);
    const byName = await t().call<Template[]>('/mgr/templ/list', { name: '价签' }, { token });
    expect(byName.data.map((r) => r.id)).toEqual([byModel.data.id]);
    const byModelFilter = await t().call<Template[]>('/mgr/templ/list', { model: '0d' }, { token });
    expect(byModelFilter.data.map((r) => r.id)).toEqual([yellow.data.id]);
    const byColour = await t().call<Template[]>('/mgr/templ/list', { colourType: 'bw' }, { token });
    expect(byColour.data.map((r) => r.id)).toEqual([free.data.id]);

    const loaded = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: free.data.id }, { token });
    expect(loaded.data.doc).toEqual(
      TemplateDocument.parse({
        version: TEMPLATE_VERSION,
        size: { model: null, w: 320, h: 240 },
        colourType: 'bw',
        rotation: 90,
      }),
    );
    expect(loaded.data.repairs).toEqual([]);

    const thumb = await t().app.inject({ method: 'GET', url: byModel.data.thumbnail });
    expect(byModel.data.thumbnail).toMatch(/^\/uploads\/templates\/[0-9a-f]{32}\.png$/);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect([...thumb.rawPayload.subarray(0, 4)]).toEqual(PNG_MAGIC);
    const missing = await t().app.inject({
      method: 'GET',
      url: '/uploads/templates/0123456789abcdef0123456789abcdef.png',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('validates what it adds and saves, naming the field', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const cases: [object, string][] = [
      [{ model: '0A' }, 'Name: cannot be empty'],
      [{ name: '  ', model: '0A' }, 'Name: cannot be empty'],
      [{ name: 'a\nb', model: '0A' }, 'Name: no line breaks allowed'],
      [{ name: 'x', model: 'ZZ' }, 'Tag model: has the wrong format'],
      [{ name: 'x' }, 'Width: cannot be empty'],
      [{ name: 'x', width: 100 }, 'Length: cannot be empty'],
      [{ name: 'x', width: 0, length: 10 }, 'Width: is too small'],
      [{ name: 'x', width: 5000, length: 10 }, 'Width: is too large'],
      [{ name: 'x', model: '0A', colourType: 'seven' }, 'Colours: has the wrong format'],
      [{ name: 'x', model: '0A', rotation: 45 }, 'Rotation: has the wrong format'],
    ];
    for (const [body, msg] of cases) {
      const res = await t().call('/mgr/templ/addtemple', body, { token });
      expect(res, JSON.stringify(body)).toMatchObject({ code: 1001, msg });
    }
    const taken = await addTemplate(t(), token, { name: 'Taken' });
    expect(await t().call('/mgr/templ/addtemple', { name: 'Taken', model: '01' }, { token })).toMatchObject({
      code: 1004,
      msg: 'Already exists: Taken',
    });

    const id = taken.id;
    const doc = priceDoc();
    const bad: [unknown, string][] = [
      [undefined, 'Template: cannot be empty'],
      ['text', 'Template: has the wrong format'],
      [{ ...doc, version: 1 }, 'Version: has the wrong format'],
      [{ ...doc, size: { model: '0A', w: 300, h: 152 } }, 'Width: has the wrong format'],
      [{ ...doc, size: { model: '0A', w: 296, h: 152 }, colourType: 'seven' }, 'Colours: has the wrong format'],
      [{ ...doc, size: { model: null, w: 296, h: 152 }, colourType: 'bw' }, 'Colour (item 2): has the wrong format'],
      [{ ...doc, elements: [{ type: 'text', id: 'a', x: 0, y: 0, w: 10 }] }, 'Height (item 1): cannot be empty'],
      [
        { ...doc, elements: [{ type: 'blob', id: 'a', x: 0, y: 0, w: 10, h: 10 }] },
        'Type (item 1): has the wrong format',
      ],
      [
        { ...doc, elements: [{ type: 'rect', id: 'a', x: 0, y: 0, w: 10, h: 10, fill: 'yellow' }] },
        'Fill (item 1): has the wrong format',
      ],
      [
        { ...doc, elements: [doc.elements?.[0], { ...doc.elements?.[4], id: 'name' }] },
        'ID (item 2): has the wrong format',
      ],
    ];
    for (const [sent, msg] of bad) {
      const res = await t().call('/mgr/templ/alerttempData', { id, doc: sent }, { token });
      expect(res, msg).toMatchObject({ code: 1001, msg });
    }
    const still = await t().call<TemplateData>('/mgr/templ/gettempledata', { id }, { token });
    expect(still.data.revision).toBe(1);
    expect(still.data.doc.elements).toEqual([]);
  });

  it('saves a document and loads the same document back, bumping the revision', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const created = await addTemplate(t(), token, { name: 'Round trip' });
    t().clock.advance(5000);
    const sent = priceDoc({ dither: 'ordered' });
    const saved = await t().call<Template>(
      '/mgr/templ/alerttempData',
      { id: created.id, doc: sent, name: 'Round trip 2', revision: 1 },
      { token },
    );
    expect(saved.code, saved.msg).toBe(0);
    expect(saved.data).toMatchObject({ name: 'Round trip 2', revision: 2, updatedAt: t().clock.time });
    expect(saved.data.createdAt).toBe(created.createdAt);
    expect(saved.data.thumbnail).not.toBe(created.thumbnail);
    expect((await t().app.inject({ method: 'GET', url: created.thumbnail })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: saved.data.thumbnail })).statusCode).toBe(200);

    const loaded = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    const expected = TemplateDocument.parse(sent);
    expect(loaded.data.doc).toEqual(expected);
    expect(loaded.data.repairs).toEqual([]);

    // Saving what was loaded changes nothing but the revision.
    const again = await t().call<Template>(
      '/mgr/templ/alerttempData',
      { id: created.id, doc: loaded.data.doc, revision: 2 },
      { token },
    );
    expect(again.data).toMatchObject({ revision: 3, name: 'Round trip 2' });
    const reloaded = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    expect(reloaded.data.doc).toEqual(expected);

    // An editor holding an older revision is told, not overwritten.
    const stale = await t().call(
      '/mgr/templ/alerttempData',
      { id: created.id, doc: nameDoc(), revision: 2 },
      { token },
    );
    expect(stale).toMatchObject({ code: 1004, msg: 'Already exists: revision 3' });
    const other = await addTemplate(t(), token, { name: 'Other' });
    const clash = await t().call(
      '/mgr/templ/alerttempData',
      { id: other.id, doc: nameDoc(), name: 'Round trip 2' },
      { token },
    );
    expect(clash).toMatchObject({ code: 1004, msg: 'Already exists: Round trip 2' });
    const after = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    expect(after.data).toMatchObject({ revision: 3, doc: expected });

    // Two editors saving the same revision at once: exactly one wins.
    const race = await Promise.all(
      [nameDoc('bw'), nameDoc('bwr')].map((doc) =>
        t().call('/mgr/templ/alerttempData', { id: created.id, doc, revision: 3 }, { token }),
      ),
    );
    expect(race.map((r) => r.code).sort()).toEqual([0, 1004]);
    const winner = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    expect(winner.data.revision).toBe(4);

    // The list columns follow the document's size and colour type.
    const resized = await t().call<Template>(
      '/mgr/templ/alerttempData',
      { id: other.id, doc: nameDoc('bwry') },
      { token },
    );
    expect(resized.data).toMatchObject({ model: null, width: 200, length: 60, colourType: 'bwry' });
  });

  it('migrates documents stored by older versions when it loads them', async () => {
    const { tokens, tenant } = await buildWorld(t().app);
    const token = tokens.admin;
    const created = await addTemplate(t(), token, { name: 'Old' });
    const v1 = {
      width: 250,
      length: 122,
      rgb: 3,
      model: '05',
      elements: [
        { type: 'text', id: 'n', x: 0, y: 0, w: 100, h: 20, colour: 'yellow', binding: { key: 'name' } },
        { type: 'sparkle', id: 's', x: 0, y: 0, w: 1, h: 1 },
      ],
    };
    await t()
      .app.services.db.updateTable('templates')
      .set({ document: JSON.stringify(v1) })
      .where('id', '=', created.id)
      .where('tenant_id', '=', tenant.id)
      .execute();
    const loaded = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    expect(loaded.code, loaded.msg).toBe(0);
    expect(loaded.data.doc).toMatchObject({
      version: TEMPLATE_VERSION,
      size: { model: '05', w: 250, h: 122 },
      colourType: 'bwr',
      elements: [{ type: 'text', id: 'n', colour: 'red' }],
    });
    expect(loaded.data.repairs).toHaveLength(2);
    // What was loaded can be saved as it is.
    const saved = await t().call('/mgr/templ/alerttempData', { id: created.id, doc: loaded.data.doc }, { token });
    expect(saved.code, saved.msg).toBe(0);

    await t()
      .app.services.db.updateTable('templates')
      .set({ document: '{not json' })
      .where('id', '=', created.id)
      .execute();
    const broken = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: created.id }, { token });
    expect(broken.code).toBe(0);
    expect(broken.data.doc).toMatchObject({ size: { model: '05', w: 250, h: 122 }, elements: [] });
    expect(broken.data.repairs[0]).toMatch(/could not be read/);
  });

  it('copies a template with its document under a free name', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const source = await addTemplate(t(), token, { name: 'Shelf' });
    await t().call('/mgr/templ/alerttempData', { id: source.id, doc: priceDoc() }, { token });
    const first = await t().call<Template>('/mgr/templ/TemplateCopy', { id: source.id }, { token });
    expect(first.data).toMatchObject({ name: 'Shelf - copy', revision: 1, model: '0A' });
    const second = await t().call<Template>('/mgr/templ/TemplateCopy', { id: source.id }, { token, lang: 'zh-CN' });
    expect(second.data.name).toBe('Shelf - 副本');
    const third = await t().call<Template>('/mgr/templ/TemplateCopy', { id: source.id }, { token });
    expect(third.data.name).toBe('Shelf - copy 2');
    const named = await t().call<Template>('/mgr/templ/TemplateCopy', { id: source.id, name: 'Mine' }, { token });
    expect(named.data.name).toBe('Mine');
    const dup = await t().call('/mgr/templ/TemplateCopy', { id: source.id, name: 'Mine' }, { token });
    expect(dup.code).toBe(1004);
    const a = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: source.id }, { token });
    const b = await t().call<TemplateData>('/mgr/templ/gettempledata', { id: first.data.id }, { token });
    expect(b.data.doc).toEqual(a.data.doc);
    expect(b.data.id).not.toBe(a.data.id);
  });

  it('deletes all or nothing, thumbnails included', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const x = await addTemplate(t(), token);
    const y = await addTemplate(t(), token);
    expect(await t().call('/mgr/templ/delete', { ids: [x.id, 999_999] }, { token })).toMatchObject({ code: 1002 });
    expect((await t().call('/mgr/templ/list', {}, { token })).count).toBe(2);
    expect(await t().call('/mgr/templ/delete', { ids: [] }, { token })).toMatchObject({ code: 1001 });
    const del = await t().call('/mgr/templ/delete', { ids: [x.id, y.id, x.id] }, { token });
    expect(del).toMatchObject({ code: 0, data: { deleted: 2 } });
    expect((await t().call('/mgr/templ/list', {}, { token })).count).toBe(0);
    expect((await t().app.inject({ method: 'GET', url: x.thumbnail })).statusCode).toBe(404);
    const thumbs = await t().app.services.db.selectFrom('template_thumbs').select('key').execute();
    expect(thumbs.map((r) => r.key)).not.toContain(x.thumbnail.slice(-36, -4));
  });

  it('sends templates and fonts to the tags: recorded in the operation log, nothing to do without tags', async () => {
    const { tokens, users } = await buildWorld(t().app);
    const token = tokens.editor;
    const tpl = await addTemplate(t(), token);
    // No tag uses it: nothing is rendered and no data-push row is written.
    const res = await t().call('/mgr/templ/updatedevtmpl', { ids: [tpl.id] }, { token });
    expect(res).toMatchObject({ code: 0, data: { tags: 0, pushIds: [] } });
    const fonts = await t().call('/mgr/templ/updatedevfonts', {}, { token, lang: 'zh-CN' });
    expect(fonts).toMatchObject({ code: 0, data: { tags: 0, pushIds: [] } });
    expect(await t().call('/mgr/templ/updatedevtmpl', { ids: [999_999] }, { token })).toMatchObject({ code: 1002 });
    expect(await t().app.services.db.selectFrom('push_log').selectAll().execute()).toEqual([]);
    const logged = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'code', 'target'])
      .where('user_id', '=', users.editor.id)
      .orderBy('id')
      .execute();
    expect(logged.map((o) => ({ ...o, target: describeTarget(o.target, 'en') }))).toEqual([
      { call: '/mgr/templ/addtemple', code: 0, target: expect.stringMatching(/^template \S/) },
      { call: '/mgr/templ/updatedevtmpl', code: 0, target: `template ${tpl.name}` },
      { call: '/mgr/templ/updatedevfonts', code: 0, target: 'fonts' },
      { call: '/mgr/templ/updatedevtmpl', code: 1002, target: 'template #999999' },
    ]);
  });
});
