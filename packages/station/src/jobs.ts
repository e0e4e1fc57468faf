import type { AckEntry, Job, JobKind } from '@esl/contract/protocol';
import { imageMatches } from './images';

/** A job the station holds until it ends (or its TTL passes). */
export interface HeldJob {
  job: Job;
  receivedAt: number;
  deadline: number;
  /** Image bytes once known (inline, or pulled as a blob); a firmware file once verified. */
  bytes: Uint8Array | null;
  tries: number;
  running: boolean;
}

export interface JobsContext {
  queue: Map<string, HeldJob>;
  kinds: readonly JobKind[];
  queueSize: number;
  now: number;
  /** A queued image job of the same tag (another id) gave way to a newer one. */
  replaced(job: Job): void;
  /** The job is queued (and will be acked ok). */
  queued(held: HeldJob): void;
}

/**
 * Takes a `down/jobs` message into the queue (docs/PROTOCOL.md 5.3) and answers each job: refused
 * `unsupported`, `stale` (an older rev), `full`, `invalid` (inline bytes that do not match their
 * hash); a duplicate is acked again and changes nothing; a newer image for a tag replaces the one
 * queued for it (unless that one is on the air).
 */
export function acceptJobs(ctx: JobsContext, jobs: readonly Job[]): AckEntry[] {
  const acks: AckEntry[] = [];
  const { queue, now } = ctx;
  for (const job of jobs) {
    const held = queue.get(job.id);
    if (!ctx.kinds.includes(job.kind)) {
      acks.push({ id: job.id, rev: job.rev, ok: false, code: 'unsupported' });
      continue;
    }
    if (held && held.job.rev > job.rev) {
      acks.push({ id: job.id, rev: job.rev, ok: false, code: 'stale' });
      continue;
    }
    if (held && held.job.rev === job.rev) {
      acks.push({ id: job.id, rev: job.rev, ok: true }); // a duplicate: ack again, change nothing
      continue;
    }
    if (!held && queue.size >= ctx.queueSize) {
      acks.push({ id: job.id, rev: job.rev, ok: false, code: 'full' });
      continue;
    }
    let bytes: Uint8Array | null = null;
    if (job.kind === 'image' || job.kind === 'timed') {
      if (job.image.data !== undefined) {
        bytes = Buffer.from(job.image.data, 'base64');
        if (!imageMatches(bytes, job.image.hash)) {
          acks.push({ id: job.id, rev: job.rev, ok: false, code: 'invalid' });
          continue;
        }
      }
    }
    if (job.kind === 'image' || job.kind === 'timed' || job.kind === 'page') {
      // At most one image job per tag, one timed image job (§5.14) and one page switch (§5.15): a
      // newer one of the same kind (another id) replaces the queued one.
      for (const other of queue.values()) {
        if (other.job.id !== job.id && other.job.kind === job.kind && other.job.tag === job.tag && !other.running) {
          queue.delete(other.job.id);
          ctx.replaced(other.job);
        }
      }
    }
    // A transfer of the older rev already running finishes and reports for that rev; this one waits.
    const entry: HeldJob = { job, receivedAt: now, deadline: now + job.ttlS * 1000, bytes, tries: 0, running: false };
    queue.set(job.id, entry);
    acks.push({ id: job.id, rev: job.rev, ok: true });
    ctx.queued(entry);
  }
  return acks;
}
