import type { AddStationData, Template } from '@esl/contract';
import { TemplateDocument } from '@esl/labels';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { renderJobs } from '../infra/render';
import * as fonts from '../modules/fonts/service';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { brandDoc, OCRB, uploadFont } from '../test/fonts';
import { type TestApp, useApp } from '../test/harness';
import type { Delivery } from './wiring';

// A tenant's brand font on a simulated tag (issue 28 item 3): named by the template the tag shows
// (drawn in the base font and reported until the font is there), uploaded, and the tag redrawn
// with it by the server's render stage without anyone sending anything; delivered and decoded by
// the tag; another tenant's render of the same document never gets the font.

describe.each(await testDatabases())('a brand font on a simulated tag ($name)', (db) => {
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

  it("the tag shows the label drawn in the tenant's font, redrawn when the font arrives; another tenant's render falls back", async () => {
    const app = t();
    const world = await buildShop(app.app);
    const other = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const dbx = app.app.services.db;

    // The template names the brand family before the tenant has uploaded it.
    const station = await call<AddStationData>(app, '/mgr/ap/add', { sn: 'FONT-A' }, token);
    const promo = await call<Template>(app, '/mgr/templ/addtemple', { name: 'promo', model: '05' }, token);
    const doc = TemplateDocument.parse(brandDoc('Acme OCR'));
    await call(app, '/mgr/templ/alerttempData', { id: promo.id, doc }, token);
    await call(app, '/mgr/templ/setrule', { kind: 'default', model: '05', templateId: promo.id }, token);
    const product = await buildProduct(app.app, at, { name: 'Pear', priceCents: 200 });
    const tag = await buildTag(app.app, at, { model: '05', productId: product.id });

    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: [{ id: tag.hardware_id, hw: '05', wakeS: 40, x: 2, y: 1 }],
        },
      ],
      speed: 0,
      seed: 'FONT-A',
      start: app.clock.now(),
    });
    const s = sim;
    await s.waitFor(() => s.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    await until(delivery, 'tag routed', async () =>
      (await dbx.selectFrom('tags').select('station_id').where('id', '=', tag.id).execute()).every(
        (r) => r.station_id !== null,
      ),
    );

    const render = async (tenantId: number) => {
      const faces = await fonts.facesFor(dbx, tenantId, [doc]);
      const [out] = await renderJobs([
        { tenantId, tagId: 0, doc, data: { name: 'Pear', price: '2.00' }, model: '05', colour: 'bwr', fonts: faces },
      ]);
      if (!out || !('hash' in out)) throw new Error('render failed');
      return out;
    };
    // Without the font the label is drawn in the base font, and the render stage says so.
    const fallback = await render(at.tenantId);
    expect(fallback.unknownFonts).toEqual([{ element: 'brand', family: 'Acme OCR' }]);
    await call(app, '/mgr/tag/flashallesl', {}, token);
    await until(delivery, 'the fallback picture', () => s.tag(tag.hardware_id).screen()?.hash === fallback.hash);
    const codes = async () =>
      (await dbx.selectFrom('tag_log').select('code').where('tag_id', '=', tag.id).execute()).map((r) => r.code);
    expect((await codes()).filter((c) => c === 'unknownFont')).toHaveLength(1);

    // The upload alone redraws the tag with the brand font: nobody sends anything.
    const uploaded = await uploadFont(app.app, token, { name: 'brand.ttf', bytes: OCRB, family: 'Acme OCR' });
    expect(uploaded.code, uploaded.msg).toBe(0);
    const mine = await render(at.tenantId);
    const theirs = await render(other.tenant.id);
    expect(mine.unknownFonts).toEqual([]);
    expect(mine.hash).not.toBe(fallback.hash);
    await until(delivery, 'the brand picture', () => s.tag(tag.hardware_id).screen()?.hash === mine.hash);
    // Another tenant's render of the same document never gets the font.
    expect(theirs.hash).toBe(fallback.hash);
    expect(theirs.unknownFonts).toEqual([{ element: 'brand', family: 'Acme OCR' }]);
    // The label drawn with the font logged no new font problem.
    expect((await codes()).filter((c) => c === 'unknownFont')).toHaveLength(1);
  });
});
