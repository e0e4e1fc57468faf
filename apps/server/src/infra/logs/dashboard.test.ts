import type { ShopStatic, TagChangeDay } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { dayWindow } from '../../modules/summary/service';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import type { TaskState } from '../db/schema';
import { appendTagLog, type TagLogEntry } from './index';

const DAY = 86_400_000;
const SEC = 1000;

/** The dashboard's delivery figures, counted from the task slots and the tag log (issue 13 §7). */
describe.each(await testDatabases())('dashboard delivery figures on $name', (target) => {
  const t = useApp(target);

  async function seeded() {
    const shop = await buildShop(t().app);
    const db = t().app.services.db;
    const now = t().clock.now();
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const other = { tenantId: shop.tenant.id, storeId: shop.otherStore.id };
    let tagId = 1000;
    const slot = async (where: typeof at, state: TaskState) => {
      const tag = await buildTag(t().app, where);
      return {
        tenant_id: where.tenantId,
        store_id: where.storeId,
        target_key: `t:${tag.id}`,
        tag_id: tag.id,
        kind: 'image' as const,
        prio: 1,
        state,
        created_at: now,
      };
    };
    await db
      .insertInto('device_tasks')
      .values(
        await Promise.all([
          slot(at, 'render'),
          slot(at, 'queued'),
          slot(at, 'sent'),
          slot(at, 'accepted'),
          slot(at, 'done'),
          slot(at, 'failed'),
          slot(other, 'queued'),
          slot(other, 'sent'),
        ]),
      )
      .execute();
    const row = (over: Partial<TagLogEntry>): TagLogEntry => {
      tagId++;
      return {
        ...at,
        tagId,
        hardwareId: `AB${tagId}`,
        kind: 'refresh',
        rev: 1,
        result: 'ok',
        finishedAt: now,
        ...over,
      };
    };
    const took = (s: number, finishedAt = now - 60 * SEC) => ({ queuedAt: finishedAt - s * SEC, finishedAt });
    await appendTagLog(db, [
      // Done in the last 24 h: four confirmed refreshes (10, 20, 30, 40 s); a skip, not counted.
      row({ ...took(10) }),
      row({ kind: 'image', ...took(40) }),
      row({ ...took(30, now - 2 * 3600 * SEC) }),
      row({ ...took(20, now - 20 * 3600 * SEC) }),
      row({ result: 'skipped', ...took(1) }),
      // Failed in the last 24 h.
      row({ result: 'failed', code: 'timeout', ...took(900) }),
      // Neither: replaced, an LED flash (done, but no screen), older than 24 h, another store.
      row({ result: 'replaced', ...took(5) }),
      row({ kind: 'led', ...took(2) }),
      row({ ...took(5000, now - DAY - SEC) }),
      row({ ...other, ...took(1) }),
      row({ ...other, result: 'failed', ...took(1) }),
      // Two days ago: a confirmed refresh and a failed one.
      row({ ...took(50, now - 2 * DAY) }),
      row({ result: 'failed', code: 'nack', ...took(50, now - 2 * DAY) }),
    ]);
    return shop;
  }

  it('counts queued and in-flight slots, done and failed in 24 h, and the median latency', async () => {
    const shop = await seeded();
    const res = await t().call<ShopStatic>('/sumary/getshopstatic', {}, { token: shop.tokens.manager });
    expect(res.code, res.msg).toBe(0);
    // LED flash ok counts as done (the task ended well); its latency is not a screen's. The skip
    // is not work done (issue 27: one meaning per figure).
    expect(res.data.delivery).toEqual({ queued: 2, inFlight: 2, done24h: 5, failed24h: 1, p50LatencyS: 25 });

    // An odd number of confirmed refreshes: the middle one.
    const db = t().app.services.db;
    await appendTagLog(db, [
      {
        tenantId: shop.tenant.id,
        storeId: shop.store.id,
        tagId: 1,
        hardwareId: 'AB000001',
        kind: 'refresh',
        rev: 1,
        result: 'ok',
        queuedAt: t().clock.now() - 35_500,
        finishedAt: t().clock.now(),
      },
    ]);
    const odd = await t().call<ShopStatic>('/sumary/getshopstatic', {}, { token: shop.tokens.manager });
    expect(odd.data.delivery.p50LatencyS).toBe(30);
    // The other store's own figures.
    const other = await t().call<ShopStatic>('/sumary/getshopstatic', {}, { token: shop.otherStoreAdmin });
    expect(other.data.delivery).toEqual({ queued: 1, inFlight: 1, done24h: 1, failed24h: 1, p50LatencyS: 1 });
  });

  it('charts confirmed and failed screen updates per day beside the changes', async () => {
    const shop = await seeded();
    const res = await t().call<TagChangeDay[]>('/sumary/gettagchanglogsatat', {}, { token: shop.tokens.clerk });
    expect(res.code, res.msg).toBe(0);
    const dates = dayWindow(t().clock.now(), 7, 0).dates;
    expect(res.data.map((d) => d.date)).toEqual(dates);
    // The test clock stands at 09:00 UTC: "20 h ago" and "24 h + 1 s ago" fall on yesterday.
    const today = res.data[6];
    const yesterday = res.data[5];
    expect(today.delivered + yesterday.delivered).toBe(4 + 1);
    expect(today.failed + yesterday.failed).toBe(1);
    expect(res.data[4]).toMatchObject({ delivered: 1, failed: 1 });
    expect(res.data.slice(0, 4).every((d) => d.delivered === 0 && d.failed === 0)).toBe(true);
  });
});
