import { type JobRef, LIMITS } from '@esl/contract/protocol';
import { firmwareJobId } from './ids';
import * as repo from './repository';
import type { FirmwareCore, UpgradeSteps } from './upgrade';

/*
 * The firmware engine's clock and stop: upgrades past their deadline (an ack, a result, the new
 * version after installing), and a store's tag upgrades stopped on request.
 */

/** Deadlines, then a pump. */
export async function firmwareDeadlines(core: FirmwareCore, steps: UpgradeSteps, pump: () => Promise<void>) {
  const { db } = core;
  const t0 = core.now();
  for (const t of await repo.overdue(db, t0)) {
    if (t.state === 'sent') {
      await repo.move(
        db,
        { id: t.id, rev: t.rev, from: ['sent'] },
        { state: 'queued', not_before: t0, deadline: null },
      );
    } else if (t.state === 'accepted') {
      await steps.retryOrFail(t, 'timeout', 'no result from the station in time');
    } else {
      await steps.failed(t, 'timeout', 'never reported the new version after installing', ['installing']);
    }
  }
  await pump();
}

/** Stops the store's tag upgrades: queued ones are cancelled, those at a station asked to stop. */
export async function stopTagUpgrades(
  core: FirmwareCore,
  steps: UpgradeSteps,
  tenantId: number,
  storeId: number,
): Promise<{ cancelled: number; stopping: number }> {
  const { db } = core;
  // Cancel first, then read what is at the stations: an upgrade a dispatch (this process's or
  // another's) sends meanwhile is either still queued when the cancel runs, and is cancelled, or
  // sent before it, and is read below as at its station. Read the other way round, one sent
  // between the read and the cancel would be neither.
  const cancelledIds = await repo.cancelQueuedTagTasks(db, tenantId, storeId, core.now());
  const atStation = await repo.tagTasksAtStations(db, tenantId, storeId);
  for (let i = 0; i < cancelledIds.length; i += 1000) {
    for (const t of await repo.tasksByIds(db, cancelledIds.slice(i, i + 1000))) {
      await steps.step(t, 'cancelled', 'stopped before it started', { code: 'stopped', done: 0 });
      await steps.tagLog(t, 'cancelled', 'stopped');
    }
  }
  const perStation = new Map<number, { sn: string; ids: JobRef[] }>();
  for (const t of atStation) {
    if (t.station_id === null || !t.sn) continue;
    const entry = perStation.get(t.station_id) ?? { sn: t.sn, ids: [] };
    entry.ids.push([firmwareJobId(t.id), t.rev]);
    perStation.set(t.station_id, entry);
  }
  for (const { sn, ids } of perStation.values()) {
    for (let i = 0; i < ids.length; i += LIMITS.maxRefsPerMessage) {
      await core.link.send({ tenantId, sn }, 'cancel', {
        v: 1,
        ids: ids.slice(i, i + LIMITS.maxRefsPerMessage),
        reason: 'stopped',
      });
    }
  }
  return { cancelled: cancelledIds.length, stopping: atStation.length };
}
