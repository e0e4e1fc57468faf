import { type Job, LIMITS, type StationKey } from '@esl/contract/protocol';
import { firmwareJobId } from './ids';
import * as repo from './repository';
import { ACK_MS, type FirmwareCore, TTL_S, type UpgradeSteps } from './upgrade';

/*
 * The firmware engine's dispatch: due upgrades to their stations as `apfw`, `modulefw` and `tagfw`
 * jobs. One pump runs at a time; a pump asked for while one runs runs again after it.
 */

export interface DispatchOptions {
  /** The station's dispatch lease (cluster/leases.ts); absent: this process dispatches all. */
  claimStation?: (stationId: number) => Promise<boolean>;
  onError: (err: unknown, what: string) => void;
}

/** The pump: sends due upgrades to their stations; resolves when no dispatch is left to run. */
export function firmwarePump(core: FirmwareCore, steps: UpgradeSteps, o: DispatchOptions): () => Promise<void> {
  let pumping: Promise<void> | null = null;
  let again = false;
  return function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          again = false;
          await dispatch(core, steps, o.claimStation);
        } while (again);
      } catch (err) {
        o.onError(err, 'firmware dispatch');
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  };
}

/*
 * What decides a dispatch is in the database, so whichever process runs it decides the same:
 * the upgrades running at the station (counted from their rows), how many tag transfers it runs
 * at once (its last hello's `caps.fwConcurrent`, which the gateway keeps on its row), the label
 * work waiting for it. With several processes
 * the station's dispatch lease (the label dispatch's) lets one of them send to it at a time, so
 * two never count the same free room.
 */
async function dispatch(
  core: FirmwareCore,
  steps: UpgradeSteps,
  claimStation: DispatchOptions['claimStation'],
): Promise<void> {
  const { db, now } = core;
  const t0 = now();
  for (const st of await repo.stationsWithDueTasks(db, t0)) {
    if (claimStation && !(await claimStation(st.id))) continue;
    const running = await repo.runningAt(db, st.id);
    const due = await repo.dueTasksOfStation(db, st.id, t0, 64);
    const jobs: Job[] = [];
    let tagRoom = (st.fw_concurrent ?? 1) - running.tagTransfers;
    let stationBusy = running.station > 0;
    let labelsWait: boolean | null = null;
    for (const t of due) {
      if (t.kind === 'tagfw') {
        if (tagRoom <= 0) continue;
        labelsWait ??= await repo.labelWorkWaits(db, st.id, t0);
        if (labelsWait) continue;
      } else if (stationBusy) continue;
      const attempt = Number(t.attempt) + 1;
      if (
        !(await repo.move(
          db,
          { id: t.id, rev: t.rev, from: ['queued'] },
          { state: 'sent', attempt, sent_at: t0, deadline: t0 + ACK_MS, done_bytes: 0 },
        ))
      ) {
        continue;
      }
      if (t.kind === 'tagfw') tagRoom--;
      else stationBusy = true;
      jobs.push(jobOf(t, attempt));
      await steps.step({ ...t, attempt }, 'sent', `sent to station ${st.sn} (attempt ${attempt})`, { done: 0 });
    }
    if (jobs.length === 0) continue;
    const key: StationKey = { tenantId: st.tenant_id, sn: st.sn };
    for (let i = 0; i < jobs.length; i += LIMITS.maxJobsPerMessage) {
      await core.link.send(key, 'jobs', { v: 1, jobs: jobs.slice(i, i + LIMITS.maxJobsPerMessage) });
    }
    core.counters.jobsSent += jobs.length;
  }
}

/** The station's job for one attempt of an upgrade. */
function jobOf(t: repo.TaskRow, attempt: number): Job {
  const base = { id: firmwareJobId(t.id), rev: t.rev, att: attempt, prio: 3 as const, ttlS: TTL_S };
  const fw = { version: t.version, hash: t.hash, size: Number(t.size) };
  if (t.kind === 'tagfw') {
    return { ...base, kind: 'tagfw', tag: t.hardware_id ?? '', fw: { ...fw, hw: [t.tag_model ?? ''] } };
  }
  return { ...base, kind: t.kind, fw };
}
