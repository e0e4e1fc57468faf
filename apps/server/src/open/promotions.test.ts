import { ErrorCode, fromLocalTime, type Promotion } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { promotionsAt } from '../modules/promotions/service';
import { buildProduct } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant } from '../test/factories';
import { useApp } from '../test/harness';
import { send } from '../test/open';

// Promotions through the ERP API (docs/INTEGRATION.md "Promotions", docs/PROMOTIONS.md): add,
// list, edit and cancel by store code with the console's rules, each store on its own clock, the
// key's tenant only, refusals in the caller's language.

async function setZone(app: FastifyInstance, tenantId: number, storeId: number, timeZone: string) {
  await app.services.db
    .insertInto('store_params')
    .values({ tenant_id: tenantId, store_id: storeId, params: JSON.stringify({ timeZone }), updated_at: 0 })
    .execute();
}

const rowsOf = (app: FastifyInstance, tenantId: number) =>
  app.services.db
    .selectFrom('promotions')
    .select(['id', 'store_id', 'name', 'text', 'price_cents', 'barcodes', 'start_at', 'end_at', 'state', 'created_by'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();

describe.each(await testDatabases())('promotions through the integration API on $name', (db) => {
  const t = useApp(db);

  async function world(app: FastifyInstance) {
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const london = await buildStore(app, tenant.id);
    await setZone(app, tenant.id, london.id, 'Europe/London');
    const at = { tenantId: tenant.id, storeId: store.id };
    const apple = await buildProduct(app, at, { barcode: '6901', name: 'Apple', priceCents: 250 });
    const pear = await buildProduct(app, at, {
      barcode: '6902',
      name: 'Pear',
      priceCents: 300,
      custom: { kind: 'Fruit' },
    });
    const other = await buildTenant(app);
    const otherStore = await buildStore(app, other.id);
    return {
      tenant,
      store,
      london,
      at,
      apple,
      pear,
      other,
      otherStore,
      key: { ck: tenant.ck, sk: tenant.sk },
      otherKey: { ck: other.ck, sk: other.sk },
    };
  }

  it('adds chain-wide on each store clock, lists, edits and cancels with the console rules', async () => {
    const { app } = t();
    const w = await world(app);
    const added = await send<{ ids: number[]; stores: number }>(app, w.key, '/promotions/add', {
      store: w.store.code,
      name: 'Apple week',
      text: 'Sale',
      price: '1.99',
      barcodes: ['6901'],
      startAt: '2030-01-06T00:00',
      endAt: '2030-01-13T00:00',
      scope: 'chain',
    });
    expect(added.code, added.msg).toBe(0);
    expect(added.data.stores).toBe(2);
    const [here, there] = added.data.ids as [number, number];
    const rows = await rowsOf(app, w.tenant.id);
    expect(
      rows.map((r) => [r.id, r.store_id, Number(r.price_cents), Number(r.start_at), r.state, r.created_by]),
    ).toEqual([
      [here, w.store.id, 199, fromLocalTime('2030-01-06T00:00', 'Asia/Shanghai'), 'pending', null],
      [there, w.london.id, 199, Date.UTC(2030, 0, 6), 'pending', null],
    ]);
    // By a field value (a category), cheaper, overlapping: the store's only.
    const byKind = await send<{ ids: number[]; stores: number }>(app, w.key, '/promotions/add', {
      store: w.store.code,
      text: 'Fruit days',
      price: 1.5,
      matchKey: 'kind',
      matchValue: 'fruit',
      startAt: '2030-01-08T00:00',
      endAt: '2030-01-10T00:00',
    });
    expect(byKind.code, byKind.msg).toBe(0);
    expect(byKind.data.stores).toBe(1);
    const [fruit] = byKind.data.ids as [number];

    const list = await send<Promotion[]>(app, w.key, '/promotions/list', { store: w.store.code });
    expect(list.code, list.msg).toBe(0);
    expect(list.count).toBe(2);
    expect(
      list.data.map((p) => [p.id, p.state, p.startAt, p.endAt, p.price, p.timeZone, p.barcodes, p.matchKey]),
    ).toEqual([
      [here, 'pending', '2030-01-06T00:00', '2030-01-13T00:00', '1.99', 'Asia/Shanghai', ['6901'], ''],
      [fruit, 'pending', '2030-01-08T00:00', '2030-01-10T00:00', '1.50', 'Asia/Shanghai', [], 'kind'],
    ]);
    const londonList = await send<Promotion[]>(app, w.key, '/promotions/list', { store: w.london.code });
    expect(londonList.data.map((p) => [p.id, p.startAt, p.timeZone])).toEqual([
      [there, '2030-01-06T00:00', 'Europe/London'],
    ]);

    // Edited: a lower price and a later start, on the store's clock.
    const edited = await send<Promotion>(app, w.key, '/promotions/edit', {
      store: w.store.code,
      id: here,
      price: '1.49',
      startAt: '2030-01-07T00:00',
    });
    expect(edited.code, edited.msg).toBe(0);
    expect(edited.data).toMatchObject({ id: here, price: '1.49', startAt: '2030-01-07T00:00', state: 'pending' });
    // What the labels show: the same service as the console's.
    const showing = await promotionsAt(
      app.services.db,
      w.at,
      [w.apple.id, w.pear.id],
      fromLocalTime('2030-01-08T12:00', 'Asia/Shanghai'),
    );
    expect([showing.get(w.apple.id)?.id, showing.get(w.pear.id)?.id]).toEqual([here, fruit]);

    // Cancel is all or nothing: with the London promotion (another store) it cancels none.
    const mixed = await send(app, w.key, '/promotions/cancel', { store: w.store.code, ids: [fruit, there] });
    expect(mixed.code).toBe(ErrorCode.VALIDATION);
    expect((await rowsOf(app, w.tenant.id)).every((r) => r.state === 'pending')).toBe(true);
    const cancelled = await send<{ cancelled: number }>(app, w.key, '/promotions/cancel', {
      store: w.store.code,
      ids: [fruit],
    });
    expect(cancelled).toMatchObject({ code: 0, data: { cancelled: 1 } });
    // A cancelled promotion can be neither edited nor cancelled again, said in the caller's language.
    const again = await send(
      app,
      w.key,
      '/promotions/cancel',
      { store: w.store.code, ids: [fruit] },
      { lang: 'zh-CN' },
    );
    expect(again.code).toBe(ErrorCode.VALIDATION);
    expect(again.msg).toContain('促销已结束或已取消');
    const late = await send(app, w.key, '/promotions/edit', { store: w.store.code, id: fruit, price: '1.00' });
    expect(late.code).toBe(ErrorCode.VALIDATION);
    expect(late.msg).toContain('the promotion has ended or been cancelled');
    const byState = await send<Promotion[]>(app, w.key, '/promotions/list', {
      store: w.store.code,
      state: 'cancelled',
    });
    expect(byState.data.map((p) => p.id)).toEqual([fruit]);

    // Each call is in the operation log under the key.
    const ops = await app.services.db
      .selectFrom('op_logs')
      .select(['call'])
      .where('tenant_id', '=', w.tenant.id)
      .execute();
    expect(ops.map((o) => o.call)).toEqual(
      expect.arrayContaining(['/open/v1/promotions/add', '/open/v1/promotions/edit', '/open/v1/promotions/cancel']),
    );
  });

  it('refuses bad input in the caller language and keeps each tenant to its own promotions', async () => {
    const { app } = t();
    const w = await world(app);
    const base = {
      store: w.store.code,
      price: '1.00',
      barcodes: ['6901'],
      startAt: '2030-01-06T00:00',
      endAt: '2030-01-07T00:00',
    };
    const add = (body: object, lang: 'en' | 'zh-CN' = 'en') => send(app, w.key, '/promotions/add', body, { lang });
    const before = await add({ ...base, endAt: '2030-01-06T00:00' });
    // The integration API names a field by its key (docs/INTEGRATION.md).
    expect(before).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'endAt: must be later than the start' });
    const zh = await add({ ...base, endAt: '2030-01-05T00:00' }, 'zh-CN');
    expect(zh.code).toBe(ErrorCode.VALIDATION);
    expect(zh.msg).toBe('endAt：结束时间应晚于开始时间');
    for (const body of [
      { ...base, barcodes: [] },
      { ...base, barcodes: [], matchKey: 'kind' },
      { ...base, price: '-1' },
      { ...base, startAt: '2030-01-06 00:00' },
      { ...base, scope: 'world' },
      { ...base, store: '' },
    ]) {
      const res = await add(body);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCode.VALIDATION);
    }
    const unsigned = await send(app, { ck: w.key.ck, sk: 'f'.repeat(64) }, '/promotions/add', base);
    expect(unsigned.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);
    expect(await rowsOf(app, w.tenant.id)).toEqual([]);

    // An edit whose new end is before the kept start is refused (the console's check).
    const ok = await add(base);
    expect(ok.code, ok.msg).toBe(0);
    const [id] = (ok.data as { ids: number[] }).ids as [number];
    const backwards = await send(app, w.key, '/promotions/edit', {
      store: w.store.code,
      id,
      endAt: '2030-01-05T00:00',
    });
    expect(backwards).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'endAt: must be later than the start' });

    // The other tenant's key: this tenant's store code is not found, and its own store neither
    // lists, edits nor cancels this promotion.
    const theirs = { store: w.otherStore.code };
    expect((await send(app, w.otherKey, '/promotions/list', { store: w.store.code })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await send(app, w.otherKey, '/promotions/add', { ...base })).code).toBe(ErrorCode.NOT_FOUND);
    const listed = await send<Promotion[]>(app, w.otherKey, '/promotions/list', theirs);
    expect(listed).toMatchObject({ code: 0, data: [] });
    const edit = await send(app, w.otherKey, '/promotions/edit', { ...theirs, id, price: '0.01' });
    expect(edit.code).toBe(ErrorCode.NOT_FOUND);
    const cancel = await send(app, w.otherKey, '/promotions/cancel', { ...theirs, ids: [id] });
    expect(cancel.code).toBe(ErrorCode.VALIDATION);
    expect((await rowsOf(app, w.tenant.id)).map((r) => [r.id, Number(r.price_cents), r.state])).toEqual([
      [id, 100, 'pending'],
    ]);
    expect(await rowsOf(app, w.other.id)).toEqual([]);
  });
});
