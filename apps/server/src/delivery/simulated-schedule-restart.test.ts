import { type AddStationData, type Template, toLocalTime } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../infra/config';
import { openDatabase } from '../infra/db/database';
import { migrateToLatest } from '../infra/db/migrate';
import { renderJobs } from '../infra/render';
import * as templates from '../modules/templates/service';
import { buildProduct, buildShop, buildTag } from '../test/business';
import { freePort } from '../test/cluster';
import { durableDatabaseUrl, testDatabases } from '../test/databases';
import { callApi, TestClock } from '../test/harness';

// The scheduler survives a restart (docs/SCHEDULE.md): the server stops after the tags took the
// label for T and stays down across T. The tags switch at T on their own; the server that starts
// afterwards applies the change that came due while none ran, and delivers the next pending
// change, planned by the new process from the database alone, at its time.

describe.each(await testDatabases())('the scheduler across a restart ($name)', (target) => {
  let sim: Simulator | undefined;
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    await sim?.stop();
    for (const f of cleanup.reverse()) await f();
  }, 180_000);

  it('applies a change that came due while no server ran, and delivers the next one at its time', async () => {
    const url = await durableDatabaseUrl(target, 'esl-schedule', cleanup);
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
    const station = await ok<AddStationData>('/mgr/ap/add', { sn: 'SCHED-R' });
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'schedule', model: '05' });
    const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });
    await ok('/mgr/templ/alerttempData', { id: template.id, doc });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const product = await buildProduct(app, at, { name: 'Fig', priceCents: 100 });
    const tags: string[] = [];
    for (let i = 0; i < 3; i++)
      tags.push((await buildTag(app, at, { model: '05', productId: product.id })).hardware_id);
    sim = await startSimulator({
      url: `mqtt://127.0.0.1:${port}`,
      stations: [
        {
          tenantId: at.tenantId,
          sn: station.sn,
          secret: station.secret,
          tags: tags.map((id, i) => ({ id, hw: '05', wakeS: 40, x: 1 + i, y: 1 })),
        },
      ],
      speed: 0,
      seed: 'schedule-restart',
      start: clock.now(),
    });
    const s = sim;
    const step = async (ms: number) => {
      // Never move the clocks while a station's welcome is on its way: the station takes the
      // server's time from it, and a welcome sent before a step and read after it would set the
      // station's clock a whole step behind (its timed images switching that much late). It
      // happened only on a loaded machine, where the message is slower than the test's turns.
      for (let i = 0; i < 500 && s.stations.some((x) => x.isConnected && !x.isWelcomed); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      clock.advance(ms);
      await s.clock.advance(ms);
      await app.delivery?.schedule.tick();
      await app.delivery?.tasks.tick();
      for (let i = 0; i < 4; i++) {
        await app.delivery?.gateway.idle();
        await app.delivery?.tasks.idle();
        await app.delivery?.schedule.idle();
        await new Promise((r) => setTimeout(r, 15));
      }
    };
    const until = async (what: string, pred: () => boolean | Promise<boolean>, maxMs = 600_000) => {
      for (let done = 0; done <= maxMs; done += 5000) {
        if (await pred()) return;
        await step(5000);
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    const hashOf = async (price: string) => {
      const docs = await templates.documentsOf(app.services.db, at.tenantId, [template.id]);
      const found = docs.get(template.id);
      if (!found) throw new Error('template');
      const [out] = await renderJobs([
        { tenantId: at.tenantId, tagId: 0, doc: found.doc, data: { name: 'Fig', price }, model: '05', colour: 'bwr' },
      ]);
      if (!out || !('hash' in out)) throw new Error('render');
      return out.hash;
    };
    const screens = () => tags.map((id) => s.tag(id).screen()?.hash);
    await ok('/mgr/tag/flashallesl', {});
    const first = await hashOf('1.00');
    await until('the first label', () => screens().every((h) => h === first));

    const T = Math.ceil((clock.now() + 15 * 60_000) / 60_000) * 60_000;
    const local = (ms: number) => toLocalTime(ms, 'Asia/Shanghai');
    await ok('/mgr/schedule/add', { productId: product.id, at: local(T), changes: { price: '2.00' } });
    await ok('/mgr/schedule/add', { productId: product.id, at: local(T + 20 * 60_000), changes: { price: '3.00' } });
    const [a, b] = [await hashOf('2.00'), await hashOf('3.00')];
    await until('every tag holding the label for T', () => tags.every((id) => s.tag(id).held()?.screen.hash === a));

    // The server goes away before T and comes back three minutes after it.
    await app.close();
    while (clock.now() < T + 3 * 60_000) {
      clock.advance(5000);
      await s.clock.advance(5000);
      if (clock.now() < T) expect(screens().every((h) => h === first)).toBe(true);
    }
    // The tags switched at T with no server at all.
    expect(screens()).toEqual(tags.map(() => a));
    app = await start();
    const applied = await app.services.db
      .selectFrom('scheduled_changes')
      .select(['status', 'applied_at'])
      .orderBy('id')
      .execute();
    expect(applied.map((r) => r.status)).toEqual(['applied', 'pending']);
    expect(Number(applied[0]?.applied_at)).toBeGreaterThanOrEqual(T + 3 * 60_000);
    const row = await app.services.db
      .selectFrom('products')
      .select('price_cents')
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.price_cents)).toBe(200);

    // The new process plans B from the database and delivers it ahead; the tags switch at its time.
    await until('every tag holding the label for T + 20 min', () =>
      tags.every((id) => s.tag(id).held()?.screen.hash === b),
    );
    while (clock.now() < T + 20 * 60_000 - 1000) {
      await step(Math.min(5000, T + 20 * 60_000 - 1000 - clock.now()));
      expect(screens()).toEqual(tags.map(() => a));
    }
    await step(2000);
    expect(screens()).toEqual(tags.map(() => b));
    // The stations leave while the broker is still there (stopping them after it had gone once
    // outlasted the 60 s hook limit on a loaded machine).
    await s.stop();
    sim = undefined;
    await app.close();
  }, 600_000);
});
