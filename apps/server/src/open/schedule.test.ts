import { ErrorCode, fromLocalTime, type ScheduledChange } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant } from '../test/factories';
import { useApp } from '../test/harness';
import { send } from '../test/open';

// Prices on a schedule through the ERP API (docs/INTEGRATION.md, docs/SCHEDULE.md): schedule by
// barcode, list, edit and cancel, with the key's auth and the tenant's stores only.

async function setZone(app: FastifyInstance, tenantId: number, storeId: number, timeZone: string) {
  await app.services.db
    .insertInto('store_params')
    .values({ tenant_id: tenantId, store_id: storeId, params: JSON.stringify({ timeZone }), updated_at: 0 })
    .execute();
}

const changes = (app: FastifyInstance, tenantId: number) =>
  app.services.db
    .selectFrom('scheduled_changes')
    .select(['id', 'store_id', 'product_id', 'changes', 'effective_at', 'status', 'note'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();

describe.each(await testDatabases())('scheduled changes through the integration API on $name', (db) => {
  const t = useApp(db);

  async function world(app: FastifyInstance) {
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const london = await buildStore(app, tenant.id);
    await setZone(app, tenant.id, london.id, 'Europe/London');
    const milk = await buildProduct(
      app,
      { tenantId: tenant.id, storeId: store.id },
      { barcode: '6901', priceCents: 320 },
    );
    await buildProduct(app, { tenantId: tenant.id, storeId: store.id }, { barcode: '6902', priceCents: 100 });
    const milkThere = await buildProduct(
      app,
      { tenantId: tenant.id, storeId: london.id },
      { barcode: '6901', priceCents: 300 },
    );
    // Another tenant with the same barcode: never reached.
    const other = await buildTenant(app);
    const otherStore = await buildStore(app, other.id);
    await buildProduct(app, { tenantId: other.id, storeId: otherStore.id }, { barcode: '6901', priceCents: 999 });
    return { tenant, store, london, milk, milkThere, other, otherStore, key: { ck: tenant.ck, sk: tenant.sk } };
  }

  it('schedules chain-wide on each store clock, lists pending first and cancels, writing nothing of the products now', async () => {
    const { app } = t();
    const w = await world(app);
    const added = await send<{ ids: number[]; stores: number }>(app, w.key, '/products/schedule', {
      store: w.store.code,
      at: '2030-01-06T00:00',
      scope: 'chain',
      note: 'week 2',
      changes: [{ barcode: '6901', price: '2.99', name: 'Milk 1 L' }],
    });
    expect(added.code, added.msg).toBe(0);
    expect(added.data.stores).toBe(2);
    expect(added.data.ids).toHaveLength(2);
    const rows = await changes(app, w.tenant.id);
    expect(rows.map((r) => [r.store_id, r.product_id, Number(r.effective_at), r.status, r.note])).toEqual([
      [w.store.id, w.milk.id, fromLocalTime('2030-01-06T00:00', 'Asia/Shanghai'), 'pending', 'week 2'],
      [w.london.id, w.milkThere.id, Date.UTC(2030, 0, 6), 'pending', 'week 2'],
    ]);
    expect(JSON.parse(rows[0]?.changes ?? '')).toEqual({ price: '2.99', name: 'Milk 1 L' });
    expect(await changes(app, w.other.id)).toEqual([]);
    const prices = await app.services.db.selectFrom('products').select('price_cents').orderBy('id').execute();
    expect(prices.map((p) => p.price_cents)).toEqual([320, 100, 300, 999]);

    // A second, sooner change of the first store only.
    const sooner = await send<{ ids: number[] }>(app, w.key, '/products/schedule', {
      store: w.store.code,
      at: '2030-01-05T08:00',
      changes: [{ barcode: '6902', originalPrice: null, price: 1 }],
    });
    expect(sooner.code, sooner.msg).toBe(0);
    expect(sooner.data.ids).toHaveLength(1);

    // Two tags show the milk; one's station holds the label for the change's time, the other's
    // holds one for another time: delivered ahead to 1 of 2.
    const at = { tenantId: w.tenant.id, storeId: w.store.id };
    const tags = [await buildTag(app, at, { productId: w.milk.id }), await buildTag(app, at, { productId: w.milk.id })];
    const showAt = fromLocalTime('2030-01-06T00:00', 'Asia/Shanghai');
    for (const [i, tag] of tags.entries()) {
      await app.services.db
        .insertInto('timed_labels')
        .values({
          tenant_id: w.tenant.id,
          store_id: w.store.id,
          tag_id: tag.id,
          rev: 1,
          state: 'held',
          plan_key: 'test',
          show_at: i === 0 ? showAt : showAt + 60_000,
          hash: null,
          size: null,
          station_id: null,
          sent_rev: 1,
          attempt: 0,
          due_at: 0,
          updated_at: 0,
        })
        .execute();
    }
    const list = await send<ScheduledChange[]>(app, w.key, '/products/schedule/list', { store: w.store.code });
    expect(list.code, list.msg).toBe(0);
    expect(list.count).toBe(2);
    expect(list.data.map((c) => [c.barcode, c.localAt, c.timeZone, c.status, c.progress])).toEqual([
      ['6902', '2030-01-05T08:00', 'Asia/Shanghai', 'pending', { held: 0, tags: 0 }],
      ['6901', '2030-01-06T00:00', 'Asia/Shanghai', 'pending', { held: 1, tags: 2 }],
    ]);
    const one = await send<ScheduledChange[]>(app, w.key, '/products/schedule/list', {
      store: w.london.code,
      barcode: '6901',
    });
    expect(one.data.map((c) => [c.localAt, c.timeZone, c.changes])).toEqual([
      ['2030-01-06T00:00', 'Europe/London', { price: '2.99', name: 'Milk 1 L' }],
    ]);

    // Cancel is all or nothing: with an id of another store it cancels none.
    const londonId = one.data[0]?.id as number;
    const mixed = await send(app, w.key, '/products/schedule/cancel', {
      store: w.store.code,
      ids: [sooner.data.ids[0], londonId],
    });
    expect(mixed.code).toBe(ErrorCode.VALIDATION);
    expect((await changes(app, w.tenant.id)).every((r) => r.status === 'pending')).toBe(true);
    const cancelled = await send<{ cancelled: number }>(app, w.key, '/products/schedule/cancel', {
      store: w.store.code,
      ids: [sooner.data.ids[0]],
    });
    expect(cancelled).toMatchObject({ code: 0, data: { cancelled: 1 } });
    const again = await send(app, w.key, '/products/schedule/cancel', {
      store: w.store.code,
      ids: [sooner.data.ids[0]],
    });
    expect(again.code).toBe(ErrorCode.VALIDATION);
    const pending = await send<ScheduledChange[]>(app, w.key, '/products/schedule/list', {
      store: w.store.code,
      status: 'pending',
    });
    expect(pending.data.map((c) => c.barcode)).toEqual(['6901']);
    const gone = await send<ScheduledChange[]>(app, w.key, '/products/schedule/list', {
      store: w.store.code,
      status: 'cancelled',
    });
    expect(gone.data.map((c) => [c.barcode, c.progress])).toEqual([['6902', null]]);

    // Each call is in the operation log under the key.
    const ops = await app.services.db
      .selectFrom('op_logs')
      .select(['call'])
      .where('tenant_id', '=', w.tenant.id)
      .orderBy('id')
      .execute();
    expect(ops.map((o) => o.call)).toEqual(
      expect.arrayContaining(['/open/v1/products/schedule', '/open/v1/products/schedule/cancel']),
    );
  });

  it('refuses bad input, an unknown barcode and an unsigned call, all or nothing', async () => {
    const { app } = t();
    const w = await world(app);
    const call = (body: object, lang: 'en' | 'zh-CN' = 'en') => send(app, w.key, '/products/schedule', body, { lang });
    const base = { store: w.store.code, at: '2030-01-06T00:00' };
    // A barcode the store lacks (another tenant's included) refuses the whole call.
    const unknown = await call({
      ...base,
      changes: [
        { barcode: '6901', price: '1' },
        { barcode: '7777', price: '1' },
      ],
    });
    expect(unknown.code).toBe(ErrorCode.NOT_FOUND);
    expect(unknown.msg).toContain('7777');
    // Not a time, a time with seconds, an empty change, a barcode twice, a bad price, an unknown scope.
    for (const body of [
      { ...base, at: '2030-01-06 00:00', changes: [{ barcode: '6901', price: '1' }] },
      { ...base, at: '2030-02-30T00:00:00', changes: [{ barcode: '6901', price: '1' }] },
      { ...base, changes: [{ barcode: '6901' }] },
      { ...base, changes: [] },
      {
        ...base,
        changes: [
          { barcode: '6901', price: '1' },
          { barcode: '6901', price: '2' },
        ],
      },
      { ...base, changes: [{ barcode: '6901', price: '-1' }] },
      { ...base, scope: 'world', changes: [{ barcode: '6901', price: '1' }] },
    ]) {
      const res = await call(body);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
    }
    const zh = await call({ ...base, at: 'tomorrow', changes: [{ barcode: '6901', price: '1' }] }, 'zh-CN');
    expect(zh.code).toBe(ErrorCode.VALIDATION);
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    // A wrong signature is refused before anything is read.
    const forged = await send(app, { ck: w.key.ck, sk: 'f'.repeat(64) }, '/products/schedule', {
      ...base,
      changes: [{ barcode: '6901', price: '1' }],
    });
    expect(forged.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);
    // The other tenant's key cannot name this tenant's store.
    const theirs = await send(app, { ck: w.other.ck, sk: w.other.sk }, '/products/schedule', {
      ...base,
      changes: [{ barcode: '6901', price: '1' }],
    });
    expect(theirs.code).toBe(ErrorCode.NOT_FOUND);
    expect(await changes(app, w.tenant.id)).toEqual([]);
    expect(await changes(app, w.other.id)).toEqual([]);
  });

  it('edits a pending change (time on the store clock, fields) and refuses one that took effect or was cancelled', async () => {
    const { app } = t();
    const w = await world(app);
    const added = await send<{ ids: number[] }>(app, w.key, '/products/schedule', {
      store: w.store.code,
      at: '2030-01-06T00:00',
      scope: 'chain',
      changes: [{ barcode: '6901', price: '2.99' }],
    });
    expect(added.code, added.msg).toBe(0);
    const [here, there] = added.data.ids as [number, number];
    const edit = (body: object, lang: 'en' | 'zh-CN' = 'en') =>
      send<ScheduledChange>(app, w.key, '/products/schedule/edit', body, { lang });

    // Another time (read on the London store's clock) and other fields (they replace the set).
    const moved = await edit({ store: w.london.code, id: there, at: '2030-01-07T08:30', changes: { price: '2.49' } });
    expect(moved.code, moved.msg).toBe(0);
    expect(moved.data).toMatchObject({
      id: there,
      barcode: '6901',
      localAt: '2030-01-07T08:30',
      timeZone: 'Europe/London',
      at: Date.UTC(2030, 0, 7, 8, 30),
      changes: { price: '2.49' },
      status: 'pending',
    });
    // Only the time: the fields stay.
    const later = await edit({ store: w.store.code, id: here, at: '2030-01-06T06:00' });
    expect(later.code, later.msg).toBe(0);
    expect(later.data).toMatchObject({ localAt: '2030-01-06T06:00', changes: { price: '2.99' } });
    const rows = await changes(app, w.tenant.id);
    expect(rows.map((r) => [r.id, Number(r.effective_at), JSON.parse(r.changes)])).toEqual([
      [here, fromLocalTime('2030-01-06T06:00', 'Asia/Shanghai'), { price: '2.99' }],
      [there, Date.UTC(2030, 0, 7, 8, 30), { price: '2.49' }],
    ]);

    // Another store's change named with this store's code is not found; nothing moves.
    const elsewhere = await edit({ store: w.store.code, id: there, at: '2030-01-01T00:00' });
    expect(elsewhere.code).toBe(ErrorCode.NOT_FOUND);
    // Bad input, in the caller's language.
    for (const body of [
      { store: w.store.code, id: here, at: '2030-01-06 06:00' },
      { store: w.store.code, id: here, changes: {} },
      { store: w.store.code, id: here, changes: { price: '-1' } },
      { store: w.store.code, id: 0, at: '2030-01-06T06:00' },
    ]) {
      const res = await edit(body);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
    }
    const zh = await edit({ store: w.store.code, id: here, at: 'tomorrow' }, 'zh-CN');
    expect(zh.code).toBe(ErrorCode.VALIDATION);
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    expect((await changes(app, w.tenant.id)).map((r) => Number(r.effective_at))).toEqual([
      fromLocalTime('2030-01-06T06:00', 'Asia/Shanghai'),
      Date.UTC(2030, 0, 7, 8, 30),
    ]);

    // Cancelled: refused. Taken effect: refused. Both say why, in the caller's language.
    const cancelled = await send(app, w.key, '/products/schedule/cancel', { store: w.store.code, ids: [here] });
    expect(cancelled.code, cancelled.msg).toBe(0);
    const afterCancel = await edit({ store: w.store.code, id: here, changes: { price: '1.00' } });
    expect(afterCancel).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(afterCancel.msg).toContain('has already taken effect or been cancelled');
    await app.services.db
      .updateTable('scheduled_changes')
      .set({ status: 'applied', applied_at: 1 })
      .where('id', '=', there)
      .execute();
    const afterApplied = await edit({ store: w.london.code, id: there, at: '2030-02-01T00:00' }, 'zh-CN');
    expect(afterApplied).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(afterApplied.msg).toContain('已生效或已取消');
    const final = await changes(app, w.tenant.id);
    expect(final.map((r) => [r.status, Number(r.effective_at), JSON.parse(r.changes)])).toEqual([
      ['cancelled', fromLocalTime('2030-01-06T06:00', 'Asia/Shanghai'), { price: '2.99' }],
      ['applied', Date.UTC(2030, 0, 7, 8, 30), { price: '2.49' }],
    ]);
    // The other tenant's key cannot name this tenant's store.
    const theirs = await send(app, { ck: w.other.ck, sk: w.other.sk }, '/products/schedule/edit', {
      store: w.store.code,
      id: here,
      at: '2030-01-01T00:00',
    });
    expect(theirs.code).toBe(ErrorCode.NOT_FOUND);
  });
});
