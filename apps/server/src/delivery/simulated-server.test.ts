import type { AddStationData, Station, Tag } from '@esl/contract';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildShop, buildTag } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';

// The simulator driving the real server: stations provisioned through /mgr/ap/add as a user
// would, tags registered in the store; the console's calls show what the stations reported.

describe.each(await testDatabases())('simulated stations on the real server ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterAll(async () => {
    await sim?.stop();
  });

  it('connect with their issued secrets, report figures and tags; an abrupt loss goes offline', async () => {
    const { tokens, tenant, store } = await buildShop(t().app);
    const token = tokens.admin;
    const stations: AddStationData[] = [];
    for (const sn of ['SIM-A', 'SIM-B']) {
      const added = await t().call<AddStationData>('/mgr/ap/add', { sn }, { token });
      expect(added.code, added.msg).toBe(0);
      stations.push(added.data);
    }
    const tags = await Promise.all(
      [0, 1, 2, 3].map(() => buildTag(t().app, { tenantId: tenant.id, storeId: store.id })),
    );
    const delivery = t().app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: stations.map((s, i) => ({
        tenantId: tenant.id,
        sn: s.sn,
        secret: s.secret,
        tags: tags.slice(i * 2, i * 2 + 2).map((tag) => ({ id: tag.hardware_id, hw: '05', wakeS: 40 })),
      })),
      speed: 0,
      seed: 'server',
      start: t().clock.now(),
    });
    await sim.waitFor(() => sim?.stations.every((s) => s.isWelcomed) ?? false, { what: 'welcome' });
    const list = async () => (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token })).data;
    expect((await list()).map((s) => [s.sn, s.online, s.firmware])).toEqual([
      ['SIM-B', true, '1.0.0-sim'],
      ['SIM-A', true, '1.0.0-sim'],
    ]);

    await sim.clock.advance(60_000);
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      const rows = await list();
      expect(rows.every((s) => s.cpu !== null && s.uptimeS === 60 && s.tagsHeard === 2)).toBe(true);
    });
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      const rows = (await t().call<Tag[]>('/mgr/tag/list', {}, { token })).data;
      for (const row of rows) {
        expect(row.stationSn).toMatch(/^SIM-[AB]$/);
        expect(row.signal).toBeLessThan(-30);
        expect(row.battery).toBeGreaterThan(0);
        expect(row.temperature).not.toBeNull();
        expect(row.status).toBe('normal');
      }
    });

    await sim.station('SIM-A').disconnect({ abrupt: true });
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect((await list()).find((s) => s.sn === 'SIM-A')?.online).toBe(false);
    });
    expect((await list()).find((s) => s.sn === 'SIM-B')?.online).toBe(true);
    await sim.station('SIM-A').reconnect();
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect((await list()).find((s) => s.sn === 'SIM-A')?.online).toBe(true);
    });
  });
});
