import type { Tag } from '@esl/contract';
import { decodeTagImage } from '@esl/labels';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadImage } from '../infra/render';
import { multipartFile } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { simulatedShops } from '../test/simulated-shop';

// Labels reach the tags (issue 13): the real server with its task engine, the simulator's
// stations and tags over the embedded broker (test/simulated-shop.ts). The tags decode what they
// receive themselves, so every check of a screen is a check of the pixels that arrived, not of a
// status flag.

describe.each(await testDatabases())('labels reach simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const { call, settle, advance, until, shop, tagRow, expectedHash, progressOf, stop } = simulatedShops(t);
  afterEach(stop);
  afterAll(stop);

  it('bind + refresh: the tag decodes exactly the server’s render, is normal, and has one tag-log row', async () => {
    const s = await shop({ tags: 2, sn: 'DLV-A', unbound: 1 });
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
    await call('/mgr/tag/bindesl', { hardwareId: tag.hw, barcode: product.barcode }, s.token);
    const started = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
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
      const rows = (await call<Tag[]>('/mgr/tag/list', {}, s.token)) as Tag[];
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
    const again = await call<{ requestId: number }>('/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
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
    const forced = await call<{ requestId: number }>('/mgr/tag/flashesl', { ids: [tag.id], force: true }, s.token);
    await until(s, 'forced refresh done', async () => (await progressOf(s, forced.requestId)).status === 'done');
    expect(s.sim.tag(tag.hw).transfers).toBe(transfers + 1);
  });

  it('coalesces ten price changes in 200 ms: at most two renders and two jobs per tag, the last price shown', async () => {
    const s = await shop({ tags: 2, sn: 'DLV-B' });
    const renders = s.delivery.tasks.counters.renders;
    s.jobs.clear();
    for (let i = 1; i <= 10; i++) {
      for (const x of s.tags) await call('/mgr/product/alert', { id: x.productId, price: `${i}.50` }, s.token);
      // 20 ms on both clocks, and the server given all the time it wants between two changes: an
      // engine that renders and sends each change as it comes would do so ten times per tag here.
      t().clock.advance(20);
      await s.sim.clock.advance(20);
      await settle(s.delivery);
    }
    const pushes = () =>
      t().app.services.db.selectFrom('push_log').selectAll().where('store_id', '=', s.storeId).orderBy('id').execute();
    // One data-push row per console edit; the last edit of each tag waits for its render: running.
    expect((await pushes()).filter((p) => p.finished_at === null)).toHaveLength(s.tags.length);
    const want = await Promise.all(s.tags.map((_, i) => expectedHash(s, { name: `Apple ${i}`, price: '10.50' })));
    await until(s, 'last price on every tag', () => s.tags.every((x, i) => s.sim.tag(x.hw).screen()?.hash === want[i]));
    await advance(s, 90_000);
    for (const [i, x] of s.tags.entries()) {
      expect(s.sim.tag(x.hw).screen()?.hash).toBe(want[i]);
      // What the server published to the station for this tag, replaced jobs included.
      const jobs = s.jobs.get(x.hw) ?? [];
      expect(jobs.length, `jobs for ${x.hw}`).toBeGreaterThanOrEqual(1);
      expect(jobs.length, `jobs for ${x.hw}`).toBeLessThanOrEqual(2);
      expect(s.sim.tag(x.hw).transfers).toBeLessThanOrEqual(2);
    }
    // Labels drawn, a revision superseded while it was drawn included: the first change and the last.
    expect(s.delivery.tasks.counters.renders - renders).toBeLessThanOrEqual(2 * s.tags.length);
    // Every push finished, each counting its label once (rendered, or taken over by the next edit).
    const rows = await pushes();
    expect(rows).toHaveLength(20);
    for (const p of rows) {
      expect(p).toMatchObject({ source: 'console', tags_affected: 1, rendered: 1, failed: 0 });
      expect(p.finished_at).not.toBeNull();
    }
  });

  it('resends the picture of a tag that rebooted and lost it, without anyone asking', async () => {
    const s = await shop({ tags: 1, sn: 'DLV-C' });
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    await call('/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
    await until(s, 'the picture', () => s.sim.tag(tag.hw).screen() !== null);
    const shown = s.sim.tag(tag.hw).screen()?.hash;
    await advance(s, 40_000);
    s.sim.tag(tag.hw).reboot();
    expect(s.sim.tag(tag.hw).screen()).toBeNull();
    await until(s, 'the picture again', () => s.sim.tag(tag.hw).screen()?.hash === shown);
    expect(s.delivery.tasks.counters.reopened).toBeGreaterThanOrEqual(1);
  });

  it('a station that reboots and forgets its jobs gets them again after its hello', async () => {
    const s = await shop({ tags: 1, sn: 'DLV-F' });
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    const station = s.sim.stations[0];
    if (!station) throw new Error('station');
    const resent = s.delivery.tasks.counters.resent;
    await call('/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
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
    const s = await shop({ tags: 1, sn: 'DLV-G' });
    const [tag] = s.tags;
    if (!tag) throw new Error('tag');
    const sim = s.sim.tag(tag.hw);
    const home = { x: sim.x, y: sim.y };
    sim.moveTo(20_000, 20_000);
    const started = await call<{ requestId: number }>('/mgr/tag/flashesl', { ids: [tag.id] }, s.token);
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

  it('roll call of all and of some tags, an LED pattern, progress reaching 100 %', async () => {
    const s = await shop({ tags: 3, sn: 'DLV-D' });
    const all = await call<{ requestId: number; tasks: number }>('/mgr/tag/echoallesl', {}, s.token);
    expect(all.tasks).toBe(3);
    await until(s, 'roll call of all', async () => (await progressOf(s, all.requestId)).status === 'done');
    const rollCall = await progressOf(s, all.requestId);
    expect(rollCall).toMatchObject({ done: 3, failed: 0, total: 3 });
    // The absentees (issue 27): every tag answered, so none is "not heard since the roll call";
    // a time after it names them all.
    const absent = async (since: number) =>
      ((await call<Tag[]>('/mgr/tag/list', { notSeenSince: since, limit: 100 }, s.token)) as Tag[]).map((x) => x.id);
    expect(await absent(rollCall.createdAt)).toEqual([]);
    expect((await absent(t().clock.now() + 1)).sort()).toEqual(s.tags.map((x) => x.id).sort());

    const [a, b] = s.tags;
    if (!a || !b) throw new Error('tags');
    const some = await call<{ requestId: number; tasks: number }>('/mgr/tag/echoesl', { ids: [a.id, b.id] }, s.token);
    expect(some.tasks).toBe(2);
    await until(s, 'roll call of two', async () => (await progressOf(s, some.requestId)).status === 'done');
    expect(await progressOf(s, some.requestId)).toMatchObject({ done: 2, failed: 0, total: 2 });

    const led = { colour: 'green', onMs: 200, offMs: 100, count: 3, repeat: 2 };
    const flash = await call<{ requestId: number }>('/mgr/tag/ledesl', { ids: [a.id], led }, s.token);
    await until(s, 'LED', async () => (await progressOf(s, flash.requestId)).status === 'done');
    expect(s.sim.tag(a.hw).flashes).toEqual([led]);
    expect(s.sim.tag(b.hw).flashes).toEqual([]);
  });

  it('tags beyond the station’s queue get their label in the same wake cycle when airtime allows', async () => {
    // 48 tags, a queue of 6 jobs: the window is refilled as results free it, with the jobs of
    // the tags that wake next, so every tag is served at its first wake after the refresh.
    const s = await shop({ tags: 48, sn: 'DLV-Q', queueSize: 6 });
    await advance(s, 25_000); // tags last reported a while ago: their next wakes are not in the database
    const full = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashallesl', {}, s.token);
    expect(full.tasks).toBe(48);
    await advance(s, 42_000, 250);
    expect(s.tags.filter((x) => s.sim.tag(x.hw).transfers === 0).map((x) => x.hw)).toEqual([]);
    expect(await progressOf(s, full.requestId)).toMatchObject({ status: 'done', done: 48, failed: 0 });
  }, 120_000);

  it('a price change during a full-store refresh: the newest price wins on every tag', async () => {
    const s = await shop({ tags: 4, sn: 'DLV-E' });
    const full = await call<{ requestId: number; tasks: number }>('/mgr/tag/flashallesl', {}, s.token);
    expect(full.tasks).toBe(4);
    await advance(s, 4000);
    for (const x of s.tags) await call('/mgr/product/alert', { id: x.productId, price: '7.77' }, s.token);
    const want = await Promise.all(s.tags.map((_, i) => expectedHash(s, { name: `Apple ${i}`, price: '7.77' })));
    await until(s, 'the full refresh', async () => (await progressOf(s, full.requestId)).status === 'done');
    await until(s, 'newest price everywhere', () => s.tags.every((x, i) => s.sim.tag(x.hw).screen()?.hash === want[i]));
    expect(await progressOf(s, full.requestId)).toMatchObject({ done: 4, failed: 0, total: 4 });
  });
  it('an import re-renders and delivers the labels of the products it changed, with a data-push row', async () => {
    const s = await shop({ tags: 3, sn: 'DLV-I' });
    const full = await call<{ requestId: number }>('/mgr/tag/flashallesl', {}, s.token);
    await until(s, 'every label', async () => (await progressOf(s, full.requestId)).status === 'done');
    const [a, b, c] = s.tags;
    if (!a || !b || !c) throw new Error('tags');
    const transfers = () => s.tags.map((x) => s.sim.tag(x.hw).transfers);
    const before = transfers();
    const upload = async (path: string, csv: string) => {
      const { payload, headers } = multipartFile('products.csv', Buffer.from(csv));
      const res = await t().app.inject({
        method: 'POST',
        url: `/api${path}`,
        headers: { ...headers, token: s.token, 'accept-language': 'en' },
        payload,
      });
      const body = res.json() as { code: number; msg: string; data: unknown };
      expect(body.code, body.msg).toBe(0);
      return body.data;
    };
    const pushes = () =>
      t()
        .app.services.db.selectFrom('push_log')
        .selectAll()
        .where('store_id', '=', s.storeId)
        .where('source', '=', 'import')
        .orderBy('id')
        .execute();

    // /mgr/product/import: a's price changes, b is in the file as it is, c is not in it.
    const file = `barcode,name,price\n${a.barcode},Apple 0,42.00\n${b.barcode},Apple 1,1.01\n`;
    // b is given exactly as it is: not written, counted unchanged, its label not rendered again.
    expect(await upload('/mgr/product/import', file)).toMatchObject({ total: 2, updated: 1, unchanged: 1 });
    const wantA = await expectedHash(s, { name: 'Apple 0', price: '42.00' });
    await until(s, 'the imported price on a', () => s.sim.tag(a.hw).screen()?.hash === wantA);
    await advance(s, 90_000);
    // b's label was not sent again, c's was not touched.
    expect(transfers()).toEqual([(before[0] ?? 0) + 1, before[1], before[2]]);
    expect(await pushes()).toMatchObject([{ products: 1, tags_affected: 1, rendered: 1, failed: 0 }]);
    expect((await pushes())[0]?.finished_at).not.toBeNull();

    // The import wizard's call alike.
    expect(await upload('/mgr/product/importmapped', `barcode,name,price\n${c.barcode},Apple 2,7.25\n`)).toMatchObject({
      total: 1,
      updated: 1,
    });
    const wantC = await expectedHash(s, { name: 'Apple 2', price: '7.25' });
    await until(s, 'the imported price on c', () => s.sim.tag(c.hw).screen()?.hash === wantC);
    const rows = await pushes();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ products: 1, tags_affected: 1, rendered: 1, failed: 0 });
    expect(rows[1]?.finished_at).not.toBeNull();
    expect((await tagRow(c.id)).desired_hash).toBe(wantC);
  });
});
