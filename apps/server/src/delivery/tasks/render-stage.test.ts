import type { Template } from '@esl/contract';
import { decodeMessage, type HelloMsg, type Job } from '@esl/contract/protocol';
import { TEMPLATE_VERSION, TemplateDocument } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { Notices } from '../../infra/notice/notices';
import { type RenderJob, renderJobs } from '../../infra/render';
import { dataPushed, PRIO, relabelTags } from '../../outbox/slots/enqueue';
import * as outbox from '../../outbox/slots/repository';
import { refresh } from '../../outbox/slots/requests';
import { buildShop, buildStation, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { testImage } from '../../test/delivery';
import { brandDoc } from '../../test/fonts';
import { useApp } from '../../test/harness';
import { mqttStationLink } from '../link/station-link';
import { createTaskEngine, type RenderBackend } from './engine';
import { jobId } from './policy';

// The render stage's order of work (DELIVERY.md §5.3), seen through a render backend that records
// its calls: which tags each batch draws, and when batches are drawn and written; the data-push
// log's state as labels render; the order of dispatch by priority.

const doc = {
  version: TEMPLATE_VERSION,
  size: { model: '05', w: 250, h: 122 },
  colourType: 'bwr',
  elements: [{ type: 'text', id: 'name', x: 4, y: 4, w: 242, h: 40, font: { size: 28 }, binding: { key: 'name' } }],
};

describe.each(await testDatabases())('render stage ($name)', (target) => {
  const t = useApp(target);

  /** The callback events the tenant's outbox holds: all must be label problems; their data. */
  async function labelProblems(tenantId: number) {
    const events = await t()
      .app.services.db.selectFrom('callback_outbox')
      .select(['type', 'payload'])
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(events.map((e) => e.type)).toEqual(events.map(() => 'label.problem'));
    return events.map((e) => JSON.parse(e.payload).data as Record<string, unknown>);
  }

  /**
   * Two stations with four tags each, routed in id order (A's tags first), one template for all;
   * every tag's label to render unless `enqueue` is false. Renders wait for `gate` when given.
   */
  async function setup(o: { enqueue?: boolean; gate?: Promise<void>; realRender?: boolean; callbacks?: boolean } = {}) {
    const { app } = t();
    const shop = await buildShop(app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const token = shop.tokens.admin;
    // A callback URL, so the stage's label.problem events are queued.
    if (o.callbacks) {
      await app.services.db
        .insertInto('callback_settings')
        .values({ tenant_id: at.tenantId, url: 'http://127.0.0.1:9/cb', updated_at: 0 })
        .execute();
    }
    const ok = async <T>(path: string, body: object) => {
      const res = await t().call<T>(path, body, { token });
      if (res.code !== 0) throw new Error(`${path}: ${res.msg}`);
      return res.data as T;
    };
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'order', model: '05' });
    await ok('/mgr/templ/alerttempData', { id: template.id, doc });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const stations = [await buildStation(app, at), await buildStation(app, at)];
    const byStation = new Map<number, number>();
    const tagIds: number[] = [];
    const bound = await insertBoundTags(app.services.db, at, 8, {
      hwPrefix: `C${Math.floor(Math.random() * 0xfff)
        .toString(16)
        .toUpperCase()
        .padStart(3, '0')}`,
      priceCents: (i) => 100 + i,
      now: t().clock.now(),
    });
    for (const [i, b] of bound.entries()) {
      const st = stations[i < 4 ? 0 : 1];
      const tag = await app.services.db
        .updateTable('tags')
        .set({ station_id: st.id })
        .where('tenant_id', '=', at.tenantId)
        .where('hardware_id', '=', b.hw)
        .returning('id')
        .executeTakeFirstOrThrow();
      byStation.set(tag.id, st.id);
      tagIds.push(tag.id);
    }
    if (o.enqueue !== false) {
      await app.services.db.transaction().execute((trx) => relabelTags(trx, at, tagIds, t().clock.now()));
    }

    const calls: Array<{ what: 'render' | 'store'; tags: number[] }> = [];
    const render: RenderBackend = {
      async render(jobs: RenderJob[]) {
        calls.push({ what: 'render', tags: jobs.map((j) => j.tagId) });
        await o.gate;
        if (o.realRender) return renderJobs(jobs);
        return jobs.map((j) => {
          const image = testImage('05', j.tagId);
          return {
            tagId: j.tagId,
            hash: image.hash,
            ver: image.hash.slice(0, 16),
            bytes: image.bytes,
            width: 250,
            height: 122,
            colour: 'bwr' as const,
            size: image.bytes.length,
            problems: [],
          };
        });
      },
      async storeImages(_trx, _tenantId, images) {
        calls.push({ what: 'store', tags: images.map((i) => i.tagId) });
      },
      async loadImage() {
        return null;
      },
      async close() {},
    };
    /** Jobs published to the stations, message by message. */
    const published: Array<{ topic: string; jobs: Job[] }> = [];
    const engine = createTaskEngine({
      db: app.services.db,
      link: mqttStationLink({
        publish: async (topic, payload) => {
          const m = topic.endsWith('/down/jobs') ? decodeMessage('jobs', payload) : null;
          if (m?.ok) published.push({ topic, jobs: m.message.jobs });
        },
        subscribe: async () => async () => {},
        connected: () => true,
        close: async () => {},
      }),
      notices: new Notices(),
      now: t().clock.now,
      render,
      renderBatch: 2,
    });
    return { engine, calls, byStation, tagIds, at, stations, published };
  }

  it('reports characters no font draws: the push log names tag, product and field, the tag log and the callback record it', async () => {
    const { app } = t();
    const db = app.services.db;
    const { engine, tagIds, at } = await setup({ enqueue: false, realRender: true, callbacks: true });
    const [a, b] = tagIds as [number, number];
    const tagA = await db
      .selectFrom('tags')
      .select(['product_id', 'hardware_id'])
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    // One product's name has a character no label font has (an emoji); the other is plain Korean.
    const tagB = await db.selectFrom('tags').select(['product_id']).where('id', '=', b).executeTakeFirstOrThrow();
    await db.updateTable('products').set({ name: '사과 🍎' }).where('id', '=', Number(tagA.product_id)).execute();
    await db.updateTable('products').set({ name: '사과' }).where('id', '=', Number(tagB.product_id)).execute();
    const push = await db
      .transaction()
      .execute((trx) =>
        dataPushed(trx, at, { source: 'api', userId: null, products: 2, tagIds: [a, b], now: t().clock.now() }),
      );
    engine.kick();
    await engine.idle();
    const row = await db
      .selectFrom('push_log')
      .select(['rendered', 'failed', 'exceptions'])
      .where('id', '=', push)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rendered: 2, failed: 0 });
    expect(JSON.parse(row.exceptions)).toEqual([
      `${tagA.hardware_id} product ${tagA.product_id}: no font can draw name "🍎" (U+1F34E)`,
    ]);
    const logged = await db
      .selectFrom('tag_log')
      .select(['tag_id', 'kind', 'result', 'code'])
      .where('tag_id', 'in', [a, b])
      .execute();
    expect(logged).toEqual([{ tag_id: a, kind: 'render', result: 'ok', code: 'missingGlyph' }]);
    expect(await labelProblems(at.tenantId)).toMatchObject([
      {
        tagId: a,
        hardwareId: tagA.hardware_id,
        productId: Number(tagA.product_id),
        code: 'missingGlyph',
        problems: [{ element: 'name', field: 'name', chars: '🍎' }],
      },
    ]);
    await engine.close();
  }, 60_000);

  it('reports a font the tenant does not have: drawn in the base font, the tag log and the callback record it', async () => {
    const { app } = t();
    const db = app.services.db;
    const { engine, tagIds, at } = await setup({ enqueue: false, realRender: true, callbacks: true });
    // The template names a family this tenant never uploaded (another tenant's, or deleted).
    await db
      .updateTable('templates')
      .set({ document: JSON.stringify(TemplateDocument.parse(brandDoc('Nobody Sans'))) })
      .where('tenant_id', '=', at.tenantId)
      .where('name', '=', 'order')
      .execute();
    const [a] = tagIds as [number];
    const tagA = await db
      .selectFrom('tags')
      .select(['product_id', 'hardware_id'])
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    await db
      .transaction()
      .execute((trx) =>
        dataPushed(trx, at, { source: 'api', userId: null, products: 1, tagIds: [a], now: t().clock.now() }),
      );
    engine.kick();
    await engine.idle();
    const logged = await db.selectFrom('tag_log').select(['kind', 'result', 'code']).where('tag_id', '=', a).execute();
    expect(logged).toEqual([{ kind: 'render', result: 'ok', code: 'unknownFont' }]);
    expect(await labelProblems(at.tenantId)).toMatchObject([
      {
        tagId: a,
        hardwareId: tagA.hardware_id,
        productId: Number(tagA.product_id),
        code: 'unknownFont',
        problems: [{ element: 'brand', family: 'Nobody Sans' }],
      },
    ]);
    await engine.close();
  }, 60_000);

  it('draws every station’s tags from the first batch on, not one station’s tags after another’s', async () => {
    const { engine, calls, byStation } = await setup();
    engine.kick();
    await engine.idle();
    const renders = calls.filter((c) => c.what === 'render');
    expect(renders.flatMap((c) => c.tags)).toHaveLength(8);
    // Each batch of two holds a tag of each station (in id order the first two would be A's).
    for (const r of renders) expect(new Set(r.tags.map((id) => byStation.get(id))).size).toBe(2);
    await engine.close();
  });

  it('writes the first batch at once, then draws each next batch while the previous one is written', async () => {
    const { engine, calls, tagIds } = await setup();
    engine.kick();
    await engine.idle();
    // The first batch is stored (and dispatched) at once; from then on each batch goes to the
    // renderer before the one before it is stored. Four batches of two, all stored.
    const order = ['render', 'store', 'render', 'render', 'store', 'render', 'store', 'store'];
    expect(calls.map((c) => c.what)).toEqual(order);
    expect(
      calls
        .filter((c) => c.what === 'store')
        .flatMap((c) => c.tags)
        .sort(),
    ).toEqual([...tagIds].sort());
    const states = await t()
      .app.services.db.selectFrom('device_tasks')
      .select(['state', 'lease_until'])
      .where('tag_id', 'in', tagIds)
      .execute();
    expect(states.every((s) => s.state === 'queued' && s.lease_until === null)).toBe(true);
    await engine.close();
  });
  it('keeps a data push running until its labels are rendered; a later push takes over what it had not', async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { engine, calls, tagIds, at } = await setup({ enqueue: false, gate });
    const db = t().app.services.db;
    const [a, b] = tagIds as [number, number];
    const pushed = (ids: number[]) =>
      db
        .transaction()
        .execute((trx) =>
          dataPushed(trx, at, { source: 'api', userId: null, products: ids.length, tagIds: ids, now: t().clock.now() }),
        );
    const row = (id: number) =>
      db
        .selectFrom('push_log')
        .select(['rendered', 'failed', 'finished_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    // Nothing to render: finished at once.
    const none = await pushed([]);
    expect(await row(none)).toMatchObject({ rendered: 0, finished_at: t().clock.now() });
    const first = await pushed([a, b]);
    expect(await row(first)).toMatchObject({ rendered: 0, failed: 0, finished_at: null });
    // b changes again before its render: the second push takes it over, counted rendered for the
    // first (b will show the newer data, which includes the first change).
    t().clock.advance(2000);
    const second = await pushed([b]);
    expect(await row(first)).toMatchObject({ rendered: 1, finished_at: null });
    engine.kick();
    for (let i = 0; i < 200 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    // a is being drawn: both pushes still run.
    expect(calls[0]?.tags).toEqual([a, b]);
    expect((await row(first)).finished_at).toBeNull();
    expect((await row(second)).finished_at).toBeNull();
    release();
    await engine.idle();
    expect(await row(first)).toMatchObject({ rendered: 2, failed: 0, finished_at: t().clock.now() });
    expect(await row(second)).toMatchObject({ rendered: 1, failed: 0, finished_at: t().clock.now() });
    await engine.close();
  });

  it('finishes, at the next reconcile, a push whose tags were deleted before their labels rendered', async () => {
    const { engine, tagIds, at } = await setup({ enqueue: false });
    const db = t().app.services.db;
    const [a] = tagIds as [number];
    const push = await db
      .transaction()
      .execute((trx) =>
        dataPushed(trx, at, { source: 'api', userId: null, products: 1, tagIds: [a], now: t().clock.now() }),
      );
    // The tag goes, its slot with it, before the render stage ever claims it.
    await db.deleteFrom('device_tasks').where('tag_id', '=', a).execute();
    await db.deleteFrom('tags').where('id', '=', a).execute();
    const finished = async () =>
      (await db.selectFrom('push_log').select('finished_at').where('id', '=', push).executeTakeFirstOrThrow())
        .finished_at;
    expect(await finished()).toBeNull();
    t().clock.advance(61_000);
    await engine.tick();
    await engine.idle();
    expect(await finished()).toBe(t().clock.now());
    await engine.close();
  });

  it('dispatches interactive work first, then data changes, then bulk, through a window of one', async () => {
    const { engine, tagIds, at, stations, published } = await setup({ enqueue: false });
    const db = t().app.services.db;
    const station = stations[0] as (typeof stations)[number];
    await db.updateTable('stations').set({ online: 1 }).where('id', '=', station.id).execute();
    const ref = { id: station.id, tenant_id: at.tenantId, store_id: at.storeId, sn: station.sn };
    const hello: HelloMsg = {
      v: 1,
      connId: 'c1',
      boot: 1,
      model: 'sim',
      fw: { ap: '1.0.0' },
      radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
      caps: { queue: 1, queueBytes: 1 << 20, inlineMax: 16_384, chunk: 16_384, fwConcurrent: 1, kinds: ['image'] },
      queue: [],
      outbox: 0,
      net: { ip: '10.0.0.2', mac: '02:00:00:00:00:01' },
      cfgRev: 0,
      time: t().clock.now(),
    };
    await engine.onHello(ref, hello);
    expect(engine.windowOf(station.id).window).toBe(1);
    // Three tags of that station, enqueued in the order a first-come queue would serve them:
    // a template change (bulk), then a price change (data), then a user's refresh (interactive).
    const [bulk, data, interactive] = tagIds as [number, number, number];
    const now = t().clock.now();
    await db.transaction().execute(async (trx) => {
      await outbox.upsertImageSlots(trx, {
        ...at,
        tagIds: [bulk],
        prio: PRIO.bulk,
        force: false,
        requestId: null,
        now,
      });
      await relabelTags(trx, at, [data], now);
    });
    await refresh(db, { ...at, userId: null, now }, [interactive], false);
    const slots = await db
      .selectFrom('device_tasks')
      .select(['id', 'tag_id'])
      .where('tag_id', 'in', [bulk, data, interactive])
      .execute();
    const kindOf = new Map(
      slots.map((x) => [jobId(x.id), x.tag_id === bulk ? 'bulk' : x.tag_id === data ? 'data' : 'interactive']),
    );
    const order: Array<string | undefined> = [];
    engine.kick();
    await engine.idle();
    for (let i = 0; i < 3; i++) {
      // One job at a time (the window), the most urgent waiting one.
      expect(published).toHaveLength(i + 1);
      expect(published[i]?.jobs).toHaveLength(1);
      const job = published[i]?.jobs[0];
      if (job?.kind !== 'image') throw new Error('no image job');
      order.push(kindOf.get(job.id));
      // The tag shows it: the window frees, the next job goes out.
      await engine.onResult(ref, {
        v: 1,
        results: [{ id: job.id, rev: job.rev, code: 'ok', ver: job.image.ver, at: t().clock.now() }],
      });
      await engine.idle();
    }
    expect(order).toEqual(['interactive', 'data', 'bulk']);
    await engine.close();
  });
});
