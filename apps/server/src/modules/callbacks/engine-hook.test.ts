import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobId } from '../../delivery/tasks/policy';
import { storeImages } from '../../infra/render';
import * as outbox from '../../outbox/slots/repository';
import { buildShop, buildStation, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { testImage } from '../../test/delivery';
import { useApp } from '../../test/harness';

// The two call sites in the delivery engine: a task revision ending (settled) and a request
// reaching its total (countRequest) write their callback events in the engine's transaction.

describe.each(await testDatabases())('callbacks from the task engine ($name)', (db) => {
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 1000, tickMs: 0 },
  });
  const got: Array<{ type: string; data: Record<string, unknown> }> = [];
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends a tag result and the request completion when a station reports the last tag', async () => {
    const { app, clock, call } = t();
    const shop = await buildShop(app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    expect((await call('/user/setcallback', { url }, { token: shop.tokens.admin })).code).toBe(0);
    const station = await buildStation(app, at);
    const [a, b] = [await buildTag(app, at, { model: '05' }), await buildTag(app, at, { model: '05' })];
    const image = testImage('05', 3);
    await app.services.db
      .transaction()
      .execute((trx) =>
        storeImages(
          trx,
          at.tenantId,
          [{ ...image, size: image.bytes.length, width: 250, height: 122, colour: 'bwr' }],
          clock.now(),
        ),
      );
    const requestId = await outbox.insertRequest(app.services.db, {
      ...at,
      kind: 'tag.refresh',
      tagId: null,
      userId: null,
      params: {},
      now: clock.now(),
    });
    await outbox.setRequestTotal(app.services.db, requestId, 2, clock.now());
    const slot = (tagId: number, fields: { attempt: number; done_deadline: number }) =>
      app.services.db
        .insertInto('device_tasks')
        .values({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          target_key: `t:${tagId}`,
          tag_id: tagId,
          station_id: station.id,
          kind: 'image',
          request_id: requestId,
          prio: 1,
          state: 'accepted',
          rev: 1,
          sent_rev: 1,
          hash: image.hash,
          size: image.bytes.length,
          attempt: fields.attempt,
          ttl_s: 300,
          ack_deadline: null,
          done_deadline: fields.done_deadline,
          created_at: clock.now(),
          sent_at: clock.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    // Tag a: its last attempt timed out (failed). Tag b: the station reports it shown (done).
    await slot(a.id, { attempt: 8, done_deadline: clock.now() - 1 });
    const sb = await slot(b.id, { attempt: 1, done_deadline: clock.now() + 60_000 });
    const engine = app.delivery?.tasks;
    if (!engine) throw new Error('no engine');
    await engine.tick();
    const ref = { id: station.id, tenant_id: at.tenantId, store_id: at.storeId, sn: station.sn };
    await engine.onResult(ref, {
      v: 1,
      results: [
        { id: jobId(sb.id), rev: 1, code: 'ok', tag: b.hardware_id, ver: image.hash.slice(0, 16), at: clock.now() },
      ],
    });
    const rows = await app.services.db
      .selectFrom('callback_outbox')
      .select(['type', 'order_key'])
      .where('tenant_id', '=', at.tenantId)
      // The engine's tick also sweeps problems (the station never came online): those events are
      // another test's (problems.test.ts); here only what a station's results make.
      .where('type', 'in', ['tag.result', 'request.done'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { type: 'tag.result', order_key: `tag:${a.id}` },
      { type: 'tag.result', order_key: `tag:${b.id}` },
      { type: 'request.done', order_key: `request:${requestId}` },
    ]);

    while ((await app.callbacks.tick()) > 0);
    const results = got.filter((e) => e.type === 'tag.result' || e.type === 'request.done');
    expect(results.map((e) => [e.type, e.data.tagId ?? e.data.requestId, e.data.state ?? e.data.failed])).toEqual([
      ['tag.result', a.id, 'failed'],
      ['tag.result', b.id, 'done'],
      ['request.done', requestId, 1],
    ]);
    expect(results[0]?.data).toMatchObject({ code: 'timeout', requestId, hardwareId: a.hardware_id, kind: 'refresh' });
  });
});
