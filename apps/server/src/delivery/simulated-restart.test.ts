import type { AddStationData, Template } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../infra/config';
import { openDatabase } from '../infra/db/database';
import { migrateToLatest } from '../infra/db/migrate';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { freePort } from '../test/cluster';
import { durableDatabaseUrl, testDatabases } from '../test/databases';
import { callApi, TestClock } from '../test/harness';

// The server stops in the middle of a full-store refresh and a new one starts on the same data
// and the same broker port: the stations keep their queues, reconnect, say hello, and every
// tag ends showing its label — nothing the first server had in flight is lost or left owned.

describe.each(await testDatabases())('a server restart mid refresh ($name)', (target) => {
  let sim: Simulator | undefined;
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    await sim?.stop();
    for (const f of cleanup.reverse()) await f();
  });

  it('loses nothing: every tag shows its label, no slot is left in flight, one final log row per revision', async () => {
    const url = await durableDatabaseUrl(target, 'esl-restart', cleanup);
    const clock = new TestClock();
    const port = await freePort();
    const config = testConfig({
      databaseUrl: url,
      now: clock.now,
      mqtt: { mode: 'embedded', host: '127.0.0.1', port },
    });
    const start = async (): Promise<FastifyInstance> => {
      const database = openDatabase(url);
      await migrateToLatest(database);
      const app = await buildApp(config, database);
      await app.ready();
      return app;
    };
    let app = await start();
    const world = await buildShop(app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const ok = async <T>(path: string, body: object) => {
      const res = await callApi<T>(app, path, body, { token });
      expect(res.code, `${path}: ${res.msg}`).toBe(0);
      return res.data;
    };
    const station = await ok<AddStationData>('/mgr/ap/add', { sn: 'RESTART-1' });
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'restart', model: '05' });
    await ok('/mgr/templ/alerttempData', {
      id: template.id,
      doc: priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' }),
    });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const tags: Array<{ id: number; hw: string }> = [];
    for (let i = 0; i < 16; i++) {
      const product = await buildProduct(app, at, { name: `Pear ${i}`, priceCents: 250 + i });
      const tag = await buildTag(app, at, { model: '05', productId: product.id });
      tags.push({ id: tag.id, hw: tag.hardware_id });
    }
    sim = await startSimulator({
      url: `mqtt://127.0.0.1:${port}`,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: tags.map((x, i) => ({ id: x.hw, hw: '05', wakeS: 40, x: 1 + (i % 4), y: 1 + Math.floor(i / 4) })),
        },
      ],
      speed: 0,
      seed: 'restart',
      start: clock.now(),
    });
    const s = sim;
    const settle = async () => {
      for (let i = 0; i < 4; i++) {
        await app.delivery?.gateway.idle();
        await app.delivery?.tasks.idle();
        await new Promise((r) => setTimeout(r, 15));
      }
    };
    const until = async (what: string, pred: () => boolean | Promise<boolean>, maxMs = 600_000) => {
      for (let done = 0; done <= maxMs; done += 2000) {
        await settle();
        if (await pred()) return;
        clock.advance(2000);
        await s.clock.advance(2000);
        await app.delivery?.tasks.tick();
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    const db = () => app.services.db;
    await until('tags routed', async () =>
      (await db().selectFrom('tags').select('station_id').where('store_id', '=', at.storeId).execute()).every(
        (r) => r.station_id !== null,
      ),
    );

    const full = await ok<{ requestId: number }>('/mgr/tag/flashallesl', {});
    // Part of the store is done when the server goes away.
    await until('some tags done', () => tags.filter((x) => s.tag(x.hw).screen() !== null).length >= 3);
    const before = tags.filter((x) => s.tag(x.hw).screen() !== null).length;
    expect(before).toBeLessThan(tags.length);
    await app.close();
    app = await start();
    await until('every tag showing its label', async () => {
      const rows = await db()
        .selectFrom('tags')
        .select(['hardware_id', 'desired_hash'])
        .where('store_id', '=', at.storeId)
        .execute();
      return rows.every((r) => r.desired_hash !== null && s.tag(r.hardware_id).screen()?.hash === r.desired_hash);
    });
    await until('the request done', async () => {
      const res = await callApi<{ status: string }>(app, '/mgr/request/get', { id: full.requestId }, { token });
      return res.data?.status === 'done';
    });
    const slots = await db().selectFrom('device_tasks').selectAll().where('store_id', '=', at.storeId).execute();
    expect(slots.filter((x) => ['render', 'queued', 'sent', 'accepted'].includes(x.state))).toEqual([]);
    // Each slot's final revision has exactly one final tag-log row.
    const log = await db()
      .selectFrom('tag_log')
      .select(['tag_id', 'rev', 'result'])
      .where('store_id', '=', at.storeId)
      .execute();
    for (const slot of slots) {
      const rows = log.filter((r) => r.tag_id === slot.tag_id && r.rev === slot.rev);
      expect(rows, `tag ${slot.tag_id} rev ${slot.rev}`).toHaveLength(1);
      expect(rows[0]?.result).toBe('ok');
    }
    await app.close();
  });
});
