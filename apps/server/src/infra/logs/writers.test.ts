import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { type Db, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import {
  addToPush,
  appendTagLog,
  closePush,
  openPush,
  PUSH_EXCEPTIONS_KEPT,
  pruneDeliveryLogs,
  type TagLogEntry,
} from './index';

const DAY = 86_400_000;
const NOW = Date.UTC(2030, 0, 1);

describe.each(await testDatabases())('delivery log writers on $name', (target) => {
  let database: Db;
  let drop: () => Promise<void>;
  let tenantId: number;
  let storeA: number;
  let storeB: number;

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = openDatabase(created.url);
    await migrateToLatest(database);
    const db = database.db;
    const tenant = await db
      .insertInto('tenants')
      .values({ name: 't', company: '', description: '', account: '', appid: '', ck: '', sk: '', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    tenantId = tenant.id;
    const store = (name: string) =>
      db
        .insertInto('stores')
        .values({
          tenant_id: tenantId,
          name,
          code: name,
          address: '',
          contact: '',
          phone: '',
          remark: '',
          created_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    storeA = (await store('a')).id;
    storeB = (await store('b')).id;
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  const entry = (over: Partial<TagLogEntry> = {}): TagLogEntry => ({
    tenantId,
    storeId: storeA,
    tagId: 1,
    hardwareId: 'AABBCCDD',
    kind: 'refresh',
    rev: 1,
    result: 'ok',
    finishedAt: NOW,
    ...over,
  });

  it('appends tag-log rows with every field, once per (tag, kind, revision)', async () => {
    const full = entry({
      tagId: 7,
      hardwareId: '00112233',
      requestId: 42,
      rev: 3,
      result: 'failed',
      code: 'timeout',
      hash: 'ab'.repeat(32),
      stationSn: 'AP-1',
      attempts: 8,
      queuedAt: NOW - 60_000,
      sentAt: NOW - 30_000,
      finishedAt: NOW,
      airMs: 812,
      rssi: -67,
    });
    expect(await appendTagLog(database.db, [full, entry({ tagId: 7, hardwareId: '00112233', rev: 4 })])).toBe(2);
    // The station resends the result of revision 3, and a transaction logs it again: no new row.
    expect(await database.db.transaction().execute((trx) => appendTagLog(trx, [{ ...full, result: 'ok' }]))).toBe(0);
    const rows = await database.db.selectFrom('tag_log').selectAll().where('tag_id', '=', 7).orderBy('rev').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      tenant_id: tenantId,
      store_id: storeA,
      hardware_id: '00112233',
      request_id: 42,
      kind: 'refresh',
      rev: 3,
      result: 'failed',
      code: 'timeout',
      hash: 'ab'.repeat(32),
      station_sn: 'AP-1',
      attempts: 8,
      queued_at: NOW - 60_000,
      sent_at: NOW - 30_000,
      finished_at: NOW,
      air_ms: 812,
      rssi: -67,
    });
    expect(rows[1]).toMatchObject({ rev: 4, result: 'ok', code: '', hash: null, station_sn: '', attempts: 0 });
    // Another kind of the same tag and revision is its own row.
    expect(await appendTagLog(database.db, [entry({ tagId: 7, rev: 3, kind: 'led' })])).toBe(1);
  });

  it('appends more rows than one INSERT holds', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => entry({ tagId: 10_000 + i, hardwareId: `F${i}` }));
    expect(await appendTagLog(database.db, many)).toBe(1234);
    const n = await database.db
      .selectFrom('tag_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tag_id', '>=', 10_000)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1234);
  });

  it('rolls a tag-log row back with the transaction it was written in', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await appendTagLog(trx, [entry({ tagId: 99 })]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await database.db.selectFrom('tag_log').select('id').where('tag_id', '=', 99).execute()).toEqual([]);
  });

  it('opens, adds to and closes a data push, keeping the first exceptions', async () => {
    const id = await openPush(database.db, {
      tenantId,
      storeId: storeA,
      source: 'import',
      userId: 5,
      products: 3,
      startedAt: NOW,
    });
    await addToPush(database.db, id, { tagsAffected: 4 });
    await Promise.all([
      addToPush(database.db, id, { rendered: 2, failed: 1, exception: 'font "x" missing' }),
      addToPush(database.db, id, { rendered: 1, exception: 'it says "quote", \\ and 价格' }),
    ]);
    await addToPush(database.db, id, {});
    let row = await database.db.selectFrom('push_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      tenant_id: tenantId,
      store_id: storeA,
      source: 'import',
      user_id: 5,
      products: 3,
      tags_affected: 4,
      rendered: 3,
      failed: 1,
      exception_count: 2,
      started_at: NOW,
      finished_at: null,
    });
    expect((JSON.parse(row.exceptions) as string[]).sort()).toEqual([
      'font "x" missing',
      'it says "quote", \\ and 价格',
    ]);

    for (let i = 0; i < PUSH_EXCEPTIONS_KEPT + 5; i++)
      await addToPush(database.db, id, { failed: 1, exception: `e${i}` });
    await closePush(database.db, id, NOW + 5000);
    row = await database.db.selectFrom('push_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const kept = JSON.parse(row.exceptions) as string[];
    expect(kept).toHaveLength(PUSH_EXCEPTIONS_KEPT);
    expect(kept.slice(2)).toEqual(Array.from({ length: PUSH_EXCEPTIONS_KEPT - 2 }, (_, i) => `e${i}`));
    expect(row).toMatchObject({ failed: 1 + PUSH_EXCEPTIONS_KEPT + 5, exception_count: 2 + PUSH_EXCEPTIONS_KEPT + 5 });
    expect(row.finished_at).toBe(NOW + 5000);
  });

  it('prunes rows older than each store keeps, in batches, and nothing newer', async () => {
    await database.db
      .insertInto('store_params')
      .values({ store_id: storeB, tenant_id: tenantId, params: JSON.stringify({ tagLogDays: 7 }), updated_at: 1 })
      .execute();
    const old = (storeId: number, days: number, tagId: number) =>
      entry({ storeId, tagId, rev: 1000 + days, finishedAt: NOW - days * DAY });
    const tagRows = [
      ...Array.from({ length: 7 }, (_, i) => old(storeA, 91, 50_000 + i)), // beyond 90: gone
      old(storeA, 89, 50_100), // kept (90-day default)
      old(storeB, 8, 50_200), // beyond store B's 7 days: gone
      old(storeB, 6, 50_201), // kept
    ];
    await appendTagLog(database.db, tagRows);
    const pushOld = await openPush(database.db, { tenantId, storeId: storeB, source: 'api', startedAt: NOW - 8 * DAY });
    const pushNew = await openPush(database.db, { tenantId, storeId: storeB, source: 'api', startedAt: NOW - 6 * DAY });

    const pruned = await pruneDeliveryLogs(database.db, NOW, { batch: 3 });
    expect(pruned).toEqual({ tagLog: 8, pushLog: 1 });
    const left = await database.db
      .selectFrom('tag_log')
      .select('tag_id')
      .where('tag_id', '>=', 50_000)
      .where('tag_id', '<', 60_000)
      .orderBy('tag_id')
      .execute();
    expect(left.map((r) => r.tag_id)).toEqual([50_100, 50_201]);
    const pushes = await database.db.selectFrom('push_log').select('id').where('store_id', '=', storeB).execute();
    expect(pushes.map((r) => r.id)).toEqual([pushNew]);
    expect(pushes.map((r) => r.id)).not.toContain(pushOld);
    expect(await pruneDeliveryLogs(database.db, NOW)).toEqual({ tagLog: 0, pushLog: 0 });
  });
});
