import type { Simulator, StationSpec } from '@esl/simulator';
import type { Kysely } from 'kysely';
import type { StationAccounts } from '../api/station-accounts';
import type { Database } from '../infra/db/schema';
import { randomHex, sha256Hex } from '../infra/lib/random';
import { isDemoStationSn } from './business';

/*
 * `npm run demo`: the demo stores' base stations played by the simulator in this process, so a
 * newcomer sees stations online and tags reporting within seconds. The demo provisions them as
 * an operator would renew a secret: a fresh secret per start, only its hash stored. Only the
 * stations the demo created (isDemoStationSn) are played: one an admin added by hand for a real
 * device keeps its secret, and its tags are left to it.
 */

export interface DemoStationsOptions {
  db: Kysely<Database>;
  tenantId: number;
  /** Where the stations connect (the broker the server started). */
  url: string;
  accounts: StationAccounts;
  now: number;
  log?: (line: string) => void;
}

export async function startDemoStations(o: DemoStationsOptions): Promise<Simulator | null> {
  const all = await o.db
    .selectFrom('stations')
    .select(['id', 'sn', 'store_id'])
    .where('tenant_id', '=', o.tenantId)
    .orderBy('id')
    .execute();
  const stations = all.filter((s) => isDemoStationSn(s.sn));
  const real = new Set(all.filter((s) => !isDemoStationSn(s.sn)).map((s) => s.id));
  if (stations.length === 0) return null;
  const tags = await o.db
    .selectFrom('tags')
    .select(['hardware_id', 'model', 'station_id', 'store_id'])
    .where('tenant_id', '=', o.tenantId)
    .orderBy('id')
    .execute();

  const specs: StationSpec[] = [];
  for (const s of stations) {
    const secret = randomHex(24);
    await o.db
      .updateTable('stations')
      .set({ secret_hash: sha256Hex(secret), secret_at: o.now })
      .where('id', '=', s.id)
      .execute();
    await o.accounts.secretIssued({ tenantId: o.tenantId, sn: s.sn }, secret);
    specs.push({ tenantId: o.tenantId, sn: s.sn, secret, tags: [], firmware: true });
  }
  // Each tag goes to the station it was last heard by, or (never heard) round the store's stations.
  const byId = new Map(stations.map((s, i) => [s.id, specs[i]]));
  const turn = new Map<number, number>();
  for (const t of tags) {
    // Last heard by a station the demo did not create: a real device reports it.
    if (t.station_id !== null && real.has(t.station_id)) continue;
    let spec = t.station_id === null ? undefined : byId.get(t.station_id);
    if (!spec) {
      const inStore = stations.filter((s) => s.store_id === t.store_id);
      if (inStore.length === 0) continue;
      const n = turn.get(t.store_id) ?? 0;
      turn.set(t.store_id, n + 1);
      spec = byId.get(inStore[n % inStore.length].id);
    }
    spec?.tags?.push({ id: t.hardware_id, hw: t.model, wakeS: 20 });
  }
  // The simulator is loaded only here, when the demo asks for it (a production start never does).
  const { startSimulator } = await import('@esl/simulator');
  return startSimulator({
    url: o.url,
    stations: specs,
    speed: 1,
    seed: 'demo',
    heartbeatS: 15,
    reportS: 5,
    log: o.log,
  });
}

/** SIM_HTTP=PORT: the simulator's store wall, every simulated tag's screen as it decoded it. */
export async function startDemoWall(
  sim: Simulator,
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const { startWall } = await import('@esl/simulator');
  return startWall(sim.stations, { port, host });
}
