import type { PushLog, TagLog } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildShop, buildStorelessAdmin, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildOperator } from '../../test/factories';
import { useApp } from '../../test/harness';
import { addToPush, appendTagLog, closePush, openPush, type TagLogEntry } from './index';

const TAG_LOG = '/log/taglog/esltasklist';
const PUSH_LOG = '/data/pushexp/List';

describe.each(await testDatabases())('tag log and data-push log calls on $name', (target) => {
  const t = useApp(target);

  /** A shop with a varied tag log in its first store and one row in its second. */
  async function seeded() {
    const shop = await buildShop(t().app);
    const now = t().clock.time;
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const row = (over: Partial<TagLogEntry>): TagLogEntry => ({
      ...at,
      tagId: 1,
      hardwareId: 'AA000001',
      kind: 'image',
      rev: 1,
      result: 'ok',
      finishedAt: now,
      ...over,
    });
    await appendTagLog(t().app.services.db, [
      row({ rev: 1, result: 'ok', stationSn: 'AP1', queuedAt: now - 9000, sentAt: now - 8000, finishedAt: now - 5000 }),
      row({ rev: 2, result: 'failed', code: 'timeout', stationSn: 'AP1', attempts: 8, finishedAt: now - 4000 }),
      row({ tagId: 2, hardwareId: 'AA000002', result: 'failed', code: 'renderError', finishedAt: now - 3000 }),
      row({
        tagId: 2,
        hardwareId: 'AA000002',
        rev: 2,
        result: 'failed',
        code: 'displayError',
        stationSn: 'AP2',
        finishedAt: now - 2000,
      }),
      row({
        tagId: 3,
        hardwareId: 'AA000003',
        result: 'failed',
        code: 'nack',
        stationSn: 'AP2',
        requestId: 77,
        finishedAt: now - 1000,
      }),
      row({ tagId: 3, hardwareId: 'AA000003', rev: 2, result: 'skipped', requestId: 77, finishedAt: now }),
      row({ tagId: 3, hardwareId: 'AA000003', kind: 'led', result: 'failed', code: 'timeout', finishedAt: now }),
      row({ storeId: shop.otherStore.id, tagId: 9, hardwareId: 'BB000009', finishedAt: now }),
    ]);
    return { shop, now, at };
  }

  it('lists the current store’s tag log newest first, in the reader’s words', async () => {
    const { shop, now } = await seeded();
    const en = await t().call<TagLog[]>(TAG_LOG, { limit: 100 }, { token: shop.tokens.manager });
    expect(en.code, en.msg).toBe(0);
    expect(en.count).toBe(7);
    expect(en.data.map((r) => r.hardwareId)).not.toContain('BB000009');
    const byKey = (rows: TagLog[], hw: string, kind: string, rev: number) =>
      rows.find((r) => r.hardwareId === hw && r.kind === kind && r.rev === rev) as TagLog;
    expect(byKey(en.data, 'AA000001', 'image', 1)).toMatchObject({
      result: 'ok',
      resultName: 'Done',
      kindName: 'Refresh',
      message: '',
      stationSn: 'AP1',
      queuedAt: now - 9000,
      sentAt: now - 8000,
      finishedAt: now - 5000,
      latencyMs: 4000,
    });
    expect(byKey(en.data, 'AA000001', 'image', 2)).toMatchObject({
      code: 'timeout',
      message: 'Refresh timeout',
      attempts: 8,
      latencyMs: null,
    });
    expect(byKey(en.data, 'AA000002', 'image', 1).message).toBe('Synthesis failed');
    expect(byKey(en.data, 'AA000002', 'image', 2).message).toBe('Screen refresh failed');
    expect(byKey(en.data, 'AA000003', 'image', 1).message).toMatch(/^Refresh failed/);
    expect(byKey(en.data, 'AA000003', 'led', 1)).toMatchObject({
      kindName: 'LED flash',
      message: 'LED flash failed: timed out',
    });
    // Newest first: by finish time.
    const times = en.data.map((r) => r.finishedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const zh = await t().call<TagLog[]>(TAG_LOG, { limit: 100 }, { token: shop.tokens.manager, lang: 'zh-CN' });
    expect(byKey(zh.data, 'AA000001', 'image', 2)).toMatchObject({
      message: '刷新超时',
      resultName: '失败',
      kindName: '刷新',
    });
    expect(byKey(zh.data, 'AA000002', 'image', 1).message).toBe('合成失败');
    expect(byKey(zh.data, 'AA000002', 'image', 2).message).toBe('屏幕刷新失败');
    expect(byKey(zh.data, 'AA000003', 'image', 1).message).toMatch(/^刷新失败/);
    expect(byKey(zh.data, 'AA000003', 'image', 2).resultName).toBe('无需发送');
  });

  it('filters the tag log by tag, result, station, request and time', async () => {
    const { shop, now } = await seeded();
    const ids = async (body: object) => {
      const res = await t().call<TagLog[]>(TAG_LOG, { limit: 100, ...body }, { token: shop.tokens.admin });
      expect(res.code, res.msg).toBe(0);
      expect(res.count).toBe(res.data.length);
      return res.data.map((r) => `${r.hardwareId}/${r.kind}/${r.rev}`).sort();
    };
    // Hardware IDs in any case, whole (a tag of the tenant) or a part of one (a tag since deleted).
    await buildTag(t().app, { tenantId: shop.tenant.id, storeId: shop.store.id }, { hardwareId: 'AA000002' });
    expect(await ids({ hardwareId: 'aa000002' })).toEqual(['AA000002/image/1', 'AA000002/image/2']);
    expect(await ids({ hardwareId: '0003' })).toEqual(['AA000003/image/1', 'AA000003/image/2', 'AA000003/led/1']);
    expect(await ids({ hardwareId: 'aa0000' })).toHaveLength(7);
    expect(await ids({ result: 'skipped' })).toEqual(['AA000003/image/2']);
    // The console's default view leaves the skipped refreshes out (issue 27); a result filter wins.
    expect(await ids({ requestId: 77, hideSkipped: true })).toEqual(['AA000003/image/1']);
    expect(await ids({ hideSkipped: true })).toHaveLength(6);
    expect(await ids({ result: 'skipped', hideSkipped: true })).toEqual(['AA000003/image/2']);
    expect(await ids({ result: 'failed', stationSn: 'AP2' })).toEqual(['AA000002/image/2', 'AA000003/image/1']);
    expect(await ids({ requestId: 77 })).toEqual(['AA000003/image/1', 'AA000003/image/2']);
    expect(await ids({ from: now - 3000, to: now - 1000 })).toEqual([
      'AA000002/image/1',
      'AA000002/image/2',
      'AA000003/image/1',
    ]);
    // The other store's tag is not found even by its own ID.
    expect(await ids({ hardwareId: 'BB000009' })).toEqual([]);
    const page = await t().call<TagLog[]>(TAG_LOG, { limit: 3, page: 3 }, { token: shop.tokens.admin });
    expect(page.count).toBe(7);
    expect(page.data).toHaveLength(1);
    expect((await t().call(TAG_LOG, { hardwareId: 'x'.repeat(65) }, { token: shop.tokens.admin })).code).toBe(1001);
  });

  it('lists data pushes with their counts, exceptions and who pushed, filtered by source and time', async () => {
    const { shop, now, at } = await seeded();
    const db = t().app.services.db;
    const imported = await openPush(db, {
      ...at,
      source: 'import',
      userId: shop.users.stock.id,
      products: 120,
      startedAt: now - 60_000,
    });
    await addToPush(db, imported, { tagsAffected: 80, rendered: 78, failed: 2, exception: 'template 3: font missing' });
    await closePush(db, imported, now - 50_000);
    const running = await openPush(db, { ...at, source: 'api', products: 5, startedAt: now - 1000 });
    await openPush(db, { tenantId: at.tenantId, storeId: shop.otherStore.id, source: 'console', startedAt: now });

    const all = await t().call<PushLog[]>(PUSH_LOG, {}, { token: shop.tokens.manager });
    expect(all.code, all.msg).toBe(0);
    expect(all.data.map((r) => r.id)).toEqual([running, imported]);
    expect(all.data[1]).toMatchObject({
      source: 'import',
      sourceName: 'Import',
      username: shop.users.stock.username,
      products: 120,
      tagsAffected: 80,
      rendered: 78,
      failed: 2,
      exceptions: ['template 3: font missing'],
      exceptionCount: 1,
      startedAt: now - 60_000,
      finishedAt: now - 50_000,
    });
    expect(all.data[0]).toMatchObject({ source: 'api', username: '', finishedAt: null, exceptions: [] });
    const zh = await t().call<PushLog[]>(PUSH_LOG, { source: 'import' }, { token: shop.tokens.manager, lang: 'zh-CN' });
    expect(zh.data.map((r) => [r.id, r.sourceName])).toEqual([[imported, '导入']]);
    const early = await t().call<PushLog[]>(PUSH_LOG, { to: now - 2000 }, { token: shop.tokens.manager });
    expect(early.data.map((r) => r.id)).toEqual([imported]);
    // The admin acting in the second store sees its push only.
    const other = await t().call<PushLog[]>(PUSH_LOG, {}, { token: shop.otherStoreAdmin });
    expect(other.data.map((r) => r.source)).toEqual(['console']);
  });

  it('needs log.read and a current store; the operator and another tenant see none of it', async () => {
    const { shop } = await seeded();
    for (const path of [TAG_LOG, PUSH_LOG]) {
      expect((await t().call(path, {}, { token: shop.tokens.clerk })).code).toBe(1003);
      expect((await t().call(path, {}, { token: shop.tokens.stock })).code).toBe(1003);
      expect((await t().call(path, {})).code).not.toBe(0);
      // The platform operator reads logs, but no store's: an empty list.
      const operator = await buildOperator(t().app);
      expect(await t().call(path, {}, { token: operator.token })).toMatchObject({ code: 0, count: 0, data: [] });
    }
    const other = await buildShop(t().app);
    const theirs = await t().call<TagLog[]>(TAG_LOG, { limit: 2000 }, { token: other.tokens.admin });
    expect(theirs).toMatchObject({ code: 0, count: 0, data: [] });
    const pushes = await t().call<PushLog[]>(PUSH_LOG, { limit: 2000 }, { token: other.tokens.admin });
    expect(pushes).toMatchObject({ code: 0, count: 0, data: [] });
    // Switching to a store of another tenant is refused, so its rows stay out of reach.
    const res = await t().call('/user/setcurrshop', { curshop: shop.store.id }, { token: other.tokens.admin });
    expect(res.code).not.toBe(0);
    const storeless = await buildStorelessAdmin(t().app);
    expect((await t().call(TAG_LOG, {}, { token: storeless.token })).code).toBe(1008);
  });
});
