import type { AddStationData, Station } from '@esl/contract';
import { DEFAULTS } from '@esl/contract/protocol';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimLease } from '../../infra/cluster/repository';
import { buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { createGateway } from './gateway';

// `down/time` (docs/PROTOCOL.md §5.8): the sweeper tells every online station the server's clock
// every 600 s, and the simulated station corrects its idea of server time by it. Both clocks are
// moved by hand (the server's TestClock, the simulator's manual clock): nothing waits 600 s.

const MINUTE = 60_000;

describe.each(await testDatabases())('down/time on $name', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });
  const delivery = () => {
    const d = t().app.delivery;
    if (!d) throw new Error('no delivery');
    return d;
  };

  /** Two stations of a new shop, simulated on a manual clock that starts at the server's time. */
  async function simulatedShop(seed: string) {
    const shop = await buildShop(t().app);
    const added: AddStationData[] = [];
    for (const sn of [`${seed}-A`, `${seed}-B`]) {
      const r = await t().call<AddStationData>('/mgr/ap/add', { sn }, { token: shop.tokens.admin });
      expect(r.code, r.msg).toBe(0);
      added.push(r.data);
    }
    sim = await startSimulator({
      url: delivery().url,
      stations: added.map((s) => ({ tenantId: shop.tenant.id, sn: s.sn, secret: s.secret })),
      speed: 0,
      seed,
      start: t().clock.now(),
    });
    const s = sim;
    await s.waitFor(() => s.stations.every((x) => x.isWelcomed), { what: 'welcome' });
    return { shop, sim: s, added };
  }

  it('every online station gets down/time each 600 s; the simulator corrects its clock by it', async () => {
    const { shop, sim, added } = await simulatedShop('TIME');
    const [a, b] = sim.stations;
    // The welcome carried the server's clock: the stations' idea of server time is right.
    for (const s of sim.stations) expect(s.serverNow()).toBe(t().clock.now());
    // Station A's own clock jumps 45 s ahead (a real-time clock reset badly): until the server
    // tells it the time again, what it stamps in server time is 45 s off.
    a.setClockSkew(45_000);
    expect(a.serverNow() - t().clock.now()).toBe(45_000);

    const heartbeatAt = async () =>
      (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token: shop.tokens.admin })).data.map(
        (s) => s.lastHeartbeat,
      );
    // Ten minutes in steps of one heartbeat: the server's clock first, so each heartbeat is
    // handled at the time it was sent; then the sweeper.
    for (let minute = 1; minute <= DEFAULTS.timeS / 60; minute++) {
      expect(a.stats.received.time ?? 0, `minute ${minute}`).toBe(0);
      t().clock.advance(MINUTE);
      await sim.clock.advance(MINUTE);
      await vi.waitFor(async () => {
        await delivery().gateway.idle();
        expect(await heartbeatAt()).toEqual(added.map(() => t().clock.now()));
      });
      await delivery().gateway.tick();
    }
    // 600 s after the welcome: both stations were told the time, once; A's clock is corrected.
    await sim.waitFor(() => sim.stations.every((s) => s.stats.received.time === 1), { what: 'down/time' });
    expect(a.serverNow()).toBe(t().clock.now());
    expect(b.serverNow()).toBe(t().clock.now());
    expect(a.offsetMs).toBe(-45_000);
    // Its own clock is still off, and the server still sees that in its heartbeats (uncorrected).
    const rows = (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token: shop.tokens.admin })).data;
    expect(rows.find((r) => r.sn === a.key.sn)?.clockSkewMs).toBe(45_000);
    expect(rows.find((r) => r.sn === b.key.sn)?.clockSkewMs).toBe(0);

    // Not again before another 600 s.
    for (let i = 0; i < 5; i++) {
      t().clock.advance(MINUTE);
      await sim.clock.advance(MINUTE);
      await vi.waitFor(async () => {
        await delivery().gateway.idle();
        expect(await heartbeatAt()).toEqual(added.map(() => t().clock.now()));
      });
      await delivery().gateway.tick();
    }
    expect(sim.stations.map((s) => s.stats.received.time)).toEqual([1, 1]);
  });

  it('with several server processes each station hears the time from the sweeper lease’s holder only', async () => {
    const { shop, sim } = await simulatedShop('LEASE');
    const d = delivery();
    const services = t().app.services;
    const now = t().clock.now;
    // Two more "processes" on the same database and broker, the sweeper lease deciding between
    // them as in wiring.ts (cluster/leases.ts: renewed by its holder at every sweep, here 8 s).
    const gateway = (owner: string) =>
      createGateway({
        db: services.db,
        port: d.port,
        link: d.link,
        notices: services.notices,
        now,
        syslog: () => {},
        claimTimeSync: () => claimLease(services.db, 'sweeper', owner, now(), 8000),
      });
    const one = gateway('srv-one');
    const two = gateway('srv-two');
    const times = () => sim.stations.map((s) => s.stats.received.time ?? 0);
    // The stations' heartbeats of a step are handled before the sweepers run, as they are when
    // time passes for real: otherwise a sweeper finds a station silent for three intervals, marks
    // it offline, and tells it the time again when it is back (seen on a fast run of this loop).
    const heard = async () => {
      const rows = (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token: shop.tokens.admin })).data;
      return rows.every((r) => r.online && r.lastHeartbeat !== null && now() - r.lastHeartbeat < MINUTE);
    };
    const step = async (ms: number, who: Array<typeof one>) => {
      t().clock.advance(ms);
      await sim.clock.advance(ms);
      await vi.waitFor(async () => {
        await d.gateway.idle();
        expect(await heard()).toBe(true);
      });
      for (const g of who) await g.tick();
    };
    try {
      // A sweeper lease the app's own gateway took in an earlier test (PostgreSQL) runs out first.
      await step(MINUTE, []);
      // Neither has told these stations the time yet: the holder tells each at once, the other
      // none.
      await step(5000, [one, two]);
      await sim.waitFor(() => times().every((n) => n === 1), { what: 'the first down/time' });
      await step(5000, [one, two]);
      await new Promise((r) => setTimeout(r, 100));
      expect(times()).toEqual([1, 1]);
      // The holder stops (its lease runs out): the other takes over and, knowing nothing of what
      // was sent, tells every station at once.
      await step(10_000, [two]);
      await sim.waitFor(() => times().every((n) => n === 2), { what: 'down/time from the new holder' });
      // From then on every 600 s, from that process only.
      for (let s = 0; s < DEFAULTS.timeS - 5; s += 5) await step(5000, [one, two]);
      expect(times()).toEqual([2, 2]);
      await step(5000, [one, two]);
      await sim.waitFor(() => times().every((n) => n === 3), { what: 'the next down/time' });
    } finally {
      await one.close();
      await two.close();
    }
  });
});
