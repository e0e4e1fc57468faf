import { ErrorCode, type TagDelivery } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildShop, buildStation, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { nextCheckIn } from './delivery';

// The tag detail's "task state, attempts, station and expected time" (issue 13, item 6), read
// from the delivery engine's task slots.

describe('nextCheckIn', () => {
  it('steps the expected wake on by the interval until it is not before the time asked', () => {
    expect(nextCheckIn(10_000, 40, 5_000)).toBe(10_000);
    expect(nextCheckIn(10_000, 40, 10_001)).toBe(50_000);
    expect(nextCheckIn(10_000, 40, 130_000)).toBe(130_000);
    expect(nextCheckIn(10_000, 40, 130_001)).toBe(170_000);
    expect(nextCheckIn(10_000, null, 20_000)).toBeNull();
    expect(nextCheckIn(null, 40, 20_000)).toBeNull();
  });
});

describe.each(await testDatabases())('/mgr/tag/delivery on $name', (db) => {
  const t = useApp(db);

  it("answers each task slot's state, attempts, station, reason and expected time, in the reader's language", async () => {
    const { app } = t();
    const { tokens, store, tenant, otherStoreAdmin } = await buildShop(app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const now = app.services.config.now();
    const [near, far] = [await buildStation(app, at, { sn: 'APNEAR' }), await buildStation(app, at, { sn: 'APFAR' })];
    const tag = await buildTag(app, at, { model: '05' });
    await app.services.db
      .updateTable('tags')
      .set({ station_id: near.id, wake_s: 40, next_wake_at: now - 5_000 })
      .where('id', '=', tag.id)
      .execute();
    const slot = (kind: 'image' | 'led', fields: object) => ({
      tenant_id: tenant.id,
      store_id: store.id,
      target_key: `t:${tag.id}`,
      tag_id: tag.id,
      station_id: null,
      kind,
      request_id: null,
      prio: 1,
      state: 'queued' as const,
      code: null,
      detail: null,
      hash: null,
      size: null,
      wake_at: null,
      ttl_s: null,
      ack_deadline: null,
      done_deadline: null,
      lease_owner: null,
      lease_until: null,
      created_at: now - 60_000,
      queued_at: now - 30_000,
      rendered_at: null,
      sent_at: null,
      accepted_at: null,
      finished_at: null,
      rev: 1,
      attempt: 0,
      not_before: 0,
      ...fields,
    });
    await app.services.db
      .insertInto('device_tasks')
      .values([
        // A label being retried after a timeout, waiting out its backoff for another 50 s.
        slot('image', { attempt: 2, code: 'timeout', not_before: now + 50_000, rev: 3 }),
        // An LED flash that failed through the far station.
        slot('led', { state: 'failed', attempt: 3, code: 'timeout', station_id: far.id, finished_at: now - 1_000 }),
      ])
      .execute();

    const en = await t().call<TagDelivery>('/mgr/tag/delivery', { id: tag.id }, { token: tokens.clerk });
    expect(en.code, en.msg).toBe(0);
    expect(en.data).toMatchObject({ tagId: tag.id, wakeS: 40, nextWakeAt: now - 5_000 });
    expect(en.data.tasks).toEqual([
      expect.objectContaining({
        kind: 'image',
        kindName: 'Refresh',
        state: 'queued',
        rev: 3,
        attempts: 2,
        code: 'timeout',
        message: 'Refresh timeout',
        stationSn: 'APNEAR',
        queuedAt: now - 30_000,
        finishedAt: null,
        // The first check-in after the backoff: now - 5 s + 2 × 40 s.
        expectedAt: now + 75_000,
      }),
      expect.objectContaining({
        kind: 'led',
        state: 'failed',
        attempts: 3,
        message: 'LED flash failed: timed out',
        stationSn: 'APFAR',
        finishedAt: now - 1_000,
        expectedAt: null,
      }),
    ]);
    const zh = await t().call<TagDelivery>('/mgr/tag/delivery', { id: tag.id }, { token: tokens.clerk, lang: 'zh-CN' });
    expect(zh.data.tasks.map((x) => [x.kindName, x.message])).toEqual([
      ['刷新', '刷新超时'],
      ['闪灯', '闪灯失败：超时'],
    ]);

    // Another store's session does not see the tag.
    const other = await t().call('/mgr/tag/delivery', { id: tag.id }, { token: otherStoreAdmin });
    expect(other.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('answers a tag without tasks with none, and its expected wake unknown until reported', async () => {
    const { app } = t();
    const { tokens, store, tenant } = await buildShop(app);
    const tag = await buildTag(app, { tenantId: tenant.id, storeId: store.id });
    const res = await t().call<TagDelivery>('/mgr/tag/delivery', { id: tag.id }, { token: tokens.clerk });
    expect(res.data).toEqual({ tagId: tag.id, wakeS: null, nextWakeAt: null, tasks: [] });
  });
});
