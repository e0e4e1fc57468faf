import { type Job, LIMITS, type ResultCode, type ResultEntry } from '@esl/contract/protocol';

const jobKey = (id: string, rev: number) => `${id}:${rev}`;

/**
 * Results kept until the server confirms them with `down/resack` (docs/PROTOCOL.md 5.8): sent at
 * once when connected and welcomed, all of them again after every welcome. It outlives the
 * connection (and, in a station with flash, a reboot).
 */
export class Outbox {
  /** Results not yet confirmed by down/resack, by `id:rev` (`id:rev:tag` for a roll call). */
  readonly entries = new Map<string, ResultEntry>();
  private pending: ResultEntry[] = [];
  private scheduled = false;

  constructor(
    /** Publishes one `result` message. */
    private readonly send: (results: ResultEntry[]) => void,
    /** True while connected and welcomed. */
    private readonly ready: () => boolean,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  add(job: Job, code: ResultCode, extra: Partial<ResultEntry>, at: number): ResultEntry {
    const entry: ResultEntry = { id: job.id, rev: job.rev, code, at, ...extra };
    if ('tag' in job && job.tag && entry.tag === undefined) entry.tag = job.tag;
    // A roll call has many entries per [id, rev]; the outbox keeps them all under one key.
    const key = entry.present === undefined ? jobKey(job.id, job.rev) : `${jobKey(job.id, job.rev)}:${entry.tag}`;
    this.entries.set(key, entry);
    this.pending.push(entry);
    this.schedule();
    return entry;
  }

  /** After a welcome: every result the server has not confirmed goes out again. */
  resendAll(): void {
    this.pending = [...this.entries.values()];
    this.schedule();
  }

  confirm(id: string, rev: number): void {
    const key = jobKey(id, rev);
    for (const k of [...this.entries.keys()]) if (k === key || k.startsWith(`${key}:`)) this.entries.delete(k);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.ready()) return; // resent from the outbox after welcome
      const batch = this.pending.splice(0);
      for (let i = 0; i < batch.length; i += LIMITS.maxResultsPerMessage) {
        this.send(batch.slice(i, i + LIMITS.maxResultsPerMessage));
      }
    });
  }
}
