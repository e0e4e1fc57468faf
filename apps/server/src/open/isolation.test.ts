import { type Envelope, ErrorCode, OPEN_BASE, OPEN_CALLS, type OpenCallName } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant } from '../test/factories';
import { useApp } from '../test/harness';
import { type Key, send } from '../test/open';
import { routesOf } from '../test/routes';

// Tenant isolation of every integration call (issue 15): tenant A's key naming tenant B's
// store, barcodes, hardware IDs, request, change and promotion ids is refused or finds nothing, and neither tenant's
// data changes. The cases are keyed by call name (the compiler wants one entry per call) and the
// test reads the served routes, so a route under /open/v1 without a case here fails.

interface Side {
  key: Key;
  store: string;
  tenantId: number;
  storeId: number;
  /** The hardware ID of its one tag and the barcode of its one product. */
  tag: string;
  barcode: string;
}
interface World {
  a: Side;
  b: Side & { requestId: number; changeId: number; promotionId: number };
}

interface Case {
  /** What the case names of B. */
  what: string;
  body: (w: World) => unknown;
  /** Only code 1002 (not found), or a check of an accepted answer that must show nothing of B. */
  expect: 'notFound' | ((res: Envelope<unknown>, w: World) => void);
  /** The call changes A's own data by design (so only B's must stay as it was). */
  changesOwn?: boolean;
}

