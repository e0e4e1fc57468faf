import type { AddStationData, Template } from '@esl/contract';
import { TEMPLATE_VERSION, type TemplateDocumentInput } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { renderJobs } from '../infra/render';
import * as templates from '../modules/templates/service';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { type TestApp, useApp } from '../test/harness';
import type { Delivery } from './wiring';

// /mgr/templ/updatedevtmpl and /mgr/templ/updatedevfonts (issue 13 item 0) against the real
// server, its task engine and simulated tags: the tags whose label uses the templates (or draws
// text, for fonts) are rendered again and delivered under one data-push row; the others are not
// touched.

const textDoc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

/** A label without any text: nothing in it depends on a font. */
const boxDoc: TemplateDocumentInput = {
  version: TEMPLATE_VERSION,
  size: { model: '05', w: 250, h: 122 },
  colourType: 'bwr',
  elements: [{ type: 'rect', id: 'box', x: 10, y: 10, w: 120, h: 60, fill: 'black' }],
};

describe.each(await testDatabases())('templates and fonts sent to simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });

  const call = async <T>(app: TestApp, path: string, body: object, token: string) => {
    const res = await app.call<T>(path, body, { token });
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  async function settle(d: Delivery) {
    for (let i = 0; i < 4; i++) {
      await d.gateway.idle();
      await d.tasks.idle();
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async function until(d: Delivery, what: string, pred: () => boolean | Promise<boolean>, maxMs = 400_000) {
    const step = 2000;
    for (let done = 0; done <= maxMs; done += step) {
      await settle(d);
      if (await pred()) return;
      t().clock.advance(step);
      await sim?.clock.advance(step);
      await d.tasks.tick();
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('re-renders and delivers exactly the tags whose label uses the template, or draws text', async () => {
    const app = t();
    const world = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const dbx = app.app.services.db;
    const station = await call<AddStationData>(app, '/mgr/ap/add', { sn: 'TPL-A' }, token);
    const priced = await call<Template>(app, '/mgr/templ/addtemple', { name: 'priced', model: '05' }, token);
    await call(app, '/mgr/templ/alerttempData', { id: priced.id, doc: textDoc }, token);
    const boxed = await call<Template>(app, '/mgr/templ/addtemple', { name: 'boxed', model: '05' }, token);
    await call(app, '/mgr/templ/alerttempData', { id: boxed.id, doc: boxDoc }, token);
    await call(app, '/mgr/templ/setrule', { kind: 'default', model: '05', templateId: priced.id }, token);
    const tags: Array<{ id: number; hw: string }> = [];
    for (let i = 0; i < 3; i++) {
      const product = await buildProduct(app.app, at, { name: `Pear ${i}`, priceCents: 200 + i });
      const tag = await buildTag(app.app, at, { model: '05', productId: product.id });
      tags.push({ id: tag.id, hw: tag.hardware_id });
    }
    const [a, b, c] = tags as [(typeof tags)[0], (typeof tags)[0], (typeof tags)[0]];
    // The third tag shows the text-free label, whatever the rules say.
    await call(app, '/mgr/tag/settemplate', { ids: [c.id], templateId: boxed.id }, token);
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: tags.map((x, i) => ({ id: x.hw, hw: '05', wakeS: 40, x: 2 + i, y: 1 })),
        },
      ],
      speed: 0,
      seed: 'TPL-A',
      start: app.clock.now(),
    });
    const s = sim;
    await s.waitFor(() => s.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    await until(delivery, 'tags routed', async () =>
      (await dbx.selectFrom('tags').select('station_id').where('store_id', '=', at.storeId).execute()).every(
        (r) => r.station_id !== null,
      ),
    );
    const full = await call<{ requestId: number }>(app, '/mgr/tag/flashallesl', {}, token);
    const requestDone = async () =>
      (await call<{ status: string }>(app, '/mgr/request/get', { id: full.requestId }, token)).status === 'done';
    await until(
      delivery,
      'the first pictures',
      async () => (await requestDone()) && tags.every((x) => s.tag(x.hw).screen()),
    );
    await until(delivery, 'quiet', async () =>
      (await dbx.selectFrom('device_tasks').select('state').execute()).every((r) =>
        ['done', 'failed', 'cancelled'].includes(r.state),
      ),
    );

    const slotRev = async (tagId: number) =>
      Number(
        (await dbx.selectFrom('device_tasks').select('rev').where('tag_id', '=', tagId).executeTakeFirstOrThrow()).rev,
      );
    /** The label of the template as stored now, rendered here with these values. */
    const hashOf = async (values: Record<string, string>) => {
      const doc = (await templates.documentsOf(dbx, at.tenantId, [priced.id])).get(priced.id)?.doc;
      if (!doc) throw new Error('template');
      const [out] = await renderJobs([
        { tenantId: at.tenantId, tagId: 0, doc, data: values, model: '05', colour: 'bwr' },
      ]);
      if (!out || !('hash' in out)) throw new Error('render failed');
      return out.hash;
    };
    const before = { a: s.tag(a.hw).screen()?.hash, c: s.tag(c.hw).screen()?.hash, cRev: await slotRev(c.id) };
    expect(before.a).toBe(await hashOf({ name: 'Pear 0', price: '2.00' }));

    // The template changes behind the console's back (a restore, a migration): nothing is sent by itself…
    const stored = await dbx.selectFrom('templates').selectAll().where('id', '=', priced.id).executeTakeFirstOrThrow();
    const changed = {
      ...JSON.parse(stored.document),
      elements: JSON.parse(stored.document).elements.map((e: { id: string; font: object }) =>
        e.id === 'price' ? { ...e, font: { ...e.font, size: 40 } } : e,
      ),
    };
    await dbx
      .updateTable('templates')
      .set({ document: JSON.stringify(changed), revision: stored.revision + 1 })
      .where('id', '=', priced.id)
      .execute();
    const want = [await hashOf({ name: 'Pear 0', price: '2.00' }), await hashOf({ name: 'Pear 1', price: '2.01' })];
    expect(want[0]).not.toBe(before.a);
    const rendered = delivery.tasks.counters.rendered;
    for (let i = 0; i < 30; i++) {
      t().clock.advance(2000);
      await s.clock.advance(2000);
      await delivery.tasks.tick();
      await settle(delivery);
    }
    expect(s.tag(a.hw).screen()?.hash).toBe(before.a);
    expect(delivery.tasks.counters.rendered).toBe(rendered);

    // …until it is sent: the two tags using it show the new label; the third is not touched.
    const sent = await call<{ tags: number; pushIds: number[] }>(
      app,
      '/mgr/templ/updatedevtmpl',
      { ids: [priced.id] },
      token,
    );
    expect(sent.tags).toBe(2);
    expect(sent.pushIds).toHaveLength(1);
    await until(
      delivery,
      'the new label',
      () => s.tag(a.hw).screen()?.hash === want[0] && s.tag(b.hw).screen()?.hash === want[1],
    );
    expect(s.tag(c.hw).screen()?.hash).toBe(before.c);
    expect(await slotRev(c.id)).toBe(before.cRev);
    const push = await dbx
      .selectFrom('push_log')
      .selectAll()
      .where('id', '=', sent.pushIds[0] as number)
      .executeTakeFirstOrThrow();
    expect(push).toMatchObject({ store_id: at.storeId, source: 'console' });
    expect([Number(push.tags_affected), Number(push.rendered), Number(push.failed), Number(push.products)]).toEqual([
      2, 2, 0, 0,
    ]);
    const pushes = await dbx.selectFrom('push_log').select('id').where('store_id', '=', at.storeId).execute();
    expect(pushes).toHaveLength(1);

    // Fonts: the labels that draw text are rendered again (not reused), and skipped on the air
    // since the pictures did not change; the text-free label is left alone.
    const transfers = tags.map((x) => s.tag(x.hw).transfers);
    const revs = await Promise.all(tags.map((x) => slotRev(x.id)));
    const renderedBefore = delivery.tasks.counters.rendered;
    const fonts = await call<{ tags: number; pushIds: number[] }>(app, '/mgr/templ/updatedevfonts', {}, token);
    expect(fonts.tags).toBe(2);
    await until(delivery, 'fonts done', async () => {
      const row = await dbx
        .selectFrom('push_log')
        .selectAll()
        .where('id', '=', fonts.pushIds[0] as number)
        .executeTakeFirstOrThrow();
      return Number(row.rendered) === 2;
    });
    await until(delivery, 'slots final', async () =>
      (await dbx.selectFrom('device_tasks').select('state').execute()).every((r) =>
        ['done', 'failed', 'cancelled'].includes(r.state),
      ),
    );
    expect(delivery.tasks.counters.rendered).toBe(renderedBefore + 2);
    expect(await Promise.all(tags.map((x) => slotRev(x.id)))).toEqual([
      (revs[0] ?? 0) + 1,
      (revs[1] ?? 0) + 1,
      revs[2],
    ]);
    expect(tags.map((x) => s.tag(x.hw).transfers)).toEqual(transfers);
    expect(s.tag(a.hw).screen()?.hash).toBe(want[0]);
  });
});
