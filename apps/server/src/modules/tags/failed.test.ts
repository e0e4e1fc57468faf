import type { Tag } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import type { TaskState } from '../../infra/db/schema';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

// The handheld's list of tags whose last update failed: /mgr/tag/list with `failed`.
describe.each(await testDatabases())('tags whose last update failed, on $name', (db) => {
  const t = useApp(db);

  it('lists only tags whose label task ended failed, in the current store, for a clerk', async () => {
    const { tenant, tokens, store, otherStore } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const now = t().app.services.config.now();
    const task = async (tagId: number, storeId: number, kind: 'image' | 'led', state: TaskState) =>
      t()
        .app.services.db.insertInto('device_tasks')
        .values({
          tenant_id: tenant.id,
          store_id: storeId,
          target_key: `t:${tagId}`,
          tag_id: tagId,
          kind,
          prio: 1,
          state,
          code: state === 'failed' ? 'timeout' : null,
          detail: null,
          sent_rev: null,
          hash: null,
          size: null,
          wake_at: null,
          ttl_s: null,
          ack_deadline: null,
          done_deadline: null,
          lease_owner: null,
          lease_until: null,
          created_at: now,
          queued_at: now,
          rendered_at: null,
          sent_at: null,
          accepted_at: null,
          finished_at: state === 'failed' || state === 'done' ? now : null,
        })
        .execute();
    const failed = await buildTag(t().app, at, { hardwareId: 'FA000001' });
    const done = await buildTag(t().app, at, { hardwareId: 'FA000002' });
    const ledFailed = await buildTag(t().app, at, { hardwareId: 'FA000003' });
    const queued = await buildTag(t().app, at, { hardwareId: 'FA000004' });
    const elsewhere = await buildTag(
      t().app,
      { tenantId: tenant.id, storeId: otherStore.id },
      { hardwareId: 'FA000009' },
    );
    await task(failed.id, store.id, 'image', 'failed');
    await task(done.id, store.id, 'image', 'done');
    await task(ledFailed.id, store.id, 'image', 'done');
    await task(ledFailed.id, store.id, 'led', 'failed');
    await task(queued.id, store.id, 'image', 'queued');
    await task(elsewhere.id, otherStore.id, 'image', 'failed');

    const ids = async (body: object) => {
      const res = await t().call<Tag[]>('/mgr/tag/list', body, { token: tokens.clerk });
      expect(res.code, res.msg).toBe(0);
      return { ids: res.data.map((tag) => tag.hardwareId), count: res.count };
    };
    // `bound: true` first: its cached SQL text must not be taken for `failed: true` (their keys
    // once read the same, and the failed list answered 500 after a bound list).
    expect((await ids({ bound: true })).count).toBe(0);
    expect(await ids({ failed: true })).toEqual({ ids: ['FA000001'], count: 1 });
    // Twice: the second run goes through the cached SQL text with the same parameters.
    expect(await ids({ failed: true, page: 1, limit: 20 })).toEqual({ ids: ['FA000001'], count: 1 });
    expect(await ids({ failed: false })).toEqual({ ids: ['FA000004', 'FA000003', 'FA000002'], count: 3 });
    expect(await ids({ failed: true, text: 'FA00000' })).toEqual({ ids: ['FA000001'], count: 1 });
    expect(await ids({ failed: true, status: 'lost' })).toEqual({ ids: [], count: 0 });

    // A new revision of the slot (the label sent again) takes the tag off the list.
    await t()
      .app.services.db.updateTable('device_tasks')
      .set({ state: 'queued', code: null })
      .where('tag_id', '=', failed.id)
      .execute();
    // Counts are reused for a moment; a filter with text reads afresh.
    expect((await ids({ failed: true, text: 'FA' })).ids).toEqual([]);
  });
  it("lists a roll call's absentees: tags never heard, or not since it started (issue 27)", async () => {
    const { tenant, tokens, store } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const never = await buildTag(t().app, at, { hardwareId: 'NS000001' });
    const before = await buildTag(t().app, at, { hardwareId: 'NS000002' });
    const after = await buildTag(t().app, at, { hardwareId: 'NS000003' });
    const db = t().app.services.db;
    await db.updateTable('tags').set({ last_seen: null }).where('id', '=', never.id).execute();
    await db.updateTable('tags').set({ last_seen: 1_000 }).where('id', '=', before.id).execute();
    await db.updateTable('tags').set({ last_seen: 5_000 }).where('id', '=', after.id).execute();
    const ids = async (body: object) => {
      const res = await t().call<Tag[]>('/mgr/tag/list', body, { token: tokens.clerk });
      expect(res.code, res.msg).toBe(0);
      return { ids: res.data.map((tag) => tag.hardwareId).sort(), count: res.count };
    };
    expect(await ids({ notSeenSince: 3_000 })).toEqual({ ids: ['NS000001', 'NS000002'], count: 2 });
    // With the other filters whose values are parameters of the cached SQL text, in their order.
    expect(await ids({ notSeenSince: 3_000, failed: false, text: 'NS00000' })).toEqual({
      ids: ['NS000001', 'NS000002'],
      count: 2,
    });
    expect(await ids({ notSeenSince: 500, text: 'NS' })).toEqual({ ids: ['NS000001'], count: 1 });
    expect((await t().call('/mgr/tag/list', { notSeenSince: -1 }, { token: tokens.clerk })).code).toBe(1001);
  });
});
