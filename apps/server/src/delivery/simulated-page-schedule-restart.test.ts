import { type AddStationData, type PageSchedule, type Template, toLocalTime } from '@esl/contract';
import { TemplateDocument } from '@esl/labels';
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

// Page schedules survive a restart (docs/PAGES.md "Page schedules"). Window 1: the server stops
// while the tags show page 2 and starts again in the middle: the tags go back to page 1 at the end
// all the same, and the new process sends no switch again (one page job per tag and window).
// Window 2: the server is down from before the switch would have been sent until the middle of
// the window: the new process sends it at once, for what is left of the window, and the tags go
// back to page 1 at its end.

const TZ = 'Asia/Shanghai';
const hhmm = (ms: number) => toLocalTime(ms, TZ).slice(11);

describe.each(await testDatabases())('page schedules across a restart ($name)', (target) => {
  let sim: Simulator | undefined;
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    await sim?.stop();
    for (const f of cleanup.reverse()) await f();
  }, 180_000);

  it('neither loses the return to page 1 nor sends a switch twice', async () => {
    const url = await durableDatabaseUrl(target, 'esl-page-schedule', cleanup);
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
    const station = await ok<AddStationData>('/mgr/ap/add', { sn: 'PSCHED-R' });
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'two pages', model: '05' });
    const first = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });
    const doc = TemplateDocument.parse({
      ...first,
      pages: [
        { elements: [{ type: 'text', id: 'origin', x: 10, y: 40, w: 230, h: 40, text: 'Origin', font: { size: 28 } }] },
      ],
    });
    await ok('/mgr/templ/alerttempData', { id: template.id, doc });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const tags: string[] = [];
    for (let i = 0; i < 2; i++) {
      const product = await buildProduct(app, at, { name: `Fig ${i}`, priceCents: 100 + i });
      tags.push((await buildTag(app, at, { model: '05', productId: product.id })).hardware_id);
    }
    const pageJobs: Array<{ tag: string; at?: number; page: number }> = [];
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
      seed: 'page-schedule-restart',
      start: clock.now(),
      onJobs: (_station, list) => {
        for (const j of list)
          if (j.kind === 'page') pageJobs.push({ tag: j.tag, page: j.page, ...(j.at ? { at: j.at } : {}) });
      },
    });
    const s = sim;
    const step = async (ms: number) => {
      // Never move the clocks while a station's welcome is on its way (simulated-schedule-restart.test.ts).
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
    const until = async (what: string, pred: () => boolean | Promise<boolean>, maxMs = 600_000, by = 5000) => {
      for (let done = 0; done <= maxMs; done += by) {
        if (await pred()) return;
        await step(by);
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    /** Up to `to` (server time) in steps of `by`. */
    const runTo = async (to: number, by: number) => {
      while (clock.now() < to) await step(Math.min(by, to - clock.now()));
    };
    /** The server is away until `to`: only the station and its tags live on. */
    const away = async (to: number) => {
      await app.close();
      while (clock.now() < to) {
        const k = Math.min(5000, to - clock.now());
        clock.advance(k);
        await s.clock.advance(k);
      }
      app = await start();
    };
    const pages = () => tags.map((id) => s.tag(id).page);
    /** The page switches the server made (one request each). */
    const switches = async () =>
      (
        await app.services.db
          .selectFrom('device_requests')
          .select('params')
          .where('kind', '=', 'tag.page')
          .orderBy('id')
          .execute()
      ).map((r) => JSON.parse(r.params));
    await ok('/mgr/tag/flashallesl', {});
    await until('both pages on the tags', () => tags.every((id) => s.tag(id).pages() === 2));
    await until('the pictures confirmed', async () => {
      const rows = await app.services.db.selectFrom('tags').select(['shown_hash', 'desired_hash']).execute();
      return rows.every((r) => r.shown_hash !== null && r.shown_hash === r.desired_hash);
    });

    // Window 1 from T1, window 2 from T2 (ten minutes each, every day, on the store's clock).
    const T1 = Math.ceil((clock.now() + 40 * 60_000) / 60_000) * 60_000;
    const E1 = T1 + 10 * 60_000;
    const T2 = T1 + 90 * 60_000;
    const E2 = T2 + 10 * 60_000;
    const days = [1, 2, 3, 4, 5, 6, 7];
    for (const [from, to] of [
      [T1, E1],
      [T2, E2],
    ] as const)
      await ok<PageSchedule>('/mgr/pagesched/add', {
        templateId: template.id,
        page: 2,
        weekdays: days,
        from: hhmm(from),
        to: hhmm(to),
      });

    // Window 1: sent ahead, page 2 at T1; the server goes away at T1 + 2 min and is back at T1 + 5 min.
    await runTo(T1 - 20_000, 10_000);
    expect(pageJobs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(pageJobs.map((j) => JSON.stringify(j)))).toEqual(
      new Set(tags.map((tag) => JSON.stringify({ tag, page: 2, at: T1 }))),
    );
    await runTo(T1 + 2000, 1000);
    expect(pages()).toEqual([2, 2]);
    await runTo(T1 + 2 * 60_000, 10_000);
    await away(T1 + 5 * 60_000);
    expect(pages()).toEqual([2, 2]);
    // The new process sends nothing again; the tags go back to page 1 at the end.
    await runTo(E1 - 3000, 5000);
    expect(pages()).toEqual([2, 2]);
    await runTo(E1 + 3000, 1000);
    expect(pages()).toEqual([1, 1]);
    await runTo(E1 + 5 * 60_000, 10_000);
    expect(await switches()).toEqual([{ tags: 2, page: 2, stayS: 600, at: T1 }]);
    expect(pages()).toEqual([1, 1]);
    const heard = pageJobs.length;

    // Window 2: the server is away from before its lead time until T2 + 3 min.
    await away(T2 + 3 * 60_000);
    expect(pages()).toEqual([1, 1]);
    // The station comes back on its own; the switch waits for its hello (its kinds), then goes out.
    await until('page 2 after the restart', () => pages().every((p) => p === 2), 300_000, 2000);
    expect(new Set(pageJobs.slice(heard).map((j) => `${j.tag}:${j.page}`))).toEqual(
      new Set(tags.map((tag) => `${tag}:2`)),
    );
    expect(clock.now()).toBeLessThan(E2);
    await runTo(E2 - 3000, 5000);
    expect(pages()).toEqual([2, 2]);
    // Sent late, its stay ends with the window all the same (within a check-in).
    await until('page 1 after window 2', () => pages().every((p) => p === 1), 60_000, 2000);
    expect(clock.now()).toBeLessThan(E2 + 50_000);
    await runTo(clock.now() + 5 * 60_000, 10_000);
    // One switch per window, none at either end (the tags went back on their own).
    expect(await switches()).toEqual([
      { tags: 2, page: 2, stayS: 600, at: T1 },
      { tags: 2, page: 2, stayS: 600, at: T2 },
    ]);
    expect(pages()).toEqual([1, 1]);
    const rows = await app.services.db
      .selectFrom('page_schedules')
      .select(['armed_start', 'ended_start'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.armed_start), Number(r.ended_start)])).toEqual([
      [T1, T1],
      [T2, T2],
    ]);
    await s.stop();
    sim = undefined;
    await app.close();
  }, 600_000);
});
