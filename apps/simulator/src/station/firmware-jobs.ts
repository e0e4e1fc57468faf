import type { HeldJob, StationLink } from '@esl/station';
import { checkFirmwareBlob, type FirmwareJob, type FirmwarePlan, isFirmwareJob } from './firmware';

/**
 * The station's side of firmware jobs: pull progress, the disconnect fault, the file's check and
 * then the install (station, module) or keeping the file for the tag's next check-in.
 */
export class FirmwareJobs {
  private readonly progressAt = new Map<string, number>();

  constructor(
    private readonly link: StationLink,
    readonly plan: FirmwarePlan,
    /** Restarts the station (an install, keeping its queue). */
    private readonly reboot: () => void,
    /** Firmware it runs; an install changes it. */
    private readonly fw: { ap: string; module: string },
  ) {}

  /** A firmware job was queued: its file is pulled. */
  queued(held: HeldJob): void {
    const job = held.job;
    if (!isFirmwareJob(job)) return;
    this.link.log(`firmware ${job.kind} ${job.fw.version}: pulling ${job.fw.size} bytes`);
    this.link.pulls.start(job.fw.hash, job.fw.size);
    this.link.requestChunks();
  }

  /**
   * A chunk arrived (or the pull ended): progress, the disconnect fault, and with the whole file
   * its check, then the install. True when the connection was dropped on purpose.
   */
  onChunk(hash: string, blob: Uint8Array | null): boolean {
    const link = this.link;
    const jobs = [...link.queue.values()].filter(
      (h): h is HeldJob & { job: FirmwareJob } => isFirmwareJob(h.job) && h.job.fw.hash === hash,
    );
    if (jobs.length === 0) return false;
    const size = jobs[0].job.fw.size;
    const have = blob ? size : link.pulls.have(hash);
    const now = link.clock.now();
    for (const h of jobs) {
      const last = this.progressAt.get(h.job.id);
      if (blob || last === undefined || now - last >= 1000) {
        this.progressAt.set(h.job.id, now);
        void link.publish('progress', { v: 1, id: h.job.id, rev: h.job.rev, done: have, total: size }).catch(() => {});
      }
    }
    if (!blob) {
      if (this.plan.disconnectNow(have, size)) {
        link.log(`firmware pull: connection lost at ${have} of ${size} bytes`);
        void link.disconnect({ abrupt: true }).then(() => {
          link.after(link.reconnectMs, () => void link.reconnect());
        });
        return true;
      }
      return false;
    }
    const header = checkFirmwareBlob(blob, hash);
    for (const h of jobs) {
      this.progressAt.delete(h.job.id);
      const expected = h.job.kind === 'apfw' ? 'station' : h.job.kind === 'modulefw' ? 'module' : 'tag';
      if (!header || header.kind !== expected || header.version !== h.job.fw.version) {
        link.log(`firmware ${h.job.fw.version}: the file did not check out`);
        link.queue.delete(h.job.id);
        link.result(h.job, 'badBlob', {});
        continue;
      }
      if (h.job.kind === 'tagfw') {
        h.bytes = blob;
        continue;
      }
      this.install(h.job);
    }
    link.requestChunks();
    return false;
  }

  /** Verified: reports ok, restarts, and comes back on the new version (or the old one, rolled back). */
  private install(job: FirmwareJob): void {
    const link = this.link;
    link.queue.delete(job.id);
    link.result(job, 'ok', {});
    const which = job.kind === 'apfw' ? 'ap' : 'module';
    link.log(`firmware ${job.fw.version}: verified, installing`);
    link.after(500, () => {
      if (this.plan.faults.rollBack) link.log(`firmware ${job.fw.version}: failed to start, rolled back`);
      else this.fw[which] = job.fw.version;
      this.reboot();
    });
  }
}
