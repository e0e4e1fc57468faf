import { ErrorCode, type PageSchedule, toLocalTime } from '@esl/contract';
import { TemplateDocument } from '@esl/labels';
import { afterEach, describe, expect, it } from 'vitest';
import { LEAD_MS } from '../modules/pages/runner';
import { useStore } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildUser, login } from '../test/factories';
import { useApp } from '../test/harness';
import { PRICE_DOC, type Shop, simulatedShops } from '../test/simulated-shop';

// Page schedules (issue 29 item 3, docs/PAGES.md "Page schedules") on the real server and
// simulated stations, on a speeded-up clock: a schedule's switch is sent ahead with its time, the
// tags of the template show page 2 at its start and page 1 at its end by their own timers, with no
// transfer and one switch each; a tag bound during the window gets it for the rest of it; the
// schedule is the store's: another store's manager neither sees nor changes it.

const TWO_PAGES = TemplateDocument.parse({
  ...PRICE_DOC,
  pages: [
    {
      elements: [
        { type: 'rect', id: 'frame', x: 0, y: 0, w: 250, h: 122, strokeWidth: 3, colour: 'black' },
        { type: 'text', id: 'allergens', x: 10, y: 40, w: 230, h: 40, text: 'Allergens', font: { size: 28 } },
      ],
    },
  ],
});

const TZ = 'Asia/Shanghai';
const hhmm = (ms: number) => toLocalTime(ms, TZ).slice(11);

