import type { AddStationData, Tag, Template } from '@esl/contract';
import { decodeTagImage, TEMPLATE_VERSION, type TemplateDocumentInput } from '@esl/labels';
import { type FlapSpec, type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as templates from '../modules/templates/service';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { type TestApp, useApp } from '../test/harness';
import { loadImage, renderJobs } from './render';
import type { Delivery } from './service';

// Labels reach the tags (issue 13): the real server with its task engine, the simulator's
// stations and tags over the embedded broker. The tags decode what they receive themselves, so
// every check of a screen is a check of the pixels that arrived, not of a status flag.

const doc: TemplateDocumentInput = {
  version: TEMPLATE_VERSION,
  size: { model: '05', w: 250, h: 122 },
  colourType: 'bwr',
  elements: [
    {
      type: 'text',
      id: 'name',
      x: 4,
      y: 4,
      w: 242,
      h: 30,
      font: { size: 24, weight: 'bold' },
      binding: { key: 'name' },
    },
    {
      type: 'price',
      id: 'price',
      x: 4,
      y: 40,
      w: 242,
      h: 70,
      colour: 'red',
      font: { size: 56, weight: 'bold' },
      binding: { key: 'price' },
    },
  ],
};

interface Shop {
  token: string;
  tenantId: number;
  storeId: number;
  sim: Simulator;
  delivery: Delivery;
  tags: Array<{ id: number; hw: string; productId: number }>;
  templateId: number;
}

describe.each(await testDatabases())('labels reach simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const call = async <T>(app: TestApp, path: string, body: object, token: string) => {
    const res = await app.call<T>(path, body, { token });
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  /** Lets the server handle everything the stations sent, and the engine finish its pump. */
  async function settle(d: Delivery) {
    for (let i = 0; i < 4; i++) {
      await d.gateway.idle();
      await d.tasks.idle();
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  /** Moves the simulated time on in steps, letting the server answer between them. */
  async function advance(s: Shop, ms: number, step = 2000) {
    for (let done = 0; done < ms; done += step) {
      t().clock.advance(Math.min(step, ms - done));
      await s.sim.clock.advance(Math.min(step, ms - done));
      await settle(s.delivery);
    }
  }

  /** Advances until `pred` holds (at most `maxMs` of simulated time). */
  async function until(s: Shop, what: string, pred: () => boolean | Promise<boolean>, maxMs = 400_000, step = 2000) {
    for (let done = 0; done <= maxMs; done += step) {
      await settle(s.delivery);
      if (await pred()) return;
      t().clock.advance(step);
      await s.sim.clock.advance(step);
      // What the delivery timer does every second in production: deadlines, reconciler, dispatch.
      await s.delivery.tasks.tick();
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** A store with one station, `n` tags of model 05 heard by it (bound unless `unbound`), and a default template. */
  async function shop(
    n: number,
    sn: string,
    unbound = 0,
    flap: FlapSpec | null = null,
    queueSize?: number,
  ): Promise<Shop> {
    const app = t();
    const world = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const station = await call<AddStationData>(app, '/mgr/ap/add', { sn }, token);
    const template = await call<Template>(app, '/mgr/templ/addtemple', { name: `price ${sn}`, model: '05' }, token);
    await call(app, '/mgr/templ/alerttempData', { id: template.id, doc }, token);
    await call(app, '/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id }, token);
    const tags: Shop['tags'] = [];
    for (let i = 0; i < n; i++) {
      const product = await buildProduct(app.app, at, { name: `Apple ${i}`, priceCents: 100 + i });
      const tag = await buildTag(app.app, at, { model: '05', productId: i < unbound ? null : product.id });
      tags.push({ id: tag.id, hw: tag.hardware_id, productId: product.id });
    }
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: tags.map((x, i) => ({ id: x.hw, hw: '05', wakeS: 40, x: 2 + (i % 10), y: 1 + Math.floor(i / 10) })),
        },
      ],
      speed: 0,
      seed: sn,
      start: app.clock.now(),
      flap,
      queueSize,
    });
    // One clock for both: the server's moves with the simulated one.
    const s: Shop = { token, ...at, sim, delivery, tags, templateId: template.id };
    await sim.waitFor(() => sim?.stations.every((x) => x.isWelcomed) ?? false, { what: 'welcome' });
    // Every tag checks in and is reported: the server knows its route.
    await until(s, 'tags routed', async () => {
      const rows = await app.app.services.db
        .selectFrom('tags')
        .select('station_id')
        .where('store_id', '=', at.storeId)
        .execute();
      return rows.every((r) => r.station_id !== null);
    });
    return s;
  }

  const tagRow = (id: number) =>
    t().app.services.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** What the label of a tag with these values looks like, rendered here from the template. */
  async function expectedHash(s: Shop, values: Record<string, string>) {
    const docs = await templates.documentsOf(t().app.services.db, s.tenantId, [s.templateId]);
    const found = docs.get(s.templateId);
    if (!found) throw new Error('template');
    const [out] = await renderJobs([
      { tenantId: s.tenantId, tagId: 0, doc: found.doc, data: values, model: '05', colour: 'bwr' },
    ]);
    if (!out || !('hash' in out)) throw new Error('render failed');
    return out.hash;
  }

  async function progressOf(s: Shop, id: number) {
    return call<{ status: string; done: number; failed: number; total: number }>(
      t(),
      '/mgr/request/get',
      { id },
      s.token,
    );
  }

  it('bind + refresh: the tag decodes exactly the server’s render, is normal, and has one tag-log row', async () => {
    const s = await shop(2, 'DLV-A', 1);
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    const notices: Array<{ type: string; [k: string]: unknown }> = [];
    const off = t().app.services.notices.add(
      { send: (text) => notices.push(JSON.parse(text)) },
      { tenantId: s.tenantId, userId: 0 },
    );
    const product = await t()
      .app.services.db.selectFrom('products')
      .select('barcode')
      .where('id', '=', tag.productId)
      .executeTakeFirstOrThrow();
    await call(t(), '/mgr/tag/bindesl', { hardwareId: tag.hw, barcode: product.barcode }, s.token);
    const started = await call<{ requestId: number; tasks: number }>(
      t(),
      '/mgr/tag/flashesl',
      { ids: [tag.id] },
      s.token,
    );
    expect(started.tasks).toBe(1);
    await until(s, 'the picture', () => s.sim.tag(tag.hw).screen() !== null);
    const row = await tagRow(tag.id);
    const screen = s.sim.tag(tag.hw).screen();
    expect(row.desired_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(screen?.hash).toBe(row.desired_hash);
    // Pixel for pixel: the server's stored bytes decoded against what the tag decoded itself.
    const stored = await loadImage(t().app.services.db, s.tenantId, row.desired_hash as string);
    if (!stored || !screen) throw new Error('image');
    const server = decodeTagImage(stored.bytes);
    expect([screen.image.width, screen.image.height]).toEqual([server.width, server.height]);
    expect(Buffer.from(screen.image.data).equals(Buffer.from(server.data))).toBe(true);
    expect(screen.hash).toBe(await expectedHash(s, { name: 'Apple 0', price: '1.00' }));
    // The next report confirms the version: the tag is up to date.
    await until(s, 'status normal', async () => {
      const rows = (await call<Tag[]>(t(), '/mgr/tag/list', {}, s.token)) as Tag[];
      return rows.find((r) => r.id === tag.id)?.status === 'normal';
    });
    const log = await t().app.services.db.selectFrom('tag_log').selectAll().where('tag_id', '=', tag.id).execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ result: 'ok', hash: row.desired_hash });
    const p = await progressOf(s, started.requestId);
    expect(p).toMatchObject({ status: 'done', done: 1, failed: 0, total: 1 });
    off();
    expect(notices).toContainEqual(
      expect.objectContaining({ type: 'request.progress', id: started.requestId, status: 'done', done: 1, total: 1 }),
    );
    expect(notices.some((n) => n.type === 'tag.changed' && (n.ids as number[]).includes(tag.id))).toBe(true);

    // Refresh again: the tag shows it already, nothing is sent; forced, it is sent again.
    const transfers = s.sim.tag(tag.hw).transfers;
    const reused = s.delivery.tasks.counters.renderReused;
    const again = await call<{ requestId: number }>(t(), '/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
    await until(s, 'second refresh done', async () => (await progressOf(s, again.requestId)).status === 'done');
    expect(
      (
        await t()
          .app.services.db.selectFrom('device_tasks')
          .select('code')
          .where('tag_id', '=', tag.id)
          .executeTakeFirstOrThrow()
      ).code,
    ).toBe('skipped');
    // Nothing it depends on changed: not even rendered again.
    expect(s.delivery.tasks.counters.renderReused).toBe(reused + 1);
    await advance(s, 60_000);
    expect(s.sim.tag(tag.hw).transfers).toBe(transfers);
    const forced = await call<{ requestId: number }>(t(), '/mgr/tag/flashesl', { ids: [tag.id], force: true }, s.token);
    await until(s, 'forced refresh done', async () => (await progressOf(s, forced.requestId)).status === 'done');
    expect(s.sim.tag(tag.hw).transfers).toBe(transfers + 1);
  });

  it('coalesces ten price changes into at most two transfers, showing the last price', async () => {
    const s = await shop(2, 'DLV-B');
    const before = s.tags.map((x) => s.sim.tag(x.hw).transfers);
    for (let i = 1; i <= 10; i++) {
      for (const x of s.tags) await call(t(), '/mgr/product/alert', { id: x.productId, price: `${i}.50` }, s.token);
      await new Promise((r) => setTimeout(r, 20));
    }
    const want = await Promise.all(s.tags.map((_, i) => expectedHash(s, { name: `Apple ${i}`, price: '10.50' })));
    await until(s, 'last price on every tag', () => s.tags.every((x, i) => s.sim.tag(x.hw).screen()?.hash === want[i]));
    await advance(s, 90_000);
    s.tags.forEach((x, i) => {
      expect(s.sim.tag(x.hw).screen()?.hash).toBe(want[i]);
      expect(s.sim.tag(x.hw).transfers - (before[i] ?? 0)).toBeLessThanOrEqual(2);
    });
    // One data-push row per console edit.
    const pushes = await t()
      .app.services.db.selectFrom('push_log')
      .selectAll()
      .where('store_id', '=', s.storeId)
      .execute();
    expect(pushes).toHaveLength(20);
    expect(pushes.every((p) => p.source === 'console' && Number(p.tags_affected) === 1)).toBe(true);
  });

  it('resends the picture of a tag that rebooted and lost it, without anyone asking', async () => {
    const s = await shop(1, 'DLV-C');
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    await call(t(), '/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
    await until(s, 'the picture', () => s.sim.tag(tag.hw).screen() !== null);
    const shown = s.sim.tag(tag.hw).screen()?.hash;
    await advance(s, 40_000);
    s.sim.tag(tag.hw).reboot();
    expect(s.sim.tag(tag.hw).screen()).toBeNull();
    await until(s, 'the picture again', () => s.sim.tag(tag.hw).screen()?.hash === shown);
    expect(s.delivery.tasks.counters.reopened).toBeGreaterThanOrEqual(1);
  });

  it('a station that reboots and forgets its jobs gets them again after its hello', async () => {
    const s = await shop(1, 'DLV-F');
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    const station = s.sim.stations[0];
    if (!station) throw new Error('station');
    const resent = s.delivery.tasks.counters.resent;
    await call(t(), '/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
    await settle(s.delivery);
    await s.sim.waitFor(() => station.queue.size === 1, { what: 'the job at the station' });
    expect(s.sim.tag(tag.hw).transfers).toBe(0);
    await station.reboot({ downMs: 3000 });
    expect(station.queue.size).toBe(0);
    await until(s, 'the picture', () => s.sim.tag(tag.hw).screen() !== null);
    expect(s.delivery.tasks.counters.resent).toBeGreaterThan(resent);
    expect(s.sim.tag(tag.hw).screen()?.hash).toBe((await tagRow(tag.id)).desired_hash);
  });

  it('a tag out of reach times out, is retried after a backoff, and gets its picture once back', async () => {
    const s = await shop(1, 'DLV-G');
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    const sim = s.sim.tag(tag.hw);
    const home = { x: sim.x, y: sim.y };
    sim.moveTo(20_000, 20_000);
    const started = await call<{ requestId: number }>(t(), '/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
    const slot = () =>
      t().app.services.db.selectFrom('device_tasks').selectAll().where('tag_id', '=', tag.id).executeTakeFirstOrThrow();
    // The station gives up after the job's TTL; the server sends it again after a backoff.
    await until(s, 'a second attempt', async () => Number((await slot()).attempt) >= 2, 900_000, 10_000);
    expect((await slot()).code).toBe('timeout');
    expect(sim.screen()).toBeNull();
    sim.moveTo(home.x, home.y);
    await until(s, 'the picture', () => sim.screen() !== null, 900_000, 10_000);
    await until(s, 'the request done', async () => (await progressOf(s, started.requestId)).status === 'done', 60_000);
    const log = await t().app.services.db.selectFrom('tag_log').selectAll().where('tag_id', '=', tag.id).execute();
    expect(log).toHaveLength(1);
    expect(log[0]?.result).toBe('ok');
    expect(Number(log[0]?.attempts)).toBeGreaterThanOrEqual(2);
    expect(sim.screen()?.hash).toBe((await tagRow(tag.id)).desired_hash);
  });

  it('a flapping station: every task ends with a code, and no old Will marks it offline', async () => {
    const s = await shop(6, 'DLV-H', 0, { everyS: 12, jitterS: 6, downS: 4 });
    const station = s.sim.stations[0];
    if (!station) throw new Error('station');
    const full = await call<{ requestId: number }>(t(), '/mgr/tag/flashallesl', {}, s.token);
    await until(
      s,
      'the full refresh',
      async () => (await progressOf(s, full.requestId)).status === 'done',
      900_000,
      1000,
    );
    const slots = await t()
      .app.services.db.selectFrom('device_tasks')
      .selectAll()
      .where('store_id', '=', s.storeId)
      .execute();
    expect(slots.every((x) => ['done', 'failed', 'cancelled'].includes(x.state) && x.code !== null)).toBe(true);
    // It did flap during the refresh (each drop leaves a Will).
    expect(station.stats.abruptLosses).toBeGreaterThanOrEqual(2);
    // Connected at the end: the server says online once its hello is handled.
    await until(s, 'connected', () => station.isWelcomed, 60_000, 1000);
    const online = async () =>
      Number(
        (
          await t()
            .app.services.db.selectFrom('stations')
            .select('online')
            .where('store_id', '=', s.storeId)
            .executeTakeFirstOrThrow()
        ).online,
      );
    expect(await online()).toBe(1);
    // Every tag ends showing its label: the flaps cost retries, not pictures.
    expect(slots.filter((x) => x.state === 'done')).toHaveLength(6);
    for (const x of s.tags) expect(s.sim.tag(x.hw).screen()?.hash).toBe((await tagRow(x.id)).desired_hash);
  });

  it('roll call of all and of some tags, an LED pattern, progress reaching 100 %', async () => {
    const s = await shop(3, 'DLV-D');
    const all = await call<{ requestId: number; tasks: number }>(t(), '/mgr/tag/echoallesl', {}, s.token);
    expect(all.tasks).toBe(3);
    await until(s, 'roll call of all', async () => (await progressOf(s, all.requestId)).status === 'done');
    expect(await progressOf(s, all.requestId)).toMatchObject({ done: 3, failed: 0, total: 3 });

    const [a, b] = s.tags;
    if (!a || !b) throw new Error('tags');
    const some = await call<{ requestId: number; tasks: number }>(
      t(),
      '/mgr/tag/echoesl',
      { ids: [a.id, b.id] },
      s.token,
    );
    expect(some.tasks).toBe(2);
    await until(s, 'roll call of two', async () => (await progressOf(s, some.requestId)).status === 'done');
    expect(await progressOf(s, some.requestId)).toMatchObject({ done: 2, failed: 0, total: 2 });

    const led = { colour: 'green', onMs: 200, offMs: 100, count: 3, repeat: 2 };
    const flash = await call<{ requestId: number }>(t(), '/mgr/tag/ledesl', { ids: [a.id], led }, s.token);
    await until(s, 'LED', async () => (await progressOf(s, flash.requestId)).status === 'done');
    expect(s.sim.tag(a.hw).flashes).toEqual([led]);
    expect(s.sim.tag(b.hw).flashes).toEqual([]);
  });

  it('tags beyond the station’s queue get their label in the same wake cycle when airtime allows', async () => {
    // 48 tags, a queue of 6 jobs: the window is refilled as results free it, with the jobs of
    // the tags that wake next, so every tag is served at its first wake after the refresh.
    const s = await shop(48, 'DLV-Q', 0, null, 6);
    await advance(s, 25_000); // tags last reported a while ago: their next wakes are not in the database
    const full = await call<{ requestId: number; tasks: number }>(t(), '/mgr/tag/flashallesl', {}, s.token);
    expect(full.tasks).toBe(48);
    await advance(s, 42_000, 250);
    expect(s.tags.filter((x) => s.sim.tag(x.hw).transfers === 0).map((x) => x.hw)).toEqual([]);
    expect(await progressOf(s, full.requestId)).toMatchObject({ status: 'done', done: 48, failed: 0 });
  }, 120_000);

  it('a price change during a full-store refresh: the newest price wins on every tag', async () => {
    const s = await shop(4, 'DLV-E');
    const full = await call<{ requestId: number; tasks: number }>(t(), '/mgr/tag/flashallesl', {}, s.token);
    expect(full.tasks).toBe(4);
    await advance(s, 4000);
    for (const x of s.tags) await call(t(), '/mgr/product/alert', { id: x.productId, price: '7.77' }, s.token);
    const want = await Promise.all(s.tags.map((_, i) => expectedHash(s, { name: `Apple ${i}`, price: '7.77' })));
    await until(s, 'the full refresh', async () => (await progressOf(s, full.requestId)).status === 'done');
    await until(s, 'newest price everywhere', () => s.tags.every((x, i) => s.sim.tag(x.hw).screen()?.hash === want[i]));
    expect(await progressOf(s, full.requestId)).toMatchObject({ done: 4, failed: 0, total: 4 });
  });
});
