import { describe, expect, it } from 'vitest';
import { buildProduct, buildShop, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import * as repo from './repository';

// The scheduler's statements per batch (docs/SCHEDULE.md "A statement per batch"): each stays
// conditional on every row's rev, state and station, as the single-row moves were.

describe.each(await testDatabases())('timed labels moved a batch at a time ($name)', (target) => {
  const t = useApp(target);

  let shops = 0;
  async function setup() {
    const app = t().app;
    const world = await buildShop(app);
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const db = app.services.db;
    const tags = await insertBoundTags(db, at, 4, {
      hwPrefix: `SCHEDBATCH${++shops}x`,
      priceCents: (i) => 100 + i,
      now: 1,
    });
    const rows = await db
      .selectFrom('tags')
      .select('id')
      .where(
        'hardware_id',
        'in',
        tags.map((x) => x.hw),
      )
      .orderBy('id')
      .execute();
    const label = (id: number, i: number, state: 'queued' | 'failed' = 'queued'): repo.PlannedLabel => ({
      tag: { id, ...at },
      planKey: `k${i}`,
      showAt: 10_000 + i,
      hash: state === 'queued' ? `h${i}` : '',
      size: state === 'queued' ? 8 : 0,
      state,
      renderKey: state === 'queued' ? `r${i}` : null,
    });
    return { db, ids: rows.map((r) => r.id), label };
  }
  const byTag = async (db: Awaited<ReturnType<typeof setup>>['db'], tagIds: number[]) =>
    new Map((await repo.labelsOfTags(db, tagIds)).map((r) => [r.tag_id, r]));

  it('writes a batch of plans: new rows at rev 1, planned again at rev + 1, failed ones as failed', async () => {
    const { db, ids, label } = await setup();
    await repo.plannedMany(
      db,
      ids.slice(0, 3).map((id, i) => label(id, i)),
      5,
    );
    let rows = await byTag(db, ids);
    expect([...rows.values()].map((r) => [r.rev, r.state, r.hash, Number(r.show_at)])).toEqual([
      [1, 'queued', 'h0', 10_000],
      [1, 'queued', 'h1', 10_001],
      [1, 'queued', 'h2', 10_002],
    ]);
    const first = rows.get(ids[0] as number);
    await repo.moveMany(db, [[first?.id as number, 1]], ['queued'], { state: 'sent', attempt: 2, now: 6 });
    await repo.plannedMany(db, [label(ids[0] as number, 7), label(ids[3] as number, 3, 'failed')], 7);
    rows = await byTag(db, ids);
    const again = rows.get(ids[0] as number);
    expect([again?.id, again?.rev, again?.state, again?.plan_key, again?.hash, again?.attempt]).toEqual([
      first?.id,
      2,
      'queued',
      'k7',
      'h7',
      0,
    ]);
    expect([rows.get(ids[3] as number)?.rev, rows.get(ids[3] as number)?.state]).toEqual([1, 'failed']);
    await repo.idleMany(db, [again?.id as number], 8);
    expect((await byTag(db, [ids[0] as number])).get(ids[0] as number)).toMatchObject({ state: 'idle', rev: 3 });
  });

  it('sends, acknowledges and settles only the rows at the rev and state (and station) given', async () => {
    const { db, ids, label } = await setup();
    await repo.plannedMany(
      db,
      ids.map((id, i) => label(id, i)),
      5,
    );
    const [a, b, c, d] = ids.map((id) => id);
    let rows = await byTag(db, ids);
    const row = (tag: number | undefined) => rows.get(tag as number) as repo.TimedRow;
    // d was planned again meanwhile: its old rev is stale and does not go out.
    await repo.plannedMany(db, [label(d as number, 9)], 6);
    const sent = await repo.sendMany(
      db,
      [a, b, c, d].map((x) => [row(x).id, row(x).rev] as const),
      77,
      20_000,
      7,
    );
    expect(sent.map((r) => [r.id, r.rev, r.attempt, r.hash]).sort()).toEqual(
      [a, b, c].map((x) => [row(x).id, 1, 1, row(x).hash]).sort(),
    );
    rows = await byTag(db, ids);
    expect([a, b, c, d].map((x) => [row(x).state, row(x).station_id, row(x).sent_rev])).toEqual([
      ['sent', 77, 1],
      ['sent', 77, 1],
      ['sent', 77, 1],
      ['queued', null, null],
    ]);
    // Sent again at the same rev: nothing moves (it is not queued).
    expect(await repo.sendMany(db, [[row(a).id, 1]], 77, 20_000, 8)).toEqual([]);
    // Another station's ack changes nothing; the station's own sets the result's deadline.
    await repo.ackedMany(db, [[row(a).id, 1]], 78, 9);
    expect(Number((await byTag(db, [a as number])).get(a as number)?.due_at)).toBe(20_000);
    await repo.ackedMany(
      db,
      [
        [row(a).id, 1],
        [row(b).id, 2],
      ],
      77,
      9,
    );
    rows = await byTag(db, ids);
    expect([Number(row(a).due_at), Number(row(b).due_at)]).toEqual([10_000 + 60_000, 20_000]);
    // Results: held at their rev, from this station only.
    expect(
      await repo.moveMany(
        db,
        [
          [row(a).id, 1],
          [row(b).id, 1],
        ],
        ['sent', 'held'],
        { state: 'held', now: 10 },
        78,
      ),
    ).toBe(0);
    expect(
      await repo.moveMany(
        db,
        [
          [row(a).id, 1],
          [row(b).id, 1],
          [row(c).id, 5],
        ],
        ['sent', 'held'],
        { state: 'held', now: 10 },
        77,
      ),
    ).toBe(2);
    rows = await byTag(db, ids);
    expect([a, b, c].map((x) => row(x).state)).toEqual(['held', 'held', 'sent']);
  });

  it('takes the planner’s unplanned products a store at a time, whatever their ids', async () => {
    const { app } = t();
    const world = await buildShop(app);
    const db = app.services.db;
    const stores = [world.store.id, world.otherStore.id];
    // Product ids alternate between the two stores, as a chain's products created barcode by barcode.
    const products: Array<{ id: number; store: number }> = [];
    for (let i = 0; i < 60; i++)
      for (const store of stores) {
        const row = await buildProduct(
          app,
          { tenantId: world.tenant.id, storeId: store },
          { barcode: `UNPLANNED${i}` },
        );
        products.push({ id: row.id, store });
      }
    await db
      .insertInto('scheduled_changes')
      .values(
        products.map((p) => ({
          tenant_id: world.tenant.id,
          store_id: p.store,
          product_id: p.id,
          changes: '{"price":"2.00"}',
          effective_at: 10_000,
          status: 'pending',
          note: '',
          batch: 'store-order',
          created_by: null,
          created_at: 1,
          updated_at: 1,
        })),
      )
      .execute();
    const storeOf = new Map(products.map((p) => [p.id, p.store]));
    const batch = await repo.unplannedProducts(db, 100);
    expect(batch.map((id) => storeOf.get(id))).toEqual([
      ...Array(60).fill(Math.min(...stores)),
      ...Array(40).fill(Math.max(...stores)),
    ]);
  });
});
