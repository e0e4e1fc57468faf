import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { curlExample, type Envelope, ErrorCode, OPEN_BASE, OPEN_CALLS, OPEN_HEADERS } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sign } from '../infra/lib/signature';
import { appendTagLog } from '../infra/logs';
import { buildProduct, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { buildStore, buildTenant, buildUser, login } from '../test/factories';
import { callApi, useApp } from '../test/harness';
import { type Key, nonce, send } from '../test/open';

async function products(app: FastifyInstance, storeId: number) {
  return app.services.db
    .selectFrom('products')
    .select(['barcode', 'name', 'price_cents', 'price_changes', 'updated_at', 'custom'])
    .where('store_id', '=', storeId)
    .orderBy('barcode')
    .execute();
}

async function world(app: FastifyInstance) {
  const tenant = await buildTenant(app);
  const store = await buildStore(app, tenant.id);
  const other = await buildTenant(app);
  const otherStore = await buildStore(app, other.id);
  return {
    tenant,
    store,
    key: { ck: tenant.ck, sk: tenant.sk },
    other,
    otherStore,
    otherKey: { ck: other.ck, sk: other.sk },
    at: { tenantId: tenant.id, storeId: store.id },
    otherAt: { tenantId: other.id, storeId: otherStore.id },
  };
}

describe.each(await testDatabases())('integration API on $name', (db) => {
  const t = useApp(db);

  it('accepts a signed call and lists only the key tenant’s stores', async () => {
    const w = await world(t().app);
    const second = await buildStore(t().app, w.tenant.id, { code: 'SECOND' });
    const res = await send<{ code: string }[]>(t().app, w.key, '/stores/list', { page: 1, limit: 50 });
    expect(res.code, res.msg).toBe(0);
    expect(res.status).toBe(200);
    expect(res.data.map((s) => s.code).sort()).toEqual([w.store.code, second.code].sort());
    expect(res.count).toBe(2);
  });

  describe('refusals change nothing', () => {
    const body = (code: string) => ({ store: code, products: [{ barcode: '6901', name: 'Milk', price: '3.20' }] });

    it('refuses a tampered body, a wrong path, another tenant’s ck and a stale or future timestamp', async () => {
      const { app, clock } = t();
      const w = await world(app);
      const sent = body(w.store.code);
      const tampered = await send(app, w.key, '/products/upsert', sent, {
        signedBody: JSON.stringify({ ...sent, products: [{ barcode: '6901', name: 'Milk', price: '0.01' }] }),
      });
      expect(tampered.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);
      expect(tampered.msg).toBe('Invalid signature: it does not match the request');

      const wrongPath = await send(app, w.key, '/products/upsert', sent, { signedPath: `${OPEN_BASE}/stores/list` });
      expect(wrongPath.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);

      // ck of tenant B with tenant A's sk: the signature is wrong for B's key.
      const otherCk = await send(app, w.key, '/products/upsert', sent, { ck: w.other.ck });
      expect(otherCk.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);
      const unknownCk = await send(app, w.key, '/products/upsert', sent, { ck: 'no-such-key' });
      expect(unknownCk.code).toBe(ErrorCode.OPEN_KEY_INVALID);

      const stale = await send(app, w.key, '/products/upsert', sent, { timestamp: clock.now() - 5 * 60_000 - 1 });
      expect(stale.code).toBe(ErrorCode.OPEN_TIMESTAMP_INVALID);
      const future = await send(app, w.key, '/products/upsert', sent, { timestamp: clock.now() + 5 * 60_000 + 1 });
      expect(future.code).toBe(ErrorCode.OPEN_TIMESTAMP_INVALID);
      const zh = await send(app, w.key, '/products/upsert', sent, { timestamp: 0, lang: 'zh-CN' });
      expect(zh.msg).toBe('时间戳缺失或与服务器时间相差超过 5 分钟');

      expect(await products(app, w.store.id)).toEqual([]);
      expect(await products(app, w.otherStore.id)).toEqual([]);
      // Refused before the key was proven: no operation-log row names it.
      const logged = await app.services.db
        .selectFrom('op_logs')
        .select('id')
        .where('tenant_id', 'in', [w.tenant.id, w.other.id])
        .execute();
      expect(logged).toEqual([]);

      // Within the window (either way) the same call is accepted.
      const edge = await send(app, w.key, '/products/upsert', sent, { timestamp: clock.now() - 5 * 60_000 });
      expect(edge.code, edge.msg).toBe(0);
    });

    it('refuses a replayed nonce, also after the first call’s timestamp window has moved', async () => {
      const { app, clock } = t();
      const w = await world(app);
      const n = nonce();
      const first = await send(app, w.key, '/products/upsert', body(w.store.code), { nonce: n });
      expect(first.code, first.msg).toBe(0);
      const changed = { store: w.store.code, products: [{ barcode: '6901', price: '9.99' }] };
      const again = await send(app, w.key, '/products/upsert', changed, { nonce: n });
      expect(again.code).toBe(ErrorCode.OPEN_NONCE_REPLAYED);
      expect(again.msg).toBe('This nonce was used before (a replayed request)');
      // A replay later (timestamp still within its window) is refused too: nonces outlive the window.
      clock.advance(4 * 60_000);
      const later = await send(app, w.key, '/products/upsert', changed, { nonce: n });
      expect(later.code).toBe(ErrorCode.OPEN_NONCE_REPLAYED);
      expect((await products(app, w.store.id)).map((p) => p.price_cents)).toEqual([320]);
    });

    it('stops the old key at once when the tenant renews it, and takes the new one', async () => {
      const { app } = t();
      const w = await world(app);
      const admin = await buildUser(app, { tenantId: w.tenant.id, roles: ['admin'] });
      const token = await login(app, admin.username);
      const renewed = await callApi<Key>(app, '/user/recreatecksk', {}, { token });
      expect(renewed.code, renewed.msg).toBe(0);
      const old = await send(app, w.key, '/products/upsert', body(w.store.code));
      expect(old.code).toBe(ErrorCode.OPEN_KEY_INVALID);
      expect(await products(app, w.store.id)).toEqual([]);
      const fresh = await send(app, renewed.data, '/products/upsert', body(w.store.code));
      expect(fresh.code, fresh.msg).toBe(0);
    });
  });

  it('upserts 1,000 products in one call, and the same call again changes nothing', async () => {
    const { app, clock } = t();
    const w = await world(app);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      barcode: `69${String(i).padStart(6, '0')}`,
      name: `Product ${i}`,
      price: `${1 + (i % 50)}.${String(i % 100).padStart(2, '0')}`,
      custom: { shelf: `A${i % 7}`, aisle: String(i % 3) },
    }));
    const first = await send(app, w.key, '/products/upsert', { store: w.store.code, products: rows });
    expect(first.code, first.msg).toBe(0);
    // New products show on no tag yet: a request with nothing to deliver.
    expect(first.data).toEqual({ created: 1000, updated: 0, unchanged: 0, requestId: expect.any(Number), tasks: 0 });
    const after = await products(app, w.store.id);
    expect(after).toHaveLength(1000);
    expect(after[7]).toMatchObject({ barcode: '69000007', name: 'Product 7', price_cents: 807, price_changes: 0 });

    clock.advance(1000);
    // Same content, custom keys in another order: still the same products.
    const again = rows.map((r) => ({ ...r, custom: { aisle: r.custom.aisle, shelf: r.custom.shelf } }));
    const second = await send(app, w.key, '/products/upsert', { store: w.store.code, products: again });
    expect(second.data).toMatchObject({ created: 0, updated: 0, unchanged: 1000, tasks: 0 });
    expect(await products(app, w.store.id)).toEqual(after);

    // Partial fields: only the price of one product changes, and it counts one price change.
    clock.advance(1000);
    const partial = await send(app, w.key, '/products/upsert', {
      store: w.store.code,
      products: [{ barcode: '69000007', price: 99 }],
    });
    expect(partial.data).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const changed = (await products(app, w.store.id)).find((p) => p.barcode === '69000007');
    expect(changed).toMatchObject({ name: 'Product 7', price_cents: 9900, price_changes: 1, updated_at: clock.now() });
    expect(JSON.parse(changed?.custom ?? '{}')).toEqual({ aisle: '1', shelf: 'A0' });
  });

  it('refuses a new product without a name or price, naming the row, and writes none of the call', async () => {
    const { app } = t();
    const w = await world(app);
    const res = await send(app, w.key, '/products/upsert', {
      store: w.store.code,
      products: [
        { barcode: 'A1', name: 'Fine', price: '1' },
        { barcode: 'A2', price: '2' },
      ],
    });
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.msg).toBe('products.1.name: cannot be empty');
    expect(await products(app, w.store.id)).toEqual([]);
  });

  it('deletes products by barcode (twice is the same as once) and binds and unbinds tags', async () => {
    const { app } = t();
    const w = await world(app);
    const milk = await buildProduct(app, w.at, { barcode: '6901' });
    await buildProduct(app, w.at, { barcode: '6902' });
    const tag = await buildTag(app, w.at, { hardwareId: 'AABBCCDD01' });

    const bound = await send(app, w.key, '/tags/bind', {
      store: w.store.code,
      bindings: [{ hardwareId: 'aabbccdd01', barcode: '6901' }],
    });
    expect(bound.data, bound.msg).toEqual({ bound: 1 });
    const row = await app.services.db
      .selectFrom('tags')
      .select('product_id')
      .where('id', '=', tag.id)
      .executeTakeFirst();
    expect(row?.product_id).toBe(milk.id);

    const listed = await send<{ hardwareId: string; barcode: string | null; status: string }[]>(
      app,
      w.key,
      '/tags/list',
      { store: w.store.code, bound: true },
    );
    expect(listed.data).toEqual([
      expect.objectContaining({ hardwareId: 'AABBCCDD01', barcode: '6901', status: 'online' }),
    ]);

    const unbound = await send(app, w.key, '/tags/unbind', { store: w.store.code, hardwareIds: ['AABBCCDD01'] });
    expect(unbound.data).toEqual({ unbound: 1 });

    const del = await send(app, w.key, '/products/delete', { store: w.store.code, barcodes: ['6902', 'NOPE'] });
    expect(del.data).toEqual({ deleted: 1, requestId: expect.any(Number), tasks: 0 });
    const again = await send(app, w.key, '/products/delete', { store: w.store.code, barcodes: ['6902', 'NOPE'] });
    expect(again.data).toMatchObject({ deleted: 0, tasks: 0 });
    expect((await products(app, w.store.id)).map((p) => p.barcode)).toEqual(['6901']);

    // The operation log names the key as the actor, under the call's full path.
    const log = await app.services.db
      .selectFrom('op_logs')
      .select(['call', 'username', 'user_id', 'store_id', 'code'])
      .where('tenant_id', '=', w.tenant.id)
      .orderBy('id')
      .execute();
    expect(log.map((l) => l.call)).toEqual([
      '/open/v1/tags/bind',
      '/open/v1/tags/unbind',
      '/open/v1/products/delete',
      '/open/v1/products/delete',
    ]);
    expect(log[0]).toEqual({
      call: '/open/v1/tags/bind',
      username: `api:${w.key.ck}`,
      user_id: null,
      store_id: w.store.id,
      code: 0,
    });
    // Reads are not logged.
    expect(log.some((l) => l.call === '/open/v1/tags/list')).toBe(false);
  });

  it('binds all or nothing: an unknown barcode refuses every pair', async () => {
    const { app } = t();
    const w = await world(app);
    await buildProduct(app, w.at, { barcode: '6901' });
    const a = await buildTag(app, w.at, { hardwareId: 'AABBCCDD11' });
    await buildTag(app, w.at, { hardwareId: 'AABBCCDD12' });
    const res = await send(app, w.key, '/tags/bind', {
      store: w.store.code,
      bindings: [
        { hardwareId: 'AABBCCDD11', barcode: '6901' },
        { hardwareId: 'AABBCCDD12', barcode: '6999' },
      ],
    });
    expect(res.code).toBe(ErrorCode.NOT_FOUND);
    expect(res.msg).toBe('No product has the barcode 6999');
    const row = await app.services.db.selectFrom('tags').select('product_id').where('id', '=', a.id).executeTakeFirst();
    expect(row?.product_id).toBeNull();
  });

  it('keeps every call inside the key’s tenant: another tenant’s store, tags and barcodes are not found', async () => {
    const { app } = t();
    const w = await world(app);
    const theirs = await buildProduct(app, w.otherAt, { barcode: '7701', priceCents: 500 });
    const theirTag = await buildTag(app, w.otherAt, { hardwareId: 'BBBBBBBB01', productId: theirs.id });
    await buildProduct(app, w.at, { barcode: '6901' });
    const mine = await buildTag(app, w.at, { hardwareId: 'AAAAAAAA01' });
    const code = w.otherStore.code;

    const inTheirStore: [string, unknown][] = [
      ['/products/upsert', { store: code, products: [{ barcode: '7701', price: '0.01' }] }],
      ['/products/delete', { store: code, barcodes: ['7701'] }],
      ['/tags/bind', { store: code, bindings: [{ hardwareId: 'BBBBBBBB01', barcode: '7701' }] }],
      ['/tags/unbind', { store: code, hardwareIds: ['BBBBBBBB01'] }],
      ['/tags/list', { store: code }],
      ['/tags/refresh', { store: code, hardwareIds: ['BBBBBBBB01'] }],
      ['/tags/led', { store: code, hardwareIds: ['BBBBBBBB01'], led: {} }],
    ];
    for (const [path, body] of inTheirStore) {
      const res = await send(app, w.key, path, body);
      expect(res.code, path).toBe(ErrorCode.NOT_FOUND);
    }
    // In the key's own store, naming the other tenant's tag or barcode.
    const mineStore = w.store.code;
    const inMyStore: [string, unknown][] = [
      ['/tags/bind', { store: mineStore, bindings: [{ hardwareId: 'BBBBBBBB01', barcode: '6901' }] }],
      ['/tags/bind', { store: mineStore, bindings: [{ hardwareId: 'AAAAAAAA01', barcode: '7701' }] }],
      ['/tags/unbind', { store: mineStore, hardwareIds: ['BBBBBBBB01'] }],
      ['/tags/refresh', { store: mineStore, hardwareIds: ['BBBBBBBB01'] }],
      ['/tags/led', { store: mineStore, hardwareIds: ['BBBBBBBB01'], led: {} }],
    ];
    for (const [path, body] of inMyStore) {
      const res = await send(app, w.key, path, body);
      expect(res.code, path).toBe(ErrorCode.NOT_FOUND);
    }
    const deleted = await send(app, w.key, '/products/delete', { store: mineStore, barcodes: ['7701'] });
    expect(deleted.data).toMatchObject({ deleted: 0, tasks: 0 });
    const list = await send<{ hardwareId: string }[]>(app, w.key, '/tags/list', { store: mineStore });
    expect(list.data.map((x) => x.hardwareId)).toEqual(['AAAAAAAA01']);
    const stores = await send<{ code: string }[]>(app, w.key, '/stores/list', {});
    expect(stores.data.map((s) => s.code)).toEqual([w.store.code]);
    // A request id the tenant does not have is not found (another tenant's: see the refresh test).
    const progress = await send(app, w.key, '/requests/get', { requestId: 987_654 });
    expect(progress.code).toBe(ErrorCode.NOT_FOUND);

    // Nothing of the other tenant changed.
    expect(await products(app, w.otherStore.id)).toEqual([
      expect.objectContaining({ barcode: '7701', price_cents: 500, price_changes: 0 }),
    ]);
    const tagRow = await app.services.db
      .selectFrom('tags')
      .select('product_id')
      .where('id', '=', theirTag.id)
      .executeTakeFirst();
    expect(tagRow?.product_id).toBe(theirs.id);
    const myTag = await app.services.db
      .selectFrom('tags')
      .select('product_id')
      .where('id', '=', mine.id)
      .executeTakeFirst();
    expect(myTag?.product_id).toBeNull();
    // The one request is the key's own delete, which found nothing to relabel.
    const requests = await app.services.db
      .selectFrom('device_requests')
      .select(['tenant_id', 'kind', 'total'])
      .where('tenant_id', 'in', [w.tenant.id, w.other.id])
      .execute();
    expect(requests).toEqual([{ tenant_id: w.tenant.id, kind: 'product.delete', total: 0 }]);
  });

  it('refreshes and flashes tags through the delivery layer, answering a request id at once', async () => {
    const { app } = t();
    const w = await world(app);
    const tag = await buildTag(app, w.at, { hardwareId: 'CCCCCCCC01' });
    const res = await send(app, w.key, '/tags/refresh', { store: w.store.code, hardwareIds: ['CCCCCCCC01'] });
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toMatchObject({ tasks: 1 });
    const requestId = (res.data as { requestId: number }).requestId;
    const slots = await app.services.db
      .selectFrom('device_tasks')
      .select(['tag_id', 'kind', 'request_id', 'store_id'])
      .where('tenant_id', '=', w.tenant.id)
      .execute();
    expect(slots).toEqual([{ tag_id: tag.id, kind: 'image', request_id: requestId, store_id: w.store.id }]);
    const requests = await app.services.db
      .selectFrom('device_requests')
      .select(['id', 'kind', 'store_id', 'total'])
      .where('tenant_id', '=', w.tenant.id)
      .execute();
    expect(requests).toEqual([{ id: requestId, kind: 'tag.refresh', store_id: w.store.id, total: 1 }]);

    const led = await send(app, w.key, '/tags/led', {
      store: w.store.code,
      hardwareIds: ['CCCCCCCC01'],
      led: { colour: 'red' },
    });
    expect(led.code, led.msg).toBe(0);
    expect(led.data).toMatchObject({ tasks: 1 });
    expect((led.data as { requestId: number }).requestId).not.toBe(requestId);

    // Progress with each tag's result: queued until the tag log records how it ended.
    const progress = () => send(app, w.key, '/requests/get', { requestId });
    expect((await progress()).data).toMatchObject({
      requestId,
      kind: 'tag.refresh',
      total: 1,
      results: [{ hardwareId: 'CCCCCCCC01', state: 'queued', code: null }],
    });
    const second = await buildTag(app, w.at, { hardwareId: 'CCCCCCCC03' });
    const both = await send(app, w.key, '/tags/refresh', {
      store: w.store.code,
      hardwareIds: ['CCCCCCCC01', 'CCCCCCCC03'],
    });
    const bothId = (both.data as { requestId: number }).requestId;
    await appendTagLog(app.services.db, [
      {
        tenantId: w.tenant.id,
        storeId: w.store.id,
        tagId: second.id,
        hardwareId: 'CCCCCCCC03',
        requestId: bothId,
        kind: 'image',
        rev: 1,
        result: 'failed',
        code: 'timeout',
        finishedAt: app.services.config.now(),
      },
    ]);
    expect((await send(app, w.key, '/requests/get', { requestId: bothId })).data).toMatchObject({
      total: 2,
      results: [
        { hardwareId: 'CCCCCCCC01', state: 'queued', code: null },
        { hardwareId: 'CCCCCCCC03', state: 'failed', code: 'timeout' },
      ],
    });
    // Another tenant's key does not see the request.
    const foreign = await send(app, w.otherKey, '/requests/get', { requestId: bothId });
    expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('lists each tag with its status and last result (done or failed with its code and time)', async () => {
    const { app, clock } = t();
    const w = await world(app);
    const product = await buildProduct(app, w.at, { barcode: '6900000000777', name: 'Rice', priceCents: 900 });
    const ok = await buildTag(app, w.at, { hardwareId: 'DDDDDDDD01', productId: product.id });
    const bad = await buildTag(app, w.at, { hardwareId: 'DDDDDDDD02', status: 'offline' });
    await buildTag(app, w.at, { hardwareId: 'DDDDDDDD03', status: 'unknown' });
    // The other tenant's tag, with a later result of its own: not mixed in.
    const theirs = await buildTag(app, w.otherAt, { hardwareId: 'EEEEEEEE01' });
    const t0 = clock.now();
    const log = (tag: { id: number; hardware_id: string }, at: typeof w.at, rev: number, o: object) =>
      appendTagLog(app.services.db, [
        {
          tenantId: at.tenantId,
          storeId: at.storeId,
          tagId: tag.id,
          hardwareId: tag.hardware_id,
          kind: 'image',
          rev,
          ...o,
        } as Parameters<typeof appendTagLog>[1][number],
      ]);
    // ok: failed once, then done (latest wins); a later revision superseded by a newer one is no result.
    await log(ok, w.at, 1, { result: 'failed', code: 'timeout', finishedAt: t0 + 1000 });
    await log(ok, w.at, 2, { result: 'ok', finishedAt: t0 + 2000, requestId: 41 });
    await log(ok, w.at, 3, { result: 'replaced', finishedAt: t0 + 3000 });
    // bad: done, then an LED flash that failed.
    await log(bad, w.at, 1, { result: 'ok', finishedAt: t0 + 1000 });
    await log(bad, w.at, 1, { result: 'failed', code: 'nack', kind: 'led', finishedAt: t0 + 5000 });
    await log(theirs, w.otherAt, 9, { result: 'failed', code: 'lowBattery', finishedAt: t0 + 9000 });

    const res = await send<Array<Record<string, unknown>>>(app, w.key, '/tags/list', { store: w.store.code });
    expect(res.code, res.msg).toBe(0);
    expect(OPEN_CALLS.openTagList.data.array().safeParse(res.data).success).toBe(true);
    expect(res.data.map((x) => [x.hardwareId, x.status, x.barcode, x.lastResult])).toEqual([
      [
        'DDDDDDDD01',
        'online',
        '6900000000777',
        { state: 'done', code: null, kind: 'refresh', requestId: 41, time: t0 + 2000 },
      ],
      ['DDDDDDDD02', 'offline', null, { state: 'failed', code: 'nack', kind: 'led', requestId: null, time: t0 + 5000 }],
      ['DDDDDDDD03', 'unknown', null, null],
    ]);
  });

  it('names a tag of a learned model by the name its station taught, as the console does', async () => {
    const { app, clock } = t();
    const w = await world(app);
    await app.services.db
      .insertInto('learned_models')
      .values({
        tenant_id: w.at.tenantId,
        key: 'oepl-b3',
        name: '2.9" BWR (OpenEPaperLink 0xB3)',
        w: 296,
        h: 128,
        colours: '["white","black","red"]',
        colour_type: 'bwr',
        rotate: 0,
        led: 0,
        button: 0,
        nfc: 0,
        source: 'AP 1',
        station_id: null,
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    await buildTag(app, w.at, { hardwareId: 'DDDDDDDD11', model: 'oepl-b3' });
    await buildTag(app, w.at, { hardwareId: 'DDDDDDDD12', model: 'oepl-b4' });
    const res = await send<Array<Record<string, unknown>>>(app, w.key, '/tags/list', { store: w.store.code });
    expect(res.code, res.msg).toBe(0);
    expect(res.data.map((x) => [x.hardwareId, x.model, x.modelName])).toEqual([
      ['DDDDDDDD11', 'oepl-b3', '2.9" BWR (OpenEPaperLink 0xB3)'],
      // A key no station of the tenant described stays as it is.
      ['DDDDDDDD12', 'oepl-b4', 'oepl-b4'],
    ]);
  });

  it('re-renders the tags of products an upsert changes or a delete removes, as one API data push each', async () => {
    const { app } = t();
    const w = await world(app);
    const product = await buildProduct(app, w.at, { barcode: '6900000000123', name: 'Tea', priceCents: 500 });
    const shown = await buildTag(app, w.at, { hardwareId: 'CCCCCCCC02', productId: product.id });
    const slots = () =>
      app.services.db
        .selectFrom('device_tasks')
        .select(['tag_id', 'kind', 'rev'])
        .where('tenant_id', '=', w.tenant.id)
        .execute();
    const pushes = () =>
      app.services.db
        .selectFrom('push_log')
        .select(['source', 'products', 'tags_affected'])
        .where('tenant_id', '=', w.tenant.id)
        .orderBy('id')
        .execute();

    // The same values again: nothing written, nothing to render.
    const same = await send(app, w.key, '/products/upsert', {
      store: w.store.code,
      products: [{ barcode: '6900000000123', name: 'Tea', price: 5 }],
    });
    expect(same.data).toMatchObject({ unchanged: 1 });
    expect(await slots()).toEqual([]);

    const changed = await send(app, w.key, '/products/upsert', {
      store: w.store.code,
      products: [
        { barcode: '6900000000123', price: 4.5 },
        { barcode: '6900000000124', name: 'Milk', price: 3 },
      ],
    });
    expect(changed.data).toMatchObject({ created: 1, updated: 1 });
    expect(await slots()).toEqual([{ tag_id: shown.id, kind: 'image', rev: 1 }]);
    expect(await pushes()).toEqual([{ source: 'api', products: 2, tags_affected: 1 }]);

    const removed = await send(app, w.key, '/products/delete', { store: w.store.code, barcodes: ['6900000000123'] });
    expect(removed.code, removed.msg).toBe(0);
    expect(await slots()).toEqual([{ tag_id: shown.id, kind: 'image', rev: 2 }]);
    expect((await pushes()).at(-1)).toEqual({ source: 'api', products: 1, tags_affected: 1 });
  });

  it('gives an upsert and a delete a request: progress per tag, and a request.done callback (at once with no tag)', async () => {
    const { app } = t();
    const w = await world(app);
    const db = app.services.db;
    const store = w.store.code;
    // The tenant has a callback URL: its events are written to the outbox (no sender runs here).
    await db
      .insertInto('callback_settings')
      .values({ tenant_id: w.tenant.id, url: 'http://127.0.0.1:9/hook', updated_at: app.services.config.now() })
      .execute();
    const tea = await buildProduct(app, w.at, { barcode: '6900000000123', name: 'Tea', priceCents: 500 });
    const a = await buildTag(app, w.at, { hardwareId: 'CCCCCCCC11', productId: tea.id });
    const b = await buildTag(app, w.at, { hardwareId: 'CCCCCCCC12', productId: tea.id });
    type Started = { requestId: number; tasks: number };
    const progress = async (requestId: number) => (await send(app, w.key, '/requests/get', { requestId })).data;
    const doneEvents = async () =>
      (
        await db
          .selectFrom('callback_outbox')
          .select('payload')
          .where('tenant_id', '=', w.tenant.id)
          .where('type', '=', 'request.done')
          .orderBy('id')
          .execute()
      ).map((r) => (JSON.parse(r.payload) as { data: unknown }).data);
    const slots = () =>
      db
        .selectFrom('device_tasks')
        .select(['tag_id', 'request_id', 'state'])
        .where('tenant_id', '=', w.tenant.id)
        .orderBy('tag_id')
        .execute();

    // Nothing to relabel (the product is as asked): done at once, and the callback says so.
    const same = await send<Started>(app, w.key, '/products/upsert', {
      store,
      products: [{ barcode: '6900000000123', price: 5 }],
    });
    expect(same.data).toEqual({ created: 0, updated: 0, unchanged: 1, requestId: expect.any(Number), tasks: 0 });
    expect(await progress(same.data.requestId)).toEqual({
      requestId: same.data.requestId,
      kind: 'product.upsert',
      status: 'done',
      total: 0,
      done: 0,
      failed: 0,
      results: [],
    });
    const zero = { storeId: w.store.id, requestId: same.data.requestId, kind: 'product.upsert', total: 0 };
    expect(await doneEvents()).toEqual([{ ...zero, done: 0, failed: 0 }]);

    // A refresh of tag a is on its way when a price change reaches both tags: the upsert's
    // request takes a's label over, and the refresh counts it done (the tag gets a newer label).
    const refresh = await send<Started>(app, w.key, '/tags/refresh', { store, hardwareIds: ['CCCCCCCC11'] });
    const upsert = await send<Started>(app, w.key, '/products/upsert', {
      store,
      products: [{ barcode: '6900000000123', price: '4.50' }],
    });
    expect(upsert.data).toEqual({ created: 0, updated: 1, unchanged: 0, requestId: expect.any(Number), tasks: 2 });
    expect(await slots()).toEqual([
      { tag_id: a.id, request_id: upsert.data.requestId, state: 'render' },
      { tag_id: b.id, request_id: upsert.data.requestId, state: 'render' },
    ]);
    expect(await progress(refresh.data.requestId)).toMatchObject({ status: 'done', total: 1, done: 1 });
    expect(await progress(upsert.data.requestId)).toEqual({
      requestId: upsert.data.requestId,
      kind: 'product.upsert',
      status: 'running',
      total: 2,
      done: 0,
      failed: 0,
      results: [
        { hardwareId: 'CCCCCCCC11', state: 'queued', code: null },
        { hardwareId: 'CCCCCCCC12', state: 'queued', code: null },
      ],
    });

    // The product deleted before the new price went out: both tags now wait for the delete's
    // (unbound) label; the upsert's request is done, and its callback is written.
    const removed = await send<Started & { deleted: number }>(app, w.key, '/products/delete', {
      store,
      barcodes: ['6900000000123'],
    });
    expect(removed.data).toEqual({ deleted: 1, requestId: expect.any(Number), tasks: 2 });
    expect((await slots()).map((s) => s.request_id)).toEqual([removed.data.requestId, removed.data.requestId]);
    expect(await progress(removed.data.requestId)).toMatchObject({
      kind: 'product.delete',
      status: 'running',
      total: 2,
    });
    expect(await progress(upsert.data.requestId)).toMatchObject({ status: 'done', total: 2, done: 2, failed: 0 });
    expect((await doneEvents()).map((e) => (e as { requestId: number }).requestId)).toEqual([
      same.data.requestId,
      refresh.data.requestId,
      upsert.data.requestId,
    ]);
    // Another tenant's key does not see these requests.
    const foreign = await send(app, w.otherKey, '/requests/get', { requestId: upsert.data.requestId });
    expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('answers the console’s envelope for an unknown integration path and a body that is not JSON', async () => {
    const { app } = t();
    const w = await world(app);
    const unknown = await app.inject({ method: 'POST', url: `${OPEN_BASE}/no/such/call`, payload: {} });
    expect(unknown.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    const url = `${OPEN_BASE}/stores/list`;
    const timestamp = String(app.services.config.now());
    const n = nonce();
    const text = '{not json';
    const res = await app.inject({
      method: 'POST',
      url,
      payload: text,
      headers: {
        'content-type': 'application/json',
        [OPEN_HEADERS.key]: w.key.ck,
        [OPEN_HEADERS.timestamp]: timestamp,
        [OPEN_HEADERS.nonce]: n,
        [OPEN_HEADERS.signature]: sign(w.key.sk, { method: 'POST', path: url, timestamp, nonce: n, body: text }),
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: ErrorCode.VALIDATION });
  });
});

describe.each(await testDatabases())('the console’s curl example on $name', (db) => {
  const t = useApp(db, { now: Date.now });

  it('makes a signed call the server accepts', async () => {
    const { app } = t();
    const w = await world(app);
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const script = curlExample(origin, w.key.ck, w.key.sk);
    // Asynchronously: the server answering it runs in this process.
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
    const answer = JSON.parse(stdout) as Envelope<{ code: string }[]>;
    expect(answer.code, answer.msg).toBe(0);
    expect(answer.data.map((s) => s.code)).toEqual([w.store.code]);
  });
});

describe('the OpenAPI document', () => {
  const t = useApp({ name: 'sqlite', create: async () => ({ url: 'sqlite::memory:', drop: async () => {} }) });

  it('lists every integration call under its own signed security scheme', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json() as {
      paths: Record<string, { post: { security: Record<string, string[]>[]; tags: string[] } }>;
      components: { securitySchemes: Record<string, { name?: string }> };
    };
    const open = Object.keys(doc.paths).filter((p) => p.startsWith(`${OPEN_BASE}/`));
    expect(open.sort()).toEqual(
      Object.values(OPEN_CALLS)
        .map((c) => OPEN_BASE + c.path)
        .sort(),
    );
    for (const path of open) {
      expect(doc.paths[path]?.post.security).toEqual([
        { openKey: [], openTimestamp: [], openNonce: [], openSignature: [] },
      ]);
    }
    expect(doc.components.securitySchemes.openSignature?.name).toBe(OPEN_HEADERS.signature);
    // Console calls keep the session schemes.
    expect(doc.paths['/api/mgr/tag/list']?.post.security).toEqual([{ token: [] }, { bearer: [] }]);
  });
});

describe.each(await testDatabases())('integration rate limit on $name', (db) => {
  const t = useApp(db, { openRateLimitPerMinute: 3 });

  it('refuses a key’s calls over its limit per minute with its own code, and takes them again after', async () => {
    const { app, clock } = t();
    const w = await world(app);
    for (let i = 0; i < 3; i++) {
      const ok = await send(app, w.key, '/stores/list', {});
      expect(ok.code, ok.msg).toBe(0);
    }
    clock.advance(15_000);
    const over = await send(app, w.key, '/stores/list', {});
    expect(over.code).toBe(ErrorCode.OPEN_RATE_LIMITED);
    expect(over.msg).toBe('Too many calls with this API key, try again in 45 seconds');
    // HTTP speaks it too (issue 26 item 4): 429 and the same wait in Retry-After, for retrying clients.
    expect([over.status, over.retryAfter]).toEqual([429, '45']);
    expect((await send(app, w.key, '/stores/list', {}, { lang: 'zh-CN' })).msg).toContain('45');
    // Another tenant's key has its own count.
    const other = await send(app, w.otherKey, '/stores/list', {});
    expect(other.code, other.msg).toBe(0);
    expect([other.status, other.retryAfter]).toEqual([200, undefined]);
    clock.advance(45_001);
    const again = await send(app, w.key, '/stores/list', {});
    expect(again.code, again.msg).toBe(0);
  });
});
