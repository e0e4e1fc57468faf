import type { AddStationData, Problem, ProblemsChainRow, ProblemsSummary } from '@esl/contract';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useStore } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { type Shop, simulatedShops } from '../test/simulated-shop';

// Problems to act on (issue 29 item 4, docs/PROBLEMS.md) on the real server and simulated
// stations and tags: each kind raised by its cause and cleared when the cause goes — a station
// killed, a tag's battery reported low, a product deleted under a bound tag, a tag carried to
// another store's station — with the `problem.started` and `problem.ended` callback events the
// sweep writes (the delivery timer runs it every minute of the shared virtual clock).

describe.each(await testDatabases())('problems to act on, on simulated tags ($name)', (db) => {
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 1000, tickMs: 0 },
  });
  const { call, until, advance, shop, stop } = simulatedShops(t);
  let other: Simulator | undefined;
  const stopAll = async () => {
    await other?.stop();
    other = undefined;
    await stop();
  };
  afterEach(stopAll);
  afterAll(stopAll);

  // A receiver URL is enough for the events to be written to the outbox (nothing is sent: tickMs 0).
  const url = 'http://127.0.0.1:9/cb';
  // The events of one store of the kinds a step is about (the app and its database serve every test here).
  const KINDS = ['lowBattery', 'misused', 'stationOffline'];
  let storeId = 0;
  const events = async (type: 'problem.started' | 'problem.ended') =>
    (
      await t()
        .app.services.db.selectFrom('callback_outbox')
        .select(['payload'])
        .where('type', '=', type)
        .where('store_id', '=', storeId)
        .orderBy('id')
        .execute()
    )
      .map((r) => JSON.parse(r.payload).data as Record<string, unknown>)
      .filter((e) => KINDS.includes(String(e.kind)));
  const list = (s: Shop, kind?: string) =>
    call<Problem[]>('/mgr/problems/list', { limit: 200, ...(kind ? { kind } : {}) }, s.token);
  const counts = async (s: Shop) => (await call<ProblemsSummary>('/mgr/problems/summary', {}, s.token)).counts;

  it('raises and clears station offline, low battery and a deleted product (misused), with start and end events', async () => {
    const s = await shop({ tags: 3, sn: 'PRB-A' });
    storeId = s.storeId;
    const [low, gone, spare] = s.tags;
    if (!low || !gone || !spare) throw new Error('tags');
    await call('/user/setcallback', { url }, s.token);
    await call('/mgr/tag/flashallesl', {}, s.token);
    await until(s, 'labels confirmed', async () => (await list(s)).length === 0, 400_000, 2000);
    await advance(s, 61_000, 10_000, true);
    expect(await events('problem.started')).toEqual([]);

    // A tag reports a low battery: listed with its percentage; the sweep tells the start.
    s.sim.tag(low.hw).battMv = 2300;
    await until(s, 'low battery listed', async () => (await counts(s)).lowBattery === 1);
    expect(await list(s, 'lowBattery')).toEqual([
      expect.objectContaining({ kind: 'lowBattery', subject: 'tag', id: low.id, code: low.hw, detail: '13' }),
    ]);
    await advance(s, 61_000, 10_000, true);
    expect(await events('problem.started')).toEqual([
      expect.objectContaining({ kind: 'lowBattery', subject: 'tag', id: low.id, code: low.hw, storeId: s.storeId }),
    ]);
    // A new cell: cleared, and the end told once.
    s.sim.tag(low.hw).battMv = 2950;
    await until(s, 'battery fine', async () => (await counts(s)).lowBattery === 0);
    await advance(s, 61_000, 10_000, true);
    await advance(s, 61_000, 10_000, true);
    const endedBattery = await events('problem.ended');
    expect(endedBattery).toEqual([expect.objectContaining({ kind: 'lowBattery', id: low.id, code: low.hw })]);
    expect(endedBattery[0]?.endedAt).toBeGreaterThan(Number(endedBattery[0]?.startedAt));

    // The product under a bound tag is deleted: the tag is misused (its product is gone). (Its
    // unbound label has no template in this store: that shows as an update failed, beside.)
    await call('/mgr/product/delete', { ids: [gone.productId] }, s.token);
    expect(await list(s, 'misused')).toEqual([
      expect.objectContaining({ kind: 'misused', id: gone.id, detail: 'productGone', since: t().clock.now() }),
    ]);
    await advance(s, 61_000, 10_000, true);
    expect((await events('problem.started')).map((e) => [e.kind, e.id, e.detail])).toEqual([
      ['lowBattery', low.id, '13'],
      ['misused', gone.id, 'productGone'],
    ]);
    // Bound to another product: no longer misused.
    await call('/mgr/tag/bindesl', { hardwareId: gone.hw, barcode: spare.barcode }, s.token);
    expect(await list(s, 'misused')).toEqual([]);
    await advance(s, 61_000, 10_000, true);
    expect((await events('problem.ended')).map((e) => [e.kind, e.id])).toEqual([
      ['lowBattery', low.id],
      ['misused', gone.id],
    ]);

    // The station is killed: station offline; back: cleared. Start and end told.
    await s.sim.station('PRB-A').disconnect({ abrupt: true });
    await until(s, 'station offline listed', async () => (await counts(s)).stationOffline === 1);
    expect(await list(s, 'stationOffline')).toEqual([
      expect.objectContaining({ kind: 'stationOffline', subject: 'station', id: s.stations[0]?.id, code: 'PRB-A' }),
    ]);
    await advance(s, 61_000, 10_000, true);
    expect((await events('problem.started')).at(-1)).toMatchObject({
      kind: 'stationOffline',
      subject: 'station',
      code: 'PRB-A',
    });
    await s.sim.station('PRB-A').reconnect();
    await until(s, 'station back', async () => (await counts(s)).stationOffline === 0);
    await advance(s, 61_000, 10_000, true);
    expect((await events('problem.ended')).at(-1)).toMatchObject({ kind: 'stationOffline', code: 'PRB-A' });
    expect(await events('problem.started')).toHaveLength(3);
    expect(await events('problem.ended')).toHaveLength(3);

    // The chain summary counts per store the caller sees; the other store has none.
    const chain = await call<ProblemsChainRow[]>('/mgr/problems/chain', {}, s.token);
    expect(chain.length).toBeGreaterThanOrEqual(2);
    expect(chain.find((r) => r.storeId === s.storeId)?.total).toBe((await list(s)).length);
  }, 600_000);

  it("lists a tag carried to another store's station as misused (heard in the wrong store) until it is back", async () => {
    const s = await shop({ tags: 2, sn: 'PRB-W' });
    storeId = s.storeId;
    const [moved] = s.tags;
    if (!moved) throw new Error('tags');
    await call('/user/setcallback', { url }, s.token);
    const app = t();
    // The tenant's other store gets a station of its own, simulated beside the first.
    const otherStore = await app.app.services.db
      .selectFrom('stores')
      .select(['id', 'name'])
      .where('tenant_id', '=', s.tenantId)
      .where('id', '<>', s.storeId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await useStore(app.app, s.token, otherStore.id);
    const st = await call<AddStationData>('/mgr/ap/add', { sn: 'PRB-X' }, s.token);
    await useStore(app.app, s.token, s.storeId);
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    other = await startSimulator({
      url: delivery.url,
      stations: [{ tenantId: s.tenantId, sn: 'PRB-X', secret: st.secret, tags: [] }],
      speed: 0,
      seed: 'PRB-X',
      start: app.clock.now(),
    });
    const sim2 = other;
    await sim2.waitFor(() => sim2.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    const both = async (ms: number) => {
      await sim2.clock.advance(ms);
    };
    await until(
      s,
      'no problems',
      async () => (await list(s)).length === 0,
      200_000,
      2000,
      () => both(2000),
    );

    // Carried away: heard only by the other store's station.
    s.sim.station('PRB-W').removeTag(moved.hw);
    sim2.station('PRB-X').addTag({ id: moved.hw, hw: '05', wakeS: 40, x: 2, y: 1 });
    await until(
      s,
      'heard in the wrong store',
      async () => (await list(s, 'misused')).length === 1,
      200_000,
      2000,
      () => both(2000),
    );
    expect(await list(s, 'misused')).toEqual([
      expect.objectContaining({ id: moved.id, detail: 'wrongStore', otherStore: otherStore.name }),
    ]);
    await advance(s, 61_000, 10_000, true);
    await both(61_000);
    expect((await events('problem.started')).filter((e) => e.kind === 'misused')).toEqual([
      expect.objectContaining({ id: moved.id, detail: 'wrongStore' }),
    ]);

    // Back on its shelf: heard at home again, no longer misused; the end is told.
    sim2.station('PRB-X').removeTag(moved.hw);
    s.sim.station('PRB-W').addTag({ id: moved.hw, hw: '05', wakeS: 40, x: 2, y: 1 });
    await until(
      s,
      'home again',
      async () => (await list(s, 'misused')).length === 0,
      200_000,
      2000,
      () => both(2000),
    );
    await advance(s, 61_000, 10_000, true);
    expect((await events('problem.ended')).filter((e) => e.kind === 'misused')).toEqual([
      expect.objectContaining({ id: moved.id, detail: 'wrongStore' }),
    ]);
  }, 600_000);
});
