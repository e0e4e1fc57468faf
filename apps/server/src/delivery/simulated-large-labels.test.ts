import type { AddStationData, Template } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { type TestApp, useApp } from '../test/harness';

// Large labels in one burst (found by hand in the demo: "jobs message is larger than 262144
// bytes"). 7.5" labels carry 3–10 KB inline each, so 64 jobs — the count limit of one
// `down/jobs` — can be far more than the byte limit of a message. The dispatcher must split by
// size too, or the whole batch is marked sent and never published, and every tag waits for its
// ack deadline and a second attempt.

const qr = (k: number) => ({
  type: 'qrcode' as const,
  id: `qr${k}`,
  x: 10 + k * 260,
  y: 10,
  w: 250,
  h: 250,
  value: `https://shop.example.com/offers/${'7Qx'.repeat(60)}/${k}`,
});

const doc = priceLabel({ model: '28', w: 800, h: 480, colourType: 'bwr', extra: [qr(0), qr(1), qr(2)] });

const TAGS = 72;

describe.each(await testDatabases())('large labels in one burst ($name)', (db) => {
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

  it('reach every tag at the first attempt, in messages within the byte limit', async () => {
    const app = t();
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    const world = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const station = await call<AddStationData>(app, '/mgr/ap/add', { sn: 'BIG-LABELS' }, token);
    const template = await call<Template>(app, '/mgr/templ/addtemple', { name: 'poster', model: '28' }, token);
    await call(app, '/mgr/templ/alerttempData', { id: template.id, doc }, token);
    await call(app, '/mgr/templ/setrule', { kind: 'default', model: '28', templateId: template.id }, token);
    const tags: Array<{ id: number; hw: string }> = [];
    for (let i = 0; i < TAGS; i++) {
      const product = await buildProduct(app.app, at, { name: `Poster ${i}`, priceCents: 1000 + i });
      const tag = await buildTag(app.app, at, { model: '28', productId: product.id });
      tags.push({ id: tag.id, hw: tag.hardware_id });
    }
    sim = await startSimulator({
      url: delivery.url,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: tags.map((x, i) => ({ id: x.hw, hw: '28', wakeS: 40, x: 2 + (i % 10), y: 1 + Math.floor(i / 10) })),
        },
      ],
      speed: 0,
      seed: 'big',
      start: app.clock.now(),
    });
    const s = sim;
    const settle = async () => {
      for (let i = 0; i < 4; i++) {
        await delivery.gateway.idle();
        await delivery.tasks.idle();
        await new Promise((r) => setTimeout(r, 15));
      }
    };
    const until = async (what: string, pred: () => Promise<boolean>) => {
      for (let done = 0; done <= 400_000; done += 2000) {
        await settle();
        if (await pred()) return;
        app.clock.advance(2000);
        await s.clock.advance(2000);
        await delivery.tasks.tick();
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    await s.waitFor(() => s.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    const routed = async () =>
      (
        await app.app.services.db.selectFrom('tags').select('station_id').where('store_id', '=', at.storeId).execute()
      ).every((r) => r.station_id !== null);
    await until('tags routed', routed);

    const jobsBefore = delivery.tasks.counters.jobsSent;
    const started = await call<{ requestId: number }>(app, '/mgr/tag/flashallesl', { force: true }, token);
    await until('refresh done', async () => {
      const p = await call<{ status: string }>(app, '/mgr/request/get', { id: started.requestId }, token);
      return p.status === 'done';
    });
    const p = await call<{ done: number; failed: number; total: number }>(
      app,
      '/mgr/request/get',
      { id: started.requestId },
      token,
    );
    expect(p).toMatchObject({ done: TAGS, failed: 0, total: TAGS });
    // Each label sent once: no batch was lost to a message too large to publish.
    expect(delivery.tasks.counters.jobsSent - jobsBefore).toBe(TAGS);
    const log = await app.app.services.db
      .selectFrom('tag_log')
      .select(['tag_id', 'attempts', 'result'])
      .where('store_id', '=', at.storeId)
      .where('request_id', '=', started.requestId)
      .execute();
    expect(log).toHaveLength(TAGS);
    expect(log.every((r) => Number(r.attempts) === 1 && r.result === 'ok')).toBe(true);
    // The labels were large enough for the test to mean something: together far beyond one message.
    const sizes = await app.app.services.db
      .selectFrom('tags')
      .innerJoin('tag_images', (j) =>
        j.onRef('tag_images.hash', '=', 'tags.desired_hash').onRef('tag_images.tenant_id', '=', 'tags.tenant_id'),
      )
      .select('tag_images.size')
      .where('tags.store_id', '=', at.storeId)
      .execute();
    const inline = sizes.reduce((sum, r) => sum + Math.ceil(Number(r.size) / 3) * 4, 0);
    expect(inline).toBeGreaterThan(256 * 1024);
    const desired = await app.app.services.db
      .selectFrom('tags')
      .select(['hardware_id', 'desired_hash'])
      .where('store_id', '=', at.storeId)
      .execute();
    for (const row of desired) expect(s.tag(row.hardware_id).screen()?.hash).toBe(row.desired_hash);
  });
});