describe.each(await testDatabases())('page schedules on simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const steps = simulatedShops(t);
  afterEach(() => steps.stop());

  /** Moves both clocks on, running the scheduler and the task engine after each step. */
  async function run(s: Shop, ms: number, step: number) {
    for (let done = 0; done < ms; done += step) {
      const k = Math.min(step, ms - done);
      t().clock.advance(k);
      await s.sim.clock.advance(k);
      await s.delivery.schedule.tick();
      await s.delivery.tasks.tick();
      await steps.settle(s.delivery);
    }
  }
  const until = (s: Shop, what: string, pred: () => boolean | Promise<boolean>, maxMs = 400_000, step = 2000) =>
    steps.until(s, what, pred, maxMs, step, () => s.delivery.schedule.tick());

  it('switches the template’s tags to page 2 at the start and back at the end, sent ahead, no transfer', async () => {
    const s = await steps.shop({ sn: db.name === 'sqlite' ? 'PSCHED-S' : 'PSCHED-P', tags: 3, unbound: 1 });
    const [late, a, b] = s.tags;
    if (!late || !a || !b) throw new Error('tags');
    const [simA, simB, simLate] = [s.sim.tag(a.hw), s.sim.tag(b.hw), s.sim.tag(late.hw)];
    await steps.call('/mgr/templ/alerttempData', { id: s.templateId, doc: TWO_PAGES }, s.token);
    await until(s, 'two pages on A and B', () => simA.pages() === 2 && simB.pages() === 2);
    await until(s, 'the pictures confirmed', async () => {
      const rows = await Promise.all([a, b].map((x) => steps.tagRow(x.id)));
      return rows.every((r) => r.shown_hash !== null && r.shown_hash === r.desired_hash);
    });
    const transfers = [simA.transfers, simB.transfers];
    const imageJobs = [a, b].map((x) => s.jobs.get(x.hw)?.length ?? 0);
    const pageJobs = () => s.otherJobs.filter((j) => j.kind === 'page');

    // A ten-minute window starting 35 minutes from now, every day, on the store's clock.
    const T = Math.ceil((t().clock.now() + 35 * 60_000) / 60_000) * 60_000;
    const E = T + 10 * 60_000;
    const body = { name: 'Lunch', templateId: s.templateId, page: 2, weekdays: [1, 2, 3, 4, 5, 6, 7] };
    const window = { from: hhmm(T), to: hhmm(E) };

    // Who may: a clerk reads but does not add; a page the template lacks is refused in the caller's language.
    const clerk = await t().call('/mgr/pagesched/add', { ...body, ...window }, { token: s.tokens.clerk });
    expect(clerk.code).toBe(ErrorCode.FORBIDDEN);
    const three = await t().call(
      '/mgr/pagesched/add',
      { ...body, ...window, page: 3 },
      { token: s.tokens.manager, lang: 'zh-CN' },
    );
    expect(three.code).toBe(ErrorCode.VALIDATION);
    expect(three.msg).toContain('模板没有这一页');
    const same = await t().call('/mgr/pagesched/add', { ...body, from: '11:00', to: '11:00' }, { token: s.token });
    expect(same).toMatchObject({
      code: ErrorCode.VALIDATION,
      msg: expect.stringContaining('cannot be the same as the start'),
    });

    // The store manager adds it.
    const added = await steps.call<PageSchedule>('/mgr/pagesched/add', { ...body, ...window }, s.tokens.manager);
    expect(added).toMatchObject({ name: 'Lunch', page: 2, from: window.from, to: window.to, enabled: true });
    expect(added.next).toMatchObject({ start: T, end: E });
    expect(added.active).toBe(false);
    const listed = await t().call<PageSchedule[]>('/mgr/pagesched/list', {}, { token: s.tokens.clerk });
    expect(listed.data.map((x) => x.id)).toEqual([added.id]);

    // A manager of the other store: not listed, not changed, not deleted.
    const otherStore = await t()
      .app.services.db.selectFrom('stores')
      .select('id')
      .where('tenant_id', '=', s.tenantId)
      .where('id', '!=', s.storeId)
      .executeTakeFirstOrThrow();
    const user = await buildUser(t().app, { tenantId: s.tenantId, roles: ['manager'], stores: [otherStore.id] });
    const other = await login(t().app, user.username);
    await useStore(t().app, other, otherStore.id);
    expect((await t().call('/user/setcurrshop', { curshop: s.storeId }, { token: other })).code).not.toBe(0);
    expect(await t().call('/mgr/pagesched/list', {}, { token: other })).toMatchObject({ code: 0, data: [], count: 0 });
    expect(
      (await t().call('/mgr/pagesched/edit', { id: added.id, page: 2, enabled: false }, { token: other })).code,
    ).toBe(ErrorCode.NOT_FOUND);
    expect((await t().call('/mgr/pagesched/delete', { ids: [added.id] }, { token: other })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const kept = await steps.call<PageSchedule[]>('/mgr/pagesched/list', {}, s.token);
    expect(kept).toMatchObject([{ id: added.id, enabled: true, page: 2 }]);

    // Nothing is sent before the lead time; then one page job per tag, with the window's start.
    await run(s, T - LEAD_MS - 60_000 - t().clock.now(), 10_000);
    expect(pageJobs()).toEqual([]);
    await until(s, 'the switch handed to A and B', () => pageJobs().length === 2, 180_000, 5000);
    expect(
      pageJobs()
        .map((j) => j.tag)
        .sort(),
    ).toEqual([a.hw, b.hw].sort());
    const tasks = await t()
      .app.services.db.selectFrom('device_tasks')
      .select(['tag_id', 'payload'])
      .where('kind', '=', 'page')
      .where('tenant_id', '=', s.tenantId)
      .execute();
    expect(tasks.map((x) => JSON.parse(x.payload))).toEqual([
      { page: 2, stayS: 600, at: T },
      { page: 2, stayS: 600, at: T },
    ]);
    // Until the start, page 1.
    await run(s, T - 5000 - t().clock.now(), 10_000);
    expect([simA.page, simB.page]).toEqual([1, 1]);
    await run(s, 3000, 1000);
    expect([simA.page, simB.page]).toEqual([1, 1]);
    // At the start, page 2 on both, by their own timers: no transfer, no image job.
    await run(s, 3000, 1000);
    expect(t().clock.now()).toBeGreaterThanOrEqual(T);
    expect(t().clock.now()).toBeLessThan(T + 2000);
    expect([simA.page, simB.page]).toEqual([2, 2]);
    expect([simA.transfers, simB.transfers]).toEqual(transfers);
    const during = await steps.call<PageSchedule[]>('/mgr/pagesched/list', {}, s.token);
    expect(during[0]?.active).toBe(true);

    // A tag bound during the window shows its label, then the page for the rest of the window.
    await steps.call('/mgr/tag/bindesl', { hardwareId: late.hw, barcode: late.barcode }, s.token);
    await until(s, 'page 2 on the tag bound late', () => simLate.pages() === 2 && simLate.page === 2, 300_000);
    expect(t().clock.now()).toBeLessThan(E);

    // Half-way: still page 2.
    await run(s, T + 5 * 60_000 - t().clock.now(), 10_000);
    expect([simA.page, simB.page, simLate.page]).toEqual([2, 2, 2]);
    // At the end, page 1 again, on their own.
    await run(s, E - 3000 - t().clock.now(), 10_000);
    expect([simA.page, simB.page]).toEqual([2, 2]);
    await run(s, 5000, 1000);
    expect([simA.page, simB.page]).toEqual([1, 1]);
    await until(s, 'the late tag on page 1', () => simLate.page === 1, 60_000);
    // Well past the end: one page job per tag, no transfer, no image job for A and B.
    await run(s, 5 * 60_000, 10_000);
    // The server's switches: one for the window's tags, one for the tag bound late, nothing at the
    // end (every tag went back on its own); the stations heard of no other tag.
    const switches = await t()
      .app.services.db.selectFrom('device_requests')
      .select(['total', 'done', 'params'])
      .where('tenant_id', '=', s.tenantId)
      .where('kind', '=', 'tag.page')
      .orderBy('id')
      .execute();
    expect(switches.map((r) => ({ ...JSON.parse(r.params), total: Number(r.total), done: Number(r.done) }))).toEqual([
      { tags: 2, page: 2, stayS: 600, at: T, total: 2, done: 2 },
      { tags: 1, page: 2, stayS: 600, at: T, total: 1, done: 1 },
    ]);
    expect([...new Set(pageJobs().map((j) => j.tag))].sort()).toEqual([late.hw, a.hw, b.hw].sort());
    expect([simA.page, simB.page, simLate.page]).toEqual([1, 1, 1]);
    expect([simA.transfers, simB.transfers]).toEqual(transfers);
    expect([a, b].map((x) => s.jobs.get(x.hw)?.length ?? 0)).toEqual(imageJobs);
    const next = await steps.call<PageSchedule[]>('/mgr/pagesched/list', {}, s.token);
    expect(next[0]).toMatchObject({ active: false, next: { start: T + 86_400_000 } });

    // Deleted by the store's manager.
    expect(await steps.call('/mgr/pagesched/delete', { ids: [added.id] }, s.tokens.manager)).toEqual({ deleted: 1 });
    expect(await steps.call('/mgr/pagesched/list', {}, s.token)).toEqual([]);
  }, 600_000);
});
