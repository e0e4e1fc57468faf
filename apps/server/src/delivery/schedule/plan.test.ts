import { priceLabel } from '@esl/labels/testing';
import { describe, expect, it } from 'vitest';
import type { RenderJob, RenderOutcome } from '../../infra/render';
import { upsertLearned } from '../../modules/models/repository';
import { buildShop, buildTag, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { LEARNED_MODEL } from '../../test/models';
import type { StationLink } from '../link/station-link';
import { createScheduleEngine } from './engine';
import { PLAN_PRODUCTS, type PlanDeps, planTags, SWEEP_LABELS, SWEEP_PRODUCTS, type SweepCursor } from './plan';

// The planner in batches (docs/SCHEDULE.md "Planning in batches"): a pass plans at most
// PLAN_PRODUCTS products, whatever the number of pending changes; more pending changes than a
// batch are all planned, none twice, also when the process stops between passes and a new one
// (with nothing in memory) goes on; an edit is planned again, and changes a process took but did
// not plan (it stopped mid-pass) are found by the sweep.

describe.each(await testDatabases())('the schedule planner in batches ($name)', (target) => {
  const t = useApp(target);

  /** A render that counts the labels it was asked for, per tag, and draws nothing. */
  function deps(renders: Map<number, number>, counters = { applied: 0, planned: 0 }): PlanDeps {
    return {
      db: t().app.services.db,
      now: t().clock.now,
      render: async (jobs: RenderJob[]): Promise<RenderOutcome[]> =>
        jobs.map((j): RenderOutcome => {
          renders.set(j.tagId, (renders.get(j.tagId) ?? 0) + 1);
          const hash = `${String(j.tagId).padStart(8, '0')}${String(j.data.price)}`.padEnd(64, '0');
          return {
            tagId: j.tagId,
            hash,
            ver: hash.slice(0, 16),
            bytes: new Uint8Array(8),
            width: 250,
            height: 122,
            colour: 'bwr',
            size: 8,
            problems: [],
          };
        }),
      storeImages: async () => {},
      withdraw: async () => {},
      counters,
    };
  }

  async function setup(products: number) {
    const app = t().app;
    const world = await buildShop(app);
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const token = world.tokens.admin;
    const ok = async <T>(path: string, body: object) => {
      const res = await t().call<T>(path, body, { token });
      expect(res.code, res.msg).toBe(0);
      return res.data as T;
    };
    const template = await ok<{ id: number }>('/mgr/templ/addtemple', { name: 'plan', model: '05' });
    await ok('/mgr/templ/alerttempData', {
      id: template.id,
      doc: priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' }),
    });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const now = t().clock.now();
    const tags = await insertBoundTags(app.services.db, at, products, {
      hwPrefix: `P${world.store.id}`,
      priceCents: (i) => 100 + i,
      now,
    });
    const T = now + 3600_000;
    const ids = await app.services.db
      .insertInto('scheduled_changes')
      .values(
        tags.map((x, i) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          product_id: x.productId,
          changes: JSON.stringify({ price: `${(5 + i / 100).toFixed(2)}` }),
          effective_at: T,
          status: 'pending',
          note: '',
          batch: 'plan-test',
          created_by: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    return { at, tags, T, ids: ids.map((r) => r.id), token };
  }

  const labelsOf = (storeId: number) =>
    t()
      .app.services.db.selectFrom('timed_labels')
      .select(['tag_id', 'rev', 'state', 'show_at'])
      .where('store_id', '=', storeId)
      .orderBy('tag_id')
      .execute();

  it('draws a timed label as the render stage will: a learned model at its panel, with the key it will have', async () => {
    const { at, tags, token } = await setup(1);
    const productId = tags[0]?.productId as number;
    const db = t().app.services.db;
    const station = await t().call<{ sn: string }>('/mgr/ap/add', { sn: 'PLAN-LEARN' }, { token });
    const { id: stationId } = await db
      .selectFrom('stations')
      .select('id')
      .where('sn', '=', station.data?.sn as string)
      .executeTakeFirstOrThrow();
    await upsertLearned(db, at.tenantId, stationId, [LEARNED_MODEL], t().clock.now());
    const learned = await buildTag(t().app, at, { model: LEARNED_MODEL.key, productId });
    const lite = await t().call<{ id: number }>(
      '/mgr/templ/addtemple',
      { name: 'lite', width: 232, length: 104, colourType: 'bwr' },
      { token },
    );
    const set = await t().call('/mgr/tag/settemplate', { ids: [learned.id], templateId: lite.data?.id }, { token });
    expect(set.code, set.msg).toBe(0);
    const jobs: RenderJob[] = [];
    const d = deps(new Map());
    const render = d.render;
    d.render = (list) => {
      jobs.push(...list);
      return render(list);
    };
    while (await planTags(d, { product: 0, label: 0 }));
    // The catalogue tag and the learned one: two pictures, the learned one with its panel.
    expect(jobs.map((j) => [j.model, j.panel ?? null])).toEqual([
      ['05', null],
      ['oepl-35', { w: 232, h: 104, wext: expect.any(Number), hexit: expect.any(Number) }],
    ]);
    const rows = await db
      .selectFrom('timed_labels')
      .select(['tag_id', 'state', 'render_key'])
      .where('store_id', '=', at.storeId)
      .orderBy('tag_id')
      .execute();
    expect(rows.map((r) => r.state)).toEqual(['queued', 'queued']);
    // Each with the render key its label will have after the change: two models, two keys.
    expect(rows.every((r) => /^[0-9a-f]{32}$/.test(r.render_key ?? ''))).toBe(true);
    expect(new Set(rows.map((r) => r.render_key)).size).toBe(2);
  });

  it('draws a product’s picture once for all its tags of one model', async () => {
    const { at, tags } = await setup(3);
    const shared = tags[0]?.productId as number;
    const extra = [
      await buildTag(t().app, at, { productId: shared }),
      await buildTag(t().app, at, { productId: shared }),
    ];
    const renders = new Map<number, number>();
    const cursor: SweepCursor = { product: 0, label: 0 };
    while (await planTags(deps(renders), cursor));
    // Three pictures drawn (one a product), five tags planned; the extra tags take the first's.
    expect(renders.size).toBe(3);
    for (const x of extra) expect(renders.has(x.id)).toBe(false);
    const rows = await t()
      .app.services.db.selectFrom('timed_labels as l')
      .innerJoin('tags as g', 'g.id', 'l.tag_id')
      .select(['l.tag_id', 'l.hash', 'l.state', 'g.product_id'])
      .where('l.store_id', '=', at.storeId)
      .execute();
    expect(rows).toHaveLength(5);
    const ofShared = rows.filter((r) => r.product_id === shared);
    expect(ofShared).toHaveLength(3);
    expect(new Set(ofShared.map((r) => r.hash)).size).toBe(1);
    expect(ofShared.every((r) => r.state === 'queued' && (r.hash ?? '').length === 64)).toBe(true);
  });

  it('plans more pending changes than a batch in bounded passes, each once, across a restart', async () => {
    const n = Math.round(PLAN_PRODUCTS * 2.5);
    const { at, tags, T, ids, token } = await setup(n);
    const renders = new Map<number, number>();

    // The first process: one pass plans one batch, no more.
    const first = deps(renders);
    expect(await planTags(first, { product: 0, label: 0 })).toBe(true);
    expect(renders.size).toBe(PLAN_PRODUCTS);
    expect(await labelsOf(at.storeId)).toHaveLength(PLAN_PRODUCTS);
    const unplanned = await t()
      .app.services.db.selectFrom('scheduled_changes')
      .select('id')
      .where('planned', '=', 0)
      .where('store_id', '=', at.storeId)
      .execute();
    expect(unplanned).toHaveLength(n - PLAN_PRODUCTS);

    // It stops; a new process (a new cursor, nothing in memory) goes on from the database.
    const second = deps(renders);
    const cursor: SweepCursor = { product: 0, label: 0 };
    let passes = 0;
    for (;;) {
      const before = renders.size;
      const more = await planTags(second, cursor);
      expect(renders.size - before).toBeLessThanOrEqual(PLAN_PRODUCTS);
      passes++;
      if (!more) break;
      expect(passes).toBeLessThan(20);
    }
    // Every tag planned, exactly once: one render each, rev 1, queued for T.
    expect(renders.size).toBe(n);
    expect([...renders.values()].every((c) => c === 1)).toBe(true);
    const rows = await labelsOf(at.storeId);
    expect(rows).toHaveLength(n);
    for (const r of rows) expect(r).toMatchObject({ rev: 1, state: 'queued', show_at: T });
    // Nothing left: a further pass (the sweep) renders nothing.
    expect(await planTags(second, cursor)).toBe(false);
    expect(renders.size).toBe(n);
    expect([...renders.values()].every((c) => c === 1)).toBe(true);

    // An edit (a second later) is planned again: that tag alone, rev 2.
    t().clock.advance(1000);
    await t().call('/mgr/schedule/edit', { id: ids[7], changes: { price: '8.88' } }, { token });
    expect(await planTags(second, cursor)).toBe(true);
    expect(await planTags(second, cursor)).toBe(false);
    const editedTag = rows[7]?.tag_id as number;
    expect(renders.get(editedTag)).toBe(2);
    expect([...renders].filter(([id, c]) => id !== editedTag && c !== 1)).toEqual([]);
    expect((await labelsOf(at.storeId)).find((r) => r.tag_id === editedTag)).toMatchObject({ rev: 2, state: 'queued' });

    // A change a process took (planned = 1) but stopped before planning: the sweep finds it.
    const lost = tags[n - 1] as { productId: number };
    const now = t().clock.now();
    await t()
      .app.services.db.insertInto('scheduled_changes')
      .values({
        tenant_id: at.tenantId,
        store_id: at.storeId,
        product_id: lost.productId,
        changes: JSON.stringify({ name: 'Plum, renamed' }),
        effective_at: T - 60_000,
        status: 'pending',
        note: '',
        batch: 'plan-test',
        created_by: null,
        created_at: now,
        updated_at: now,
        planned: 1,
      })
      .execute();
    const third = deps(renders);
    const fresh: SweepCursor = { product: 0, label: 0 };
    // A whole round of the sweep (its passes look at SWEEP_PRODUCTS products and SWEEP_LABELS labels each).
    for (let i = 0; i <= Math.ceil(n / Math.min(SWEEP_PRODUCTS, SWEEP_LABELS)); i++) await planTags(third, fresh);
    const lostTag = rows[n - 1]?.tag_id as number;
    expect(renders.get(lostTag)).toBe(2);
    expect(renders.size).toBe(n);
    expect([...renders].filter(([id, c]) => id !== editedTag && id !== lostTag && c !== 1)).toEqual([]);
  });

  it('answers a tick after its own pass and goes on by itself until all is planned', async () => {
    const n = Math.round(PLAN_PRODUCTS * 2.5);
    const { at } = await setup(n);
    const renders = new Map<number, number>();
    const d = deps(renders);
    const link = { send: async () => {}, sendBlobChunk: async () => {} } as unknown as StationLink;
    const engine = createScheduleEngine({
      db: d.db,
      link,
      now: d.now,
      render: d.render,
      storeImages: async () => {},
      loadImage: async () => null,
    });
    try {
      await engine.tick();
      // One pass, one batch; the next passes follow by themselves (read before they can start).
      expect(engine.counters.planned).toBe(PLAN_PRODUCTS);
      await engine.idle();
      expect(engine.counters.planned).toBe(n);
      expect(await labelsOf(at.storeId)).toHaveLength(n);
      const mine = (await labelsOf(at.storeId)).map((r) => r.tag_id);
      expect(mine.every((id) => renders.get(id) === 1)).toBe(true);
    } finally {
      engine.close();
    }
  });
});
