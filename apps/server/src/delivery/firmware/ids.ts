import { jobKindOf } from '../link/consumers';

/*
 * Firmware job ids: `zf` and the upgrade slot's id in 14 base-36 digits. A label task's id never
 * looks like one; link/consumers.ts's `jobKindOf` is the one place that tells them apart.
 */

export const firmwareJobId = (id: number) => `zf${id.toString(36).padStart(14, '0')}`;

/** The upgrade slot a job id names; null for another kind's job. */
export function firmwareTaskId(job: string): number | null {
  return jobKindOf(job) === 'firmware' ? Number.parseInt(job.slice(2), 36) : null;
}
