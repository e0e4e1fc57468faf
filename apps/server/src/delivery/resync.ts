import type { Kysely } from 'kysely';
import { PROCESS_PREFIX } from '../infra/cluster/membership';
import { onlineStations, takeDeadProcesses } from '../infra/cluster/repository';
import type { Database } from '../infra/db/schema';
import type { StationLink } from './link/station-link';

/*
 * When a server process dies, the station messages it had received but not yet handled are
 * lost with it: the shared subscription gave each to that process only, and a station keeps
 * connected to the broker, so nothing makes it say hello again. Acks and jobs are covered by the
 * deadlines; results and a hello waiting for its welcome are not. So the process holding the
 * sweeper lease, seeing a process lease run out (a clean stop deletes its lease instead), welcomes
 * every online station again on its current connection: a station answers a welcome by resending
 * the results it still holds (docs/PROTOCOL.md §5.3), which the servers store once and confirm.
 */
export async function resyncAfterDeath(
  db: Kysely<Database>,
  link: StationLink,
  now: () => number,
): Promise<{ dead: string[]; welcomed: number }> {
  const dead = await takeDeadProcesses(db, PROCESS_PREFIX, now());
  if (dead.length === 0) return { dead, welcomed: 0 };
  let welcomed = 0;
  for (const s of await onlineStations(db)) {
    await link.send({ tenantId: s.tenant_id, sn: s.sn }, 'welcome', {
      v: 1,
      connId: s.conn_id,
      time: now(),
      cfgRev: Number(s.cfg_rev),
    });
    welcomed++;
  }
  return { dead, welcomed };
}
