import { type ScheduleAppliedNotice, scheduleAppliedMessage, toLocalTime } from '@esl/contract';
import { TEMPLATE_VERSION, TemplateDocument } from '@esl/labels';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { renderJobs } from '../infra/render';
import * as fonts from '../modules/fonts/service';
import { testDatabases } from '../test/databases';
import { OCRB, uploadFont } from '../test/fonts';
import { useApp } from '../test/harness';
import { type Shop, simulatedShops } from '../test/simulated-shop';

// Prices on a schedule (issue 29 item 1, docs/SCHEDULE.md) on the real server, its scheduler and
// simulated stations and tags, one virtual clock: a change for T is delivered long before T as a
// timed image, no tag shows it before T, every tag shows it within a second of T; a second change
// for a later time (edited while pending) takes over from it at its own time; a cancelled one,
// already in the tags, is taken back and never shows. The tags decode what they hold and switch by their own timer.

describe.each(await testDatabases())('prices on a schedule reach simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const { call, settle, until, shop, expectedHash, stop } = simulatedShops(t);
  afterEach(stop);
  afterAll(stop);

  /** Both clocks on to `target` in steps of at most `step`, the server's timers run after each; `each` checks. */
  async function goTo(s: Shop, target: number, each: () => void, step = 2000) {
    for (;;) {
      const now = t().clock.now();
      if (now >= target) return;
      const ms = Math.min(step, target - now);
      t().clock.advance(ms);
      await s.sim.clock.advance(ms);
      await s.delivery.schedule.tick();
      await s.delivery.tasks.tick();
      await settle(s.delivery);
      await s.delivery.schedule.idle();
      await settle(s.delivery);
      each();
    }
  }

  it('shows a change at T and not before, lets a later one take over, and never shows a cancelled one', async () => {
    const s = await shop({ tags: 4, sn: 'SCH-A' });
    const [first] = s.tags;
    if (!first) throw new Error('tags');
    // Every tag shows product 0 ("Apple 0", 1.00).
    for (const x of s.tags.slice(1))
      await call('/mgr/tag/bindesl', { hardwareId: x.hw, barcode: first.barcode }, s.token);
    await call('/mgr/tag/flashallesl', {}, s.token);
    const before = await expectedHash(s, { name: 'Apple 0', price: '1.00' });
    const screens = () => s.tags.map((x) => s.sim.tag(x.hw).screen()?.hash);
    await until(s, 'the first label everywhere', () => screens().every((h) => h === before));

    // T: the next whole minute at least 20 minutes ahead, on the store's clock (Asia/Shanghai).
    const tz = 'Asia/Shanghai';
    const T = Math.ceil((t().clock.now() + 20 * 60_000) / 60_000) * 60_000;
    const local = (ms: number) => toLocalTime(ms, tz);
    const add = (at: number, price: string) =>
      call<{ ids: number[] }>(
        '/mgr/schedule/add',
        { productId: first.productId, at: local(at), changes: { price } },
        s.token,
      ).then((r) => r.ids[0] as number);
    const a = await add(T, '2.00');
    const b = await add(T + 120_000, '3.00');
    const c = await add(T + 600_000, '9.99');
    // Editable while pending: B's price changes before anything shows it.
    await call('/mgr/schedule/edit', { id: b, changes: { price: '3.50' } }, s.token);
    const list = await call<Array<{ id: number; status: string; localAt: string }>>(
      '/mgr/schedule/list',
      { status: 'pending' },
      s.token,
    );
    expect(list.map((r) => [r.id, r.localAt])).toEqual([
      [a, local(T)],
      [b, local(T + 120_000)],
      [c, local(T + 600_000)],
    ]);
    // The user who scheduled them hears when each takes effect (docs/SCHEDULE.md "When it takes
    // effect"); another user of the tenant hears nothing.
    const { created_by: scheduler } = await t()
      .app.services.db.selectFrom('scheduled_changes')
      .select('created_by')
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    expect(scheduler).not.toBeNull();
    const heard: ScheduleAppliedNotice[] = [];
    const others: string[] = [];
    const offs = [
      t().app.services.notices.add(
        {
          send: (text) => {
            const n = JSON.parse(text) as ScheduleAppliedNotice;
            if (n.type === 'schedule.applied') heard.push(n);
          },
        },
        { tenantId: s.tenantId, userId: scheduler as number },
      ),
      t().app.services.notices.add(
        { send: (text) => void (text.includes('schedule.applied') && others.push(text)) },
        { tenantId: s.tenantId, userId: (scheduler as number) + 100_000 },
      ),
    ];
    const scheduleLog = () =>
      t()
        .app.services.db.selectFrom('tag_log')
        .select(['tag_id', 'rev', 'queued_at'])
        .where('store_id', '=', s.storeId)
        .where('kind', '=', 'schedule')
        .orderBy('rev')
        .orderBy('tag_id')
        .execute();
    const tagIds = s.tags.map((x) => x.id).sort((x, y) => x - y);
    const hashA = await expectedHash(s, { name: 'Apple 0', price: '2.00' });
    const hashB = await expectedHash(s, { name: 'Apple 0', price: '3.50' });
    const hashC = await expectedHash(s, { name: 'Apple 0', price: '9.99' });
    const seen = new Set<string | undefined>();
    const watch = () => {
      for (const h of screens()) seen.add(h);
      if (t().clock.now() < T) expect(screens().every((h) => h === before)).toBe(true);
    };

    // Long before T every tag holds A's label, without showing it.
    const heldBy = T - 10 * 60_000;
    await goTo(s, heldBy, watch, 10_000);
    const rows = await t()
      .app.services.db.selectFrom('timed_labels')
      .selectAll()
      .where('store_id', '=', s.storeId)
      .execute();
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(r).toMatchObject({ state: 'held', show_at: T, hash: hashA });
    for (const x of s.tags) expect(s.sim.tag(x.hw).held()?.screen.hash).toBe(hashA);
    const transfers = s.tags.map((x) => s.sim.tag(x.hw).transfers);

    // Up to a second before T: the old price everywhere; then within a second of T: A everywhere.
    await goTo(s, T - 10_000, watch, 10_000);
    await goTo(s, T - 1000, watch);
    expect(screens().every((h) => h === before)).toBe(true);
    await goTo(s, T + 1000, watch, 1000);
    expect(screens()).toEqual(s.tags.map(() => hashA));
    // The switch took no transfer at T: the tags showed what they held.
    expect(s.tags.map((x) => s.sim.tag(x.hw).transfers)).toEqual(transfers);
    // Its own record: a tag-log row per tag, and one notice to its user, on 4 tags.
    expect((await scheduleLog()).map((r) => [r.tag_id, r.rev, Number(r.queued_at)])).toEqual(
      tagIds.map((id) => [id, a, T]),
    );
    expect(heard.map((n) => [n.ids, n.storeId, n.tags, n.products, n.localAt])).toEqual([
      [[a], s.storeId, 4, 1, local(T)],
    ]);
    expect(scheduleAppliedMessage(heard[0] as ScheduleAppliedNotice, 'en')).toContain('on 4 tags: Apple 0: price 2.00');
    expect(scheduleAppliedMessage(heard[0] as ScheduleAppliedNotice, 'zh-CN')).toContain(
      '共 4 个价签：Apple 0：价格 2.00',
    );

    // B (for T + 2 min) takes over at its time, not before.
    await goTo(s, T + 119_000, () => {
      watch();
      expect(screens().every((h) => h === hashA)).toBe(true);
    });
    await goTo(s, T + 121_000, watch, 1000);
    expect(screens()).toEqual(s.tags.map(() => hashB));

    // C is cancelled after the tags took its label, before its time: taken back, it never shows.
    await goTo(s, T + 300_000, watch, 10_000);
    for (const x of s.tags) expect(s.sim.tag(x.hw).held()?.screen.hash).toBe(hashC);
    await call('/mgr/schedule/cancel', { ids: [c] }, s.token);
    await goTo(s, T + 720_000, watch, 10_000);
    expect(screens()).toEqual(s.tags.map(() => hashB));
    expect(seen.has(hashC)).toBe(false);
    for (const x of s.tags) expect(s.sim.tag(x.hw).held()).toBeNull();
    const idle = await t().app.services.db.selectFrom('timed_labels').select('state').execute();
    expect(idle.map((r) => r.state)).toEqual(s.tags.map(() => 'idle'));
    const statuses = await t()
      .app.services.db.selectFrom('scheduled_changes')
      .select(['id', 'status'])
      .orderBy('id')
      .execute();
    expect(statuses.map((r) => [r.id, r.status])).toEqual([
      [a, 'applied'],
      [b, 'applied'],
      [c, 'cancelled'],
    ]);
    const product = await t()
      .app.services.db.selectFrom('products')
      .select('price_cents')
      .where('id', '=', first.productId)
      .executeTakeFirstOrThrow();
    expect(Number(product.price_cents)).toBe(350);
    // B's record too; the cancelled C has none.
    expect((await scheduleLog()).map((r) => [r.tag_id, r.rev])).toEqual([
      ...tagIds.map((id) => [id, a]),
      ...tagIds.map((id) => [id, b]),
    ]);
    expect(heard.map((n) => [n.ids, n.tags, n.localAt, n.summary.en])).toEqual([
      [[a], 4, local(T), 'Apple 0: price 2.00'],
      [[b], 4, local(T + 120_000), 'Apple 0: price 3.50'],
    ]);
    expect(others).toEqual([]);
    for (const off of offs) off();
  }, 600_000);

  it("holds the label drawn in the tenant's font, and takes that picture after T without drawing it again", async () => {
    const s = await shop({ tags: 2, sn: 'SCH-F' });
    const [first, second] = s.tags;
    if (!first || !second) throw new Error('tags');
    const db = t().app.services.db;
    // The tenant's brand font, and a template whose price is drawn in it.
    const uploaded = await uploadFont(t().app, s.token, { name: 'brand.ttf', bytes: OCRB, family: 'Acme OCR' });
    expect(uploaded.code, uploaded.msg).toBe(0);
    const doc = TemplateDocument.parse({
      version: TEMPLATE_VERSION,
      size: { model: '05', w: 250, h: 122 },
      colourType: 'bwr',
      elements: [
        { type: 'text', id: 'name', x: 4, y: 4, w: 240, h: 40, text: 'Name', binding: { key: 'name' } },
        {
          type: 'text',
          id: 'price',
          x: 4,
          y: 50,
          w: 240,
          h: 60,
          text: '0.00',
          font: { family: 'Acme OCR', size: 40 },
          binding: { key: 'price' },
        },
      ],
    });
    await call('/mgr/templ/alerttempData', { id: s.templateId, doc }, s.token);
    const drawn = async (values: Record<string, string>) => {
      const faces = await fonts.facesFor(db, s.tenantId, [doc]);
      expect(faces.map((f) => f.family)).toEqual(['Acme OCR']);
      const [out] = await renderJobs([
        { tenantId: s.tenantId, tagId: 0, doc, data: values, model: '05', colour: 'bwr', fonts: faces },
      ]);
      if (!out || !('hash' in out)) throw new Error('render failed');
      expect(out.unknownFonts ?? []).toEqual([]);
      return out.hash;
    };
    await call('/mgr/tag/bindesl', { hardwareId: second.hw, barcode: first.barcode }, s.token);
    await call('/mgr/tag/flashallesl', {}, s.token);
    const before = await drawn({ name: 'Apple 0', price: '1.00' });
    const screens = () => s.tags.map((x) => s.sim.tag(x.hw).screen()?.hash);
    await until(s, 'the brand label everywhere', () => screens().every((h) => h === before));

    const T = Math.ceil((t().clock.now() + 20 * 60_000) / 60_000) * 60_000;
    await call(
      '/mgr/schedule/add',
      { productId: first.productId, at: toLocalTime(T, 'Asia/Shanghai'), changes: { price: '2.00' } },
      s.token,
    );
    const after = await drawn({ name: 'Apple 0', price: '2.00' });
    await goTo(s, T - 10 * 60_000, () => {}, 10_000);
    // The tags hold the label drawn in the brand font (the planner drew in the base font before).
    const rows = await db.selectFrom('timed_labels').selectAll().where('store_id', '=', s.storeId).execute();
    expect(rows.map((r) => [r.state, r.hash])).toEqual(s.tags.map(() => ['held', after]));
    for (const x of s.tags) expect(s.sim.tag(x.hw).held()?.screen.hash).toBe(after);
    const transfers = s.tags.map((x) => s.sim.tag(x.hw).transfers);
    const { renders, renderReused } = s.delivery.tasks.counters;

    // At T the tags switch to it; the change's relabel takes the held picture: nothing drawn, nothing sent.
    await goTo(s, T - 2000, () => {}, 10_000);
    await goTo(s, T + 2000, () => {}, 1000);
    await goTo(s, T + 60_000, () => {}, 10_000);
    expect(screens()).toEqual(s.tags.map(() => after));
    expect(s.tags.map((x) => s.sim.tag(x.hw).transfers)).toEqual(transfers);
    expect(s.delivery.tasks.counters.renders).toBe(renders);
    expect(s.delivery.tasks.counters.renderReused).toBe(renderReused + 2);
    const tags = await db
      .selectFrom('tags')
      .select(['desired_hash', 'render_key'])
      .where('store_id', '=', s.storeId)
      .execute();
    expect(tags.map((r) => [r.desired_hash, r.render_key])).toEqual(s.tags.map(() => [after, rows[0]?.render_key]));
    expect(rows[0]?.render_key).toMatch(/^[0-9a-f]{32}$/);
  }, 600_000);
});
