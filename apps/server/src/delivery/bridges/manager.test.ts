import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../infra/lib/random';
import { buildShop, buildStation } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { type BridgeStart, createBridgeManager } from './manager';

// The bridge manager on its own (the bridges faked): which stations get a bridge, with what
// secret, and when they are restarted and stopped. simulated-oepl.test.ts runs real ones.

describe.each(await testDatabases())('the OEPL bridge manager ($name)', (db) => {
  const t = useApp(db);

  function rig(o: { claim?: (id: number) => Promise<boolean>; failFirst?: boolean } = {}) {
    const started: BridgeStart[] = [];
    const stopped: string[] = [];
    const issued: Array<{ sn: string; secret: string }> = [];
    const logs: string[] = [];
    const errors: unknown[] = [];
    let fail = o.failFirst ?? false;
    const manager = createBridgeManager({
      db: t().app.services.db,
      url: 'mqtt://127.0.0.1:1',
      accounts: {
        secretIssued: async (key, secret) => void issued.push({ sn: key.sn, secret }),
        removed: async () => {},
      },
      now: () => 1,
      claim: o.claim,
      reconcileMs: 0,
      start: async (s) => {
        if (fail) {
          fail = false;
          throw new Error('AP not there yet');
        }
        started.push(s);
        return { stop: async () => void stopped.push(`${s.station.sn} ${s.aps[0]}`) };
      },
      log: (line) => logs.push(line),
      onError: (err) => errors.push(err),
    });
    return { manager, started, stopped, issued, logs, errors };
  }

  async function oeplStation(apUrl: string) {
    const { tenant, store } = await buildShop(t().app);
    const row = await buildStation(t().app, { tenantId: tenant.id, storeId: store.id });
    await t()
      .app.services.db.updateTable('stations')
      .set({ kind: 'oepl', ap_url: apUrl })
      .where('id', '=', row.id)
      .execute();
    const plain = await buildStation(t().app, { tenantId: tenant.id, storeId: store.id });
    return { id: row.id, sn: row.sn, tenantId: tenant.id, plain };
  }
  const hashOf = async (id: number) =>
    (
      await t()
        .app.services.db.selectFrom('stations')
        .select('secret_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).secret_hash;

  it('runs one bridge per OEPL station with a fresh secret, restarts on a new address, stops on delete and close', async () => {
    const s = await oeplStation('http://10.1.2.3');
    const r = rig();
    await r.manager.reconcile();
    const mine = r.started.filter((x) => x.station.sn === s.sn);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      url: 'mqtt://127.0.0.1:1',
      aps: ['http://10.1.2.3'],
      station: { tenantId: s.tenantId },
    });
    // Only OEPL stations; the secret's hash is stored, the broker told, the secret never logged.
    expect(r.started.some((x) => x.station.sn === s.plain.sn)).toBe(false);
    const first = mine[0]?.station.secret ?? '';
    expect(first).toMatch(/^[0-9a-f]{48}$/);
    expect(await hashOf(s.id)).toBe(sha256Hex(first));
    expect(r.issued).toContainEqual({ sn: s.sn, secret: first });
    expect(r.logs.join('\n')).not.toContain(first);
    // Nothing changed: nothing restarted.
    await r.manager.reconcile();
    expect(r.started.filter((x) => x.station.sn === s.sn)).toHaveLength(1);

    await t()
      .app.services.db.updateTable('stations')
      .set({ ap_url: 'http://10.1.2.4' })
      .where('id', '=', s.id)
      .execute();
    await r.manager.reconcile();
    expect(r.stopped).toContain(`${s.sn} http://10.1.2.3`);
    const again = r.started.filter((x) => x.station.sn === s.sn);
    expect(again.map((x) => x.aps[0])).toEqual(['http://10.1.2.3', 'http://10.1.2.4']);
    const second = again[1]?.station.secret ?? '';
    expect(second).not.toBe(first);
    expect(await hashOf(s.id)).toBe(sha256Hex(second));
    expect(r.manager.running().get(s.id)).toBe('http://10.1.2.4');

    await t().app.services.db.deleteFrom('stations').where('id', '=', s.id).execute();
    await r.manager.reconcile();
    expect(r.stopped).toContain(`${s.sn} http://10.1.2.4`);
    expect(r.manager.running().has(s.id)).toBe(false);
    await r.manager.close();
    expect(r.manager.running().size).toBe(0);
  });

  it('retries a bridge that failed to start, and leaves one whose lease another process holds', async () => {
    const s = await oeplStation('http://10.9.9.9');
    const r = rig({ failFirst: true });
    await r.manager.reconcile();
    expect(r.errors.length).toBeGreaterThanOrEqual(1);
    expect(r.manager.running().size).toBe(0);
    await r.manager.reconcile();
    expect(r.manager.running().get(s.id)).toBe('http://10.9.9.9');
    await r.manager.close();
    expect(r.stopped.length).toBeGreaterThanOrEqual(1);

    let holds = false;
    const other = rig({ claim: async () => holds });
    await other.manager.reconcile();
    expect(other.started).toEqual([]);
    holds = true;
    await other.manager.reconcile();
    expect(other.manager.running().get(s.id)).toBe('http://10.9.9.9');
    holds = false;
    await other.manager.reconcile();
    expect(other.manager.running().size).toBe(0);
    await other.manager.close();
  });
});