const CASES: { [N in OpenCallName]: Case[] } = {
  openUpsertProducts: [
    {
      what: "B's store",
      body: (w) => ({ store: w.b.store, products: [{ barcode: w.b.barcode, price: '0.01' }] }),
      expect: 'notFound',
    },
  ],
  openDeleteProducts: [
    { what: "B's store", body: (w) => ({ store: w.b.store, barcodes: [w.b.barcode] }), expect: 'notFound' },
    {
      what: "B's barcode in A's store",
      body: (w) => ({ store: w.a.store, barcodes: [w.b.barcode] }),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: { deleted: 0, tasks: 0 } }),
      // A's own request (done at once: nothing to relabel).
      changesOwn: true,
    },
  ],
  openScheduleProducts: [
    {
      what: "B's store",
      body: (w) => ({ store: w.b.store, at: '2030-01-01T00:00', changes: [{ barcode: w.b.barcode, price: '0.01' }] }),
      expect: 'notFound',
    },
    {
      what: "B's barcode in A's store, chain-wide",
      body: (w) => ({
        store: w.a.store,
        at: '2030-01-01T00:00',
        scope: 'chain',
        changes: [{ barcode: w.b.barcode, price: '0.01' }],
      }),
      expect: 'notFound',
    },
  ],
  openScheduleList: [
    { what: "B's store", body: (w) => ({ store: w.b.store }), expect: 'notFound' },
    { what: "B's barcode in A's store", body: (w) => ({ store: w.a.store, barcode: w.b.barcode }), expect: 'notFound' },
    {
      what: "A's store lists none of B's changes",
      body: (w) => ({ store: w.a.store, limit: 2000 }),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: [] }),
    },
  ],
  openScheduleCancel: [
    { what: "B's store", body: (w) => ({ store: w.b.store, ids: [w.b.changeId] }), expect: 'notFound' },
    {
      what: "B's change in A's store",
      body: (w) => ({ store: w.a.store, ids: [w.b.changeId] }),
      // Not one of A's pending changes: refused, B's stays pending.
      expect: (res) => expect(res.code).toBe(ErrorCode.VALIDATION),
    },
  ],
  openScheduleEdit: [
    {
      what: "B's store",
      body: (w) => ({ store: w.b.store, id: w.b.changeId, at: '2030-02-01T00:00' }),
      expect: 'notFound',
    },
    {
      what: "B's change in A's store",
      body: (w) => ({ store: w.a.store, id: w.b.changeId, changes: { price: '0.01' } }),
      expect: 'notFound',
    },
  ],
  openPromotionList: [
    { what: "B's store", body: (w) => ({ store: w.b.store }), expect: 'notFound' },
    {
      what: "A's store lists none of B's promotions",
      body: (w) => ({ store: w.a.store, limit: 2000 }),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: [] }),
    },
  ],
  openAddPromotion: [
    {
      what: "B's store",
      body: (w) => ({
        store: w.b.store,
        price: '0.01',
        barcodes: [w.b.barcode],
        startAt: '2030-01-01T00:00',
        endAt: '2030-01-02T00:00',
      }),
      expect: 'notFound',
    },
  ],
  openEditPromotion: [
    { what: "B's store", body: (w) => ({ store: w.b.store, id: w.b.promotionId, price: '0.01' }), expect: 'notFound' },
    {
      what: "B's promotion in A's store",
      body: (w) => ({ store: w.a.store, id: w.b.promotionId, price: '0.01' }),
      expect: 'notFound',
    },
  ],
  openCancelPromotion: [
    { what: "B's store", body: (w) => ({ store: w.b.store, ids: [w.b.promotionId] }), expect: 'notFound' },
    {
      what: "B's promotion in A's store",
      body: (w) => ({ store: w.a.store, ids: [w.b.promotionId] }),
      // Not one of A's open promotions: refused, B's stays open.
      expect: (res) => expect(res.code).toBe(ErrorCode.VALIDATION),
    },
  ],
  openBindTags: [
    {
      what: "B's store",
      body: (w) => ({ store: w.b.store, bindings: [{ hardwareId: w.b.tag, barcode: w.b.barcode }] }),
      expect: 'notFound',
    },
    {
      what: "B's tag in A's store",
      body: (w) => ({ store: w.a.store, bindings: [{ hardwareId: w.b.tag, barcode: w.a.barcode }] }),
      expect: 'notFound',
    },
    {
      what: "B's barcode in A's store",
      body: (w) => ({ store: w.a.store, bindings: [{ hardwareId: w.a.tag, barcode: w.b.barcode }] }),
      expect: 'notFound',
    },
  ],
  openUnbindTags: [
    { what: "B's store", body: (w) => ({ store: w.b.store, hardwareIds: [w.b.tag] }), expect: 'notFound' },
    { what: "B's tag in A's store", body: (w) => ({ store: w.a.store, hardwareIds: [w.b.tag] }), expect: 'notFound' },
  ],
  openTagList: [
    { what: "B's store", body: (w) => ({ store: w.b.store }), expect: 'notFound' },
    {
      what: "A's store lists only A's tag",
      body: (w) => ({ store: w.a.store, limit: 2000 }),
      expect: (res, w) =>
        expect((res.data as Array<{ hardwareId: string }>).map((t) => t.hardwareId)).toEqual([w.a.tag]),
    },
  ],
  openRefreshTags: [
    { what: "B's store", body: (w) => ({ store: w.b.store, hardwareIds: [w.b.tag] }), expect: 'notFound' },
    { what: "B's tag in A's store", body: (w) => ({ store: w.a.store, hardwareIds: [w.b.tag] }), expect: 'notFound' },
  ],
  openLedTags: [
    { what: "B's store", body: (w) => ({ store: w.b.store, hardwareIds: [w.b.tag], led: {} }), expect: 'notFound' },
    {
      what: "B's tag in A's store",
      body: (w) => ({ store: w.a.store, hardwareIds: [w.b.tag], led: {} }),
      expect: 'notFound',
    },
  ],
  openRequestProgress: [{ what: "B's request id", body: (w) => ({ requestId: w.b.requestId }), expect: 'notFound' }],
  openStoreList: [
    {
      what: "no store of B's",
      body: () => ({ page: 1, limit: 2000 }),
      expect: (res, w) => expect((res.data as Array<{ code: string }>).map((s) => s.code)).toEqual([w.a.store]),
    },
  ],
  openCallbackGet: [
    {
      what: "not B's URL",
      body: () => ({}),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: { url: 'http://127.0.0.1:9/a' } }),
    },
  ],
  openCallbackSet: [
    {
      what: "only A's URL",
      body: () => ({ url: 'http://127.0.0.1:9/a2' }),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: { url: 'http://127.0.0.1:9/a2' } }),
      changesOwn: true,
    },
  ],
  openCallbackResend: [
    {
      what: "only A's given-up event, not B's",
      body: () => ({}),
      expect: (res) => expect(res).toMatchObject({ code: 0, data: { resent: 1 } }),
      changesOwn: true,
    },
  ],
};

/** Everything a call could change of one tenant (op-log rows aside: A's key is logged in A's). */
async function state(app: FastifyInstance, tenantId: number) {
  const db = app.services.db;
  const [products, tags, requests, tasks, callbacks, outbox, ops, changes, promotions] = await Promise.all([
    db.selectFrom('products').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    db.selectFrom('tags').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    db.selectFrom('device_requests').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    db.selectFrom('device_tasks').selectAll().where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('callback_settings').selectAll().where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('callback_outbox').select(['id', 'state']).where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('op_logs').select('id').where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('scheduled_changes').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    db.selectFrom('promotions').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
  ]);
  return { products, tags, requests, tasks, callbacks, outbox, ops: ops.length, changes, promotions };
}

