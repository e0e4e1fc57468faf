import {
  fromLocalTime,
  type OpenTag,
  type ScheduleAppliedNotice,
  scheduleAppliedMessage,
  type TagLog,
  toLocalTime,
} from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { applyDue, type PlanDeps } from '../../delivery/schedule/plan';
import { buildProduct, buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { send } from '../../test/open';

// A scheduled change's own record when it takes effect (docs/SCHEDULE.md "When it takes effect"):
// a tag-log row per tag it relabels saying which change, what it set and its time, and a console
// notice to the user who scheduled it (only them), per store, in both languages. The scheduler's
// apply step runs on the test's clock; the delivery of the labels is simulated-schedule.test.ts's.

async function setZone(app: FastifyInstance, tenantId: number, storeId: number, timeZone: string) {
  await app.services.db
    .insertInto('store_params')
    .values({ tenant_id: tenantId, store_id: storeId, params: JSON.stringify({ timeZone }), updated_at: 0 })
    .execute();
}

describe.each(await testDatabases())('a scheduled change taking effect on $name', (db) => {
  const t = useApp(db);

  const deps = (): PlanDeps => ({
    db: t().app.services.db,
    now: t().clock.now,
    render: async () => [],
    storeImages: async () => {},
    withdraw: async () => {},
    counters: { applied: 0, planned: 0 },
    notices: t().app.services.notices,
  });

  it('logs each tag it relabels and tells the user who scheduled it, per store on its clock', async () => {
    const { app } = t();
    const s = await buildShop(app);
    await setZone(app, s.tenant.id, s.otherStore.id, 'Europe/London');
    const a = { tenantId: s.tenant.id, storeId: s.store.id };
    const b = { tenantId: s.tenant.id, storeId: s.otherStore.id };
    const milk = await buildProduct(app, a, { barcode: '6901', name: 'Milk', priceCents: 320 });
    const bread = await buildProduct(app, a, { barcode: '6902', name: 'Bread', priceCents: 500 });
    const milkThere = await buildProduct(app, b, { barcode: '6901', name: 'Milk', priceCents: 300 });
    const milkTags = [await buildTag(app, a, { productId: milk.id }), await buildTag(app, a, { productId: milk.id })];
    const breadTag = await buildTag(app, a, { productId: bread.id });
    const otherTag = await buildTag(app, a);
    const thereTag = await buildTag(app, b, { productId: milkThere.id });

    // The consoles of the user who schedules, and of another user of the tenant.
    const heard = { admin: [] as ScheduleAppliedNotice[], manager: [] as ScheduleAppliedNotice[] };
    for (const role of ['admin', 'manager'] as const)
      app.services.notices.add(
        { send: (text) => heard[role].push(JSON.parse(text) as ScheduleAppliedNotice) },
        { tenantId: s.tenant.id, userId: s.users[role].id },
      );

    const zone = 'Asia/Shanghai';
    const T = Math.ceil((t().clock.now() + 3_600_000) / 60_000) * 60_000;
    const local = toLocalTime(T, zone);
    const added = await t().call<{ ids: number[]; stores: number }>(
      '/mgr/schedule/add',
      { productId: milk.id, at: local, scope: 'chain', changes: { price: '2.99', name: 'Milk 1 L' } },
      { token: s.tokens.admin },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data.stores).toBe(2);
    const [here, there] = added.data.ids as [number, number];
    // The ERP's key schedules bread for the same time: logged, but there is no user to tell.
    const erp = await send<{ ids: number[] }>(app, { ck: s.tenant.ck, sk: s.tenant.sk }, '/products/schedule', {
      store: s.store.code,
      at: local,
      changes: [{ barcode: '6902', originalPrice: null, price: '4.50' }],
    });
    expect(erp.code, erp.msg).toBe(0);
    const breadChange = erp.data.ids[0] as number;

    const rows = () =>
      app.services.db
        .selectFrom('tag_log')
        .select(['store_id', 'tag_id', 'kind', 'rev', 'result', 'queued_at', 'finished_at', 'detail'])
        .where('tenant_id', '=', s.tenant.id)
        .where('kind', '=', 'schedule')
        .orderBy('rev')
        .orderBy('tag_id')
        .execute();

    // Before its time: nothing.
    t().clock.time = T - 1000;
    expect(await applyDue(deps())).toBe(0);
    expect(await rows()).toEqual([]);
    expect(heard.admin).toEqual([]);

    // At T (Shanghai) the first store's changes take effect; London's midnight is 8 hours later.
    t().clock.time = T + 400;
    expect(await applyDue(deps())).toBe(2);
    const first = await rows();
    expect(
      first.map((r) => [r.store_id, r.tag_id, r.rev, r.result, Number(r.queued_at), Number(r.finished_at)]),
    ).toEqual([
      ...milkTags.map((x) => [s.store.id, x.id, here, 'ok', T, T + 400]),
      [s.store.id, breadTag.id, breadChange, 'ok', T, T + 400],
    ]);
    expect(JSON.parse(first[0]?.detail ?? 'null')).toEqual({
      change: here,
      changes: { price: '2.99', name: 'Milk 1 L' },
      at: T,
      localAt: local,
      timeZone: zone,
    });
    expect(first.some((r) => r.tag_id === otherTag.id || r.tag_id === thereTag.id)).toBe(false);
    // The store's two changes, applied together, are one row of the data-push log (not one each).
    const pushes = await app.services.db
      .selectFrom('push_log')
      .select(['store_id', 'products', 'tags_affected'])
      .where('tenant_id', '=', s.tenant.id)
      .where('source', '=', 'schedule')
      .execute();
    expect(pushes.map((p) => [p.store_id, p.products, p.tags_affected])).toEqual([[s.store.id, 2, 3]]);

    // One notice, to the user who scheduled it only; the ERP's change has nobody to tell.
    expect(heard.manager).toEqual([]);
    expect(heard.admin).toEqual([
      {
        type: 'schedule.applied',
        storeId: s.store.id,
        storeName: s.store.name,
        ids: [here],
        products: 1,
        tags: 2,
        at: T,
        localAt: local,
        timeZone: zone,
        summary: { en: 'Milk 1 L: name Milk 1 L, price 2.99', 'zh-CN': 'Milk 1 L：名称 Milk 1 L，价格 2.99' },
      },
    ]);
    const notice = heard.admin[0] as ScheduleAppliedNotice;
    const shown = local.replace('T', ' ');
    expect(scheduleAppliedMessage(notice, 'en')).toBe(
      `The scheduled change for ${shown} took effect in store ${s.store.name} on 2 tags: Milk 1 L: name Milk 1 L, price 2.99`,
    );
    expect(scheduleAppliedMessage(notice, 'zh-CN')).toBe(
      `定于 ${shown} 的定时变更已在门店 ${s.store.name} 生效，共 2 个价签：Milk 1 L：名称 Milk 1 L，价格 2.99`,
    );

    // The tag log says it in the reader's language.
    for (const [lang, kindName, message] of [
      [
        'en',
        'Scheduled change took effect',
        `Scheduled change #${breadChange} took effect (set for ${shown} ${zone}): price 4.50, original price cleared`,
      ],
      ['zh-CN', '定时变更生效', `定时变更 #${breadChange} 已生效（定于 ${shown} ${zone}）：价格 4.50，原价清空`],
    ] as const) {
      const log = await t().call<TagLog[]>(
        '/log/taglog/esltasklist',
        { hardwareId: breadTag.hardware_id, page: 1, limit: 20 },
        { token: s.tokens.admin, lang },
      );
      expect(log.code, log.msg).toBe(0);
      expect(log.data.map((r) => [r.kind, r.kindName, r.rev, r.result, r.message])).toEqual([
        ['schedule', kindName, breadChange, 'ok', message],
      ]);
    }

    // A record, not work the tag did: the ERP's tag list reports no result for it.
    const tags = await send<OpenTag[]>(app, { ck: s.tenant.ck, sk: s.tenant.sk }, '/tags/list', {
      store: s.store.code,
      limit: 100,
    });
    expect(tags.data.map((x) => x.lastResult)).toEqual([null, null, null, null]);

    // London's midnight: its change, its notice on its own clock; nothing twice.
    const london = fromLocalTime(local, 'Europe/London');
    t().clock.time = london;
    expect(await applyDue(deps())).toBe(1);
    const all = await rows();
    expect(all.filter((r) => r.store_id === s.otherStore.id).map((r) => [r.tag_id, r.rev])).toEqual([
      [thereTag.id, there],
    ]);
    expect(all).toHaveLength(4);
    expect(heard.admin.map((n) => [n.storeId, n.storeName, n.ids, n.tags, n.at, n.localAt, n.timeZone])).toEqual([
      [s.store.id, s.store.name, [here], 2, T, local, zone],
      [s.otherStore.id, s.otherStore.name, [there], 1, london, local, 'Europe/London'],
    ]);
    expect(await applyDue(deps())).toBe(0);
    expect(await rows()).toHaveLength(4);
    expect(heard.manager).toEqual([]);
  });

  it('tells one notice for a batch of many products, naming how many and which fields', async () => {
    const { app } = t();
    const s = await buildShop(app);
    const a = { tenantId: s.tenant.id, storeId: s.store.id };
    const heard: ScheduleAppliedNotice[] = [];
    app.services.notices.add(
      { send: (text) => heard.push(JSON.parse(text) as ScheduleAppliedNotice) },
      { tenantId: s.tenant.id, userId: s.users.admin.id },
    );
    for (const barcode of ['7001', '7002', '7003']) {
      const p = await buildProduct(app, a, { barcode, name: `P${barcode}` });
      await buildTag(app, a, { productId: p.id });
    }
    const T = Math.ceil((t().clock.now() + 3_600_000) / 60_000) * 60_000;
    // The import wizard's one time for the whole file: one batch, three products.
    const csv = '条码,名称,价格\n7001,A,1.00\n7002,B,2.00\n7003,C,3.00';
    const boundary = '----esl-applied';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n` +
          `${JSON.stringify({ at: toLocalTime(T, 'Asia/Shanghai'), columns: ['barcode', 'name', 'price'] })}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="week.csv"\r\n` +
          'Content-Type: text/csv\r\n\r\n',
      ),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/mgr/product/importmapped',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, token: s.tokens.admin },
      payload,
    });
    expect(res.json()).toMatchObject({ code: 0, data: { scheduled: 3 } });
    t().clock.time = T;
    expect(await applyDue(deps())).toBe(3);
    expect(heard.map((n) => [n.products, n.tags, n.ids.length, n.summary])).toEqual([
      [3, 3, 3, { en: '3 products: name, price', 'zh-CN': '3 个商品：名称、价格' }],
    ]);
  });
});
