import type { Problem, ProblemsChainRow, ProblemsSummary } from '@esl/contract';
import ExcelJS from 'exceljs';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { clearRebound, clearReboundQuery } from './repository';
import { watchProblems } from './watch';

// Problems to act on (docs/PROBLEMS.md) over rows set up directly: the kinds read from tags, who
// sees them (the current store only; the chain: an administrator every store, others their own),
// another tenant never, and the XLSX export in both languages. The causes on the real server and
// simulator: delivery/simulated-problems.test.ts.

/** A whole sweep, in as many steps as it takes. */
async function sweepAll(db: Parameters<typeof watchProblems>[0], now: number) {
  let from: number | null = 0;
  while (from !== null) from = (await watchProblems(db, null, now, { from })).next;
}

describe.each(await testDatabases())('problems to act on ($name)', (db) => {
  const t = useApp(db);

  const set = (id: number, values: Record<string, unknown>) =>
    t().app.services.db.updateTable('tags').set(values).where('id', '=', id).execute();

  async function seed() {
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const now = t().clock.now();
    const apple = await buildProduct(t().app, at, { name: 'Apple' });
    const low = await buildTag(t().app, at, { model: '05', productId: apple.id });
    const weak = await buildTag(t().app, at, { model: '05', productId: apple.id });
    const gone = await buildTag(t().app, at, { model: '05', productId: null });
    await set(low.id, { battery: 12, status: 'normal', last_seen: now });
    await set(weak.id, { signal: -90, status: 'offline', last_seen: now - 3_600_000 });
    await set(gone.id, { product_gone_at: now - 1000 });
    // The other store: one offline label; another tenant: a low battery never seen here.
    const other = { tenantId: shop.tenant.id, storeId: shop.otherStore.id };
    const far = await buildTag(t().app, other, { model: '05' });
    await set(far.id, { status: 'lost', last_seen: now - 1000 });
    const stranger = await buildShop(t().app);
    const foreign = await buildTag(t().app, { tenantId: stranger.tenant.id, storeId: stranger.store.id }, {});
    await set(foreign.id, { battery: 1 });
    return { shop, low, weak, gone, far };
  }

  const call = async <T>(path: string, token: string, body: object = {}) => {
    const res = await t().call<T>(path, body, { token });
    expect(res.code, `${path} ${res.msg}`).toBe(0);
    return res;
  };

  it('finds the tags marked with a deleted product by their own index, not by reading every tag', async () => {
    const { app } = t();
    const q = clearReboundQuery(app.services.db).compile();
    let plan: string;
    if (db.name === 'sqlite') {
      const r = await app.services.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
      );
      plan = r.rows.map((row) => row.detail).join(' | ');
    } else {
      // A test table is small enough for a sequential scan to be cheapest: forbid it, and see
      // which index the planner takes instead.
      plan = await app.services.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]),
        );
        return r.rows.map((row) => row['QUERY PLAN']).join(' | ');
      });
    }
    expect(plan).toMatch(/tags_product_gone/);
    // And it does its work: a rebound tag loses the mark, an unbound one keeps it.
    const { gone, low } = await seed();
    await set(low.id, { product_gone_at: 5 });
    await clearRebound(app.services.db);
    const marks = await app.services.db
      .selectFrom('tags')
      .select(['id', 'product_gone_at'])
      .where('id', 'in', [gone.id, low.id])
      .execute();
    expect(
      Object.fromEntries(marks.map((m) => [m.id, m.product_gone_at === null ? null : Number(m.product_gone_at)])),
    ).toEqual({ [low.id]: null, [gone.id]: t().clock.now() - 1000 });
  });

  it('lists the kinds of the current store only, counts them, and the chain per visible store', async () => {
    const { shop, low, weak, gone } = await seed();
    const list = await call<Problem[]>('/mgr/problems/list', shop.tokens.clerk, { limit: 50 });
    expect(list.data.map((p) => [p.kind, p.id, p.detail])).toEqual([
      ['labelOffline', weak.id, 'offline'],
      ['misused', gone.id, 'productGone'],
      ['lowBattery', low.id, '12'],
    ]);
    // An offline tag's old signal is not a bad signal now.
    expect(list.count).toBe(3);
    const summary = await call<ProblemsSummary>('/mgr/problems/summary', shop.tokens.manager);
    expect(summary.data).toMatchObject({
      total: 3,
      counts: { labelOffline: 1, misused: 1, lowBattery: 1, badSignal: 0 },
    });
    const only = await call<Problem[]>('/mgr/problems/list', shop.tokens.stock, { kind: 'lowBattery' });
    expect(only.data.map((p) => p.id)).toEqual([low.id]);
    // The chain counts what the sweep recorded: nothing before it has run.
    const early = await call<ProblemsChainRow[]>('/mgr/problems/chain', shop.tokens.admin);
    expect(early.data.map((r) => r.total)).toEqual([0, 0]);
    await sweepAll(t().app.services.db, t().clock.now());
    // The administrator's chain: both stores; a store manager's: only the store assigned.
    const admin = await call<ProblemsChainRow[]>('/mgr/problems/chain', shop.tokens.admin);
    expect(admin.data.map((r) => [r.storeId, r.total])).toEqual([
      [shop.store.id, 3],
      [shop.otherStore.id, 1],
    ]);
    const manager = await call<ProblemsChainRow[]>('/mgr/problems/chain', shop.tokens.manager);
    expect(manager.data.map((r) => r.storeId)).toEqual([shop.store.id]);
  });

  it('sweeps store by store in steps, records starts and ends once, and tells a callback', async () => {
    const { shop, low, weak, gone } = await seed();
    const { db } = t().app.services;
    const tenantId = shop.tenant.id;
    await db
      .insertInto('callback_settings')
      .values({ tenant_id: tenantId, url: 'https://example.test/hook', updated_at: 0 })
      .execute();
    const recorded = () =>
      db.selectFrom('problems').select(['store_id', 'kind', 'subject']).where('tenant_id', '=', tenantId).execute();
    const events = async (type: string) =>
      (
        await db
          .selectFrom('callback_outbox')
          .select('payload')
          .where('tenant_id', '=', tenantId)
          .where('type', '=', type)
          .execute()
      ).map((r) => JSON.parse(r.payload).data as { kind: string; id: number });
    // A budget of 0: each step looks at one store and says where the next one starts.
    const now = t().clock.now();
    const steps: Array<number | null> = [];
    let from: number | null = 0;
    while (from !== null) {
      const step = await watchProblems(db, null, now, { from, budgetMs: 0, clock: () => 1 });
      steps.push(step.next);
      from = step.next;
    }
    const stores = await db.selectFrom('stores').select('id').orderBy('id').execute();
    expect(steps.length).toBe(stores.length);
    expect(steps.at(-1)).toBeNull();
    expect(
      (await recorded())
        .filter((r) => r.store_id === shop.store.id)
        .map((r) => `${r.kind}|${r.subject}`)
        .sort(),
    ).toEqual([`labelOffline|tag:${weak.id}`, `lowBattery|tag:${low.id}`, `misused|tag:${gone.id}`].sort());
    expect((await events('problem.started')).length).toBe((await recorded()).length);
    // Again: nothing new. The battery changed: that problem ends, once, with its event.
    expect(await watchProblems(db, null, now, { budgetMs: Number.POSITIVE_INFINITY })).toEqual({
      started: 0,
      ended: 0,
      next: null,
    });
    await db.updateTable('tags').set({ battery: 80 }).where('id', '=', low.id).execute();
    expect(await watchProblems(db, null, now + 60_000, { budgetMs: Number.POSITIVE_INFINITY })).toEqual({
      started: 0,
      ended: 1,
      next: null,
    });
    expect(await events('problem.ended')).toEqual([expect.objectContaining({ kind: 'lowBattery', id: low.id })]);
    expect(await watchProblems(db, null, now + 120_000, { budgetMs: Number.POSITIVE_INFINITY })).toEqual({
      started: 0,
      ended: 0,
      next: null,
    });
  });

  it("counts low battery and bad signal by the store's own thresholds (store parameters)", async () => {
    const { shop, low, weak } = await seed();
    const { db } = t().app.services;
    // The weak tag heard now at −90 dBm: bad by the default −85, not by a store's −95.
    await db
      .updateTable('tags')
      .set({ status: 'normal', last_seen: t().clock.now() })
      .where('id', '=', weak.id)
      .execute();
    const kinds = async () =>
      (await call<Problem[]>('/mgr/problems/list', shop.tokens.clerk, { limit: 50 })).data
        .filter((p) => p.id === low.id || p.id === weak.id)
        .map((p) => p.kind)
        .sort();
    expect(await kinds()).toEqual(['badSignal', 'lowBattery']);
    const read = await call<{ params: Record<string, unknown> }>('/mgr/station/getparame', shop.tokens.admin, {
      id: shop.store.id,
    });
    expect(read.data.params).toMatchObject({ lowBatteryPercent: 20, badSignalDbm: -85, pendingDeadlineMinutes: 30 });
    const saved = await t().call(
      '/mgr/station/setparame',
      { id: shop.store.id, params: { ...read.data.params, lowBatteryPercent: 10, badSignalDbm: -95 } },
      { token: shop.tokens.admin },
    );
    expect(saved.code, saved.msg).toBe(0);
    expect(await kinds()).toEqual([]);
    const summary = await call<ProblemsSummary>('/mgr/problems/summary', shop.tokens.manager);
    expect(summary.data.counts).toMatchObject({ lowBattery: 0, badSignal: 0 });
    // Out of range: refused, naming the field.
    const refused = await t().call(
      '/mgr/station/setparame',
      { id: shop.store.id, params: { ...read.data.params, badSignalDbm: 5 } },
      { token: shop.tokens.admin },
    );
    expect(refused.code).toBe(1001);
  });

  it("lists a tag showing another store's product as misused, in the list and the sweep", async () => {
    const { shop, low } = await seed();
    const { db } = t().app.services;
    const foreign = await buildProduct(t().app, { tenantId: shop.tenant.id, storeId: shop.otherStore.id }, {});
    await db.updateTable('tags').set({ product_id: foreign.id }).where('id', '=', low.id).execute();
    const list = await call<Problem[]>('/mgr/problems/list', shop.tokens.clerk, { kind: 'misused' });
    expect(list.data.filter((p) => p.id === low.id).map((p) => p.detail)).toEqual(['otherStoreProduct']);
    await sweepAll(db, t().clock.now());
    const recorded = await db
      .selectFrom('problems')
      .select('subject')
      .where('kind', '=', 'misused')
      .where('store_id', '=', shop.store.id)
      .execute();
    expect(recorded.map((r) => r.subject)).toContain(`tag:${low.id}`);
  });

  it('exports the list as XLSX in the reader’s language', async () => {
    const { shop, low } = await seed();
    const load = async (lang: 'en' | 'zh-CN') => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/mgr/problems/export',
        headers: { token: shop.tokens.clerk, 'accept-language': lang },
        payload: { kind: 'lowBattery' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/problems-\d+-\d{8}\.xlsx/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      if (!sheet) throw new Error('no sheet');
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { name: sheet.name, rows };
    };
    const en = await load('en');
    expect(en.name).toBe('Problems');
    expect(en.rows[0]?.[0]).toBe('Problem');
    expect(en.rows.slice(1).map((r) => r.slice(0, 3))).toEqual([['Low battery', 'Tag', low.hardware_id]]);
    expect(en.rows[1]?.[5]).toBe('12%');
    const zh = await load('zh-CN');
    expect(zh.name).toBe('待处理问题');
    expect(zh.rows[1]?.[0]).toBe('电量低');
  });
});
