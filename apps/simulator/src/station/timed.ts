import type { Job, ResultCode, ResultEntry } from '@esl/contract/protocol';
import type { HeldJob, StationLink } from '@esl/station';
import type { SimTag } from '../tag';

type TimedJob = Extract<Job, { kind: 'timed' }>;

/**
 * Timed images at a simulated station (docs/PROTOCOL.md §5.14): a `timed` job's picture is
 * transferred into its tag's second buffer at a check-in before its time, and the tag switches to
 * it by its own timer at `at` (server time), with no radio exchange at that moment. A job whose
 * time has passed is shown at once like an image job. `down/cancel` of a timed image already in
 * a tag takes it back at the tag's next check-in before its time (result `cancelled`).
 */
export class TimedImages {
  /** What each tag holds, by tag id: the job it came with and the tag's hold number. */
  private readonly held = new Map<string, { job: TimedJob; n: number; withdraw: boolean }>();

  constructor(
    private readonly link: StationLink,
    private readonly tags: () => ReadonlyMap<string, SimTag>,
  ) {}

  /** True when the job's time has passed: it is an ordinary picture now. */
  due(job: TimedJob): boolean {
    return job.at <= this.link.serverNow();
  }

  /** The tag already holds this picture for this time (nothing to send). */
  holds(tag: SimTag, job: TimedJob): boolean {
    const h = tag.held();
    return h !== null && h.screen.ver === job.image.ver && h.at === job.at;
  }

  /** After a transfer into the tag's second buffer: arms its switch at the job's time. */
  arm(tag: SimTag, job: TimedJob): void {
    const h = tag.held();
    if (!h) return;
    this.held.set(tag.id, { job, n: h.n, withdraw: false });
    const n = h.n;
    this.link.after(Math.max(0, job.at - this.link.serverNow()), () => {
      if (tag.showHeld(n)) {
        this.link.log(`tag ${tag.id}: timed image ${job.image.ver} shown`);
        this.link.changed();
      }
      if (this.held.get(tag.id)?.n === n) this.held.delete(tag.id);
    });
  }

  /** `down/cancel` of a job no longer queued: true when a tag holds it (taken back at its next check-in). */
  withdraw(id: string, rev: number): boolean {
    for (const h of this.held.values()) {
      if (h.job.id === id && h.job.rev <= rev) {
        h.withdraw = true;
        return true;
      }
    }
    return false;
  }

  /**
   * At a tag's check-in: a held image the server withdrew is dropped before its time (a command's
   * exchange, reported `cancelled`); true when that used the check-in.
   */
  checkIn(tag: SimTag, result: (job: Job, code: ResultCode, extra: Partial<ResultEntry>) => void): boolean {
    const h = this.held.get(tag.id);
    if (!h?.withdraw) return false;
    this.held.delete(tag.id);
    if (tag.held()?.n === h.n) tag.dropHeld();
    result(h.job, 'cancelled', { tag: tag.id });
    return true;
  }

  /** Held jobs for tags of this station (for tests and the wall). */
  heldTags(): string[] {
    return [...this.held.keys()].filter((id) => this.tags().has(id));
  }
}

export const isTimed = (held: HeldJob): held is HeldJob & { job: TimedJob } => held.job.kind === 'timed';
