import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { claimLease, releaseLease } from './repository';

/*
 * The leases the delivery layer takes when several server processes share one PostgreSQL
 * database (docs/DEPLOY.md, "What runs where"):
 *
 * - `station:{id}`: which process dispatches a station's jobs. Taken or renewed each time the
 *   process dispatches to the station, for STATION_LEASE_MS; while another holds it, the station
 *   is skipped (its in-flight window is counted by one process at a time). A holder that dies
 *   loses it within that time.
 * - `sweeper`: which process runs the task sweeps (ack and result deadlines, the reconciler,
 *   image collection). Renewed every tick; lapses after a few missed ones.
 *
 * - `bridge:{id}`: which process runs the in-process bridge of an OpenEPaperLink station
 *   (delivery/bridges/). Renewed at each look of the bridge manager; a holder that dies loses it
 *   within BRIDGE_LEASE_MS and another process starts the bridge with a fresh secret.
 *
 * Render work is shared per slot instead (`claimRenderSpread`: FOR UPDATE SKIP LOCKED and a lease on
 * the slot). On SQLite there is one process and none of this runs.
 */

export const STATION_LEASE_MS = 3000;
export const BRIDGE_LEASE_MS = 20_000;

export interface DeliveryLeases {
  station(stationId: number): Promise<boolean>;
  sweeper(): Promise<boolean>;
  bridge(stationId: number): Promise<boolean>;
  releaseBridge(stationId: number): Promise<void>;
}

export function deliveryLeases(db: Kysely<Database>, owner: string, now: () => number, tickMs: number): DeliveryLeases {
  const sweeperTtl = Math.max(5000, 5 * tickMs);
  return {
    station: (stationId) => claimLease(db, `station:${stationId}`, owner, now(), STATION_LEASE_MS),
    sweeper: () => claimLease(db, 'sweeper', owner, now(), sweeperTtl),
    bridge: (stationId) => claimLease(db, `bridge:${stationId}`, owner, now(), BRIDGE_LEASE_MS),
    releaseBridge: (stationId) => releaseLease(db, `bridge:${stationId}`, owner),
  };
}