describe.each(await testDatabases())('tenant isolation of every integration call on $name', (db) => {
  const t = useApp(db, { callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 400, tickMs: 0 } });

  async function world(app: FastifyInstance): Promise<World> {
    const ta = await buildTenant(app);
    const sa = await buildStore(app, ta.id);
    const tb = await buildTenant(app);
    const sb = await buildStore(app, tb.id);
    const atA = { tenantId: ta.id, storeId: sa.id };
    const atB = { tenantId: tb.id, storeId: sb.id };
    await buildProduct(app, atA, { barcode: '6911111111111', priceCents: 100 });
    const tagA = await buildTag(app, atA);
    const pb = await buildProduct(app, atB, { barcode: '6922222222222', priceCents: 500 });
    const tagB = await buildTag(app, atB, { productId: pb.id });
    const keyB = { ck: tb.ck, sk: tb.sk };
    const keyA = { ck: ta.ck, sk: ta.sk };
    // B has a request of its own, and a callback URL; A has a URL too (so "get" tells them apart).
    const refreshed = await send<{ requestId: number }>(app, keyB, '/tags/refresh', {
      store: sb.code,
      hardwareIds: [tagB.hardware_id],
    });
    expect(refreshed.code, refreshed.msg).toBe(0);
    // B has a pending scheduled change.
    const scheduled = await send<{ ids: number[] }>(app, keyB, '/products/schedule', {
      store: sb.code,
      at: '2030-01-01T00:00',
      changes: [{ barcode: pb.barcode, price: '6.00' }],
    });
    expect(scheduled.code, scheduled.msg).toBe(0);
    // And a promotion.
    const promoted = await send<{ ids: number[] }>(app, keyB, '/promotions/add', {
      store: sb.code,
      price: '4.00',
      barcodes: [pb.barcode],
      startAt: '2030-01-01T00:00',
      endAt: '2030-01-02T00:00',
    });
    expect(promoted.code, promoted.msg).toBe(0);
    for (const [key, url] of [
      [keyB, 'http://127.0.0.1:9/b'],
      [keyA, 'http://127.0.0.1:9/a'],
    ] as const) {
      const set = await send(app, key, '/callback/set', { url });
      expect(set.code, set.msg).toBe(0);
    }
    // Each has an event its receiver never took (given up).
    const now = app.services.config.now();
    for (const [tenant, store] of [
      [ta, sa],
      [tb, sb],
    ] as const) {
      await app.services.db
        .insertInto('callback_outbox')
        .values({
          tenant_id: tenant.id,
          store_id: store.id,
          event_id: `given-up-${tenant.id}`,
          type: 'test',
          order_key: 'test',
          payload: '{}',
          state: 'failed',
          attempts: 43,
          next_at: now,
          created_at: now,
          finished_at: now,
        })
        .execute();
    }
    return {
      a: { key: keyA, store: sa.code, ...atA, tag: tagA.hardware_id, barcode: '6911111111111' },
      b: {
        key: keyB,
        store: sb.code,
        ...atB,
        tag: tagB.hardware_id,
        barcode: '6922222222222',
        requestId: refreshed.data.requestId,
        changeId: scheduled.data.ids[0] as number,
        promotionId: promoted.data.ids[0] as number,
      },
    };
  }

  it('has a case for every route under the integration prefix', () => {
    const served = routesOf(t().app.printRoutes({ commonPrefix: false }))
      .filter((r) => r.includes(`${OPEN_BASE}/`))
      .map((r) => r.slice(r.indexOf(' ') + 1));
    expect(served.length).toBeGreaterThan(0);
    const byPath = new Map(Object.entries(OPEN_CALLS).map(([name, def]) => [OPEN_BASE + def.path, name]));
    const missing = served.filter((path) => {
      const name = byPath.get(path) as OpenCallName | undefined;
      return !name || (CASES[name]?.length ?? 0) === 0;
    });
    expect(missing, 'integration routes without an isolation case').toEqual([]);
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(OPEN_CALLS).sort());
  });

  const cases = (Object.entries(CASES) as [OpenCallName, Case[]][]).flatMap(([name, list]) =>
    list.map((c) => ({ name, ...c })),
  );

  it.each(cases)("$name with A's key: $what", async (c) => {
    const { app } = t();
    const w = await world(app);
    const beforeA = await state(app, w.a.tenantId);
    const beforeB = await state(app, w.b.tenantId);
    const res = await send(app, w.a.key, OPEN_CALLS[c.name].path, c.body(w));
    if (c.expect === 'notFound') {
      expect(res.code, res.msg).toBe(ErrorCode.NOT_FOUND);
    } else {
      c.expect(res, w);
    }
    expect(await state(app, w.b.tenantId)).toEqual(beforeB);
    const afterA = await state(app, w.a.tenantId);
    // A's operation log may gain the call's row; nothing else of A moves unless the call is meant to.
    if (!c.changesOwn) expect({ ...afterA, ops: 0 }).toEqual({ ...beforeA, ops: 0 });
  });
});
