import type { ResultCode } from '@esl/contract/protocol';
import type { Clock } from '@esl/station';
import type { ApReply } from './client';
import type { OeplTag } from './types';

/** How one delivery ended, for the station's result. */
export interface DeliveryOutcome {
  code: ResultCode;
  tries: number;
  /** Why, for the log: "xfer complete", "xfer timeout", "rebooted", … */
  why: string;
}

/** What an upload needs from the AP client. */
export interface Uploader {
  upload(mac: string, jpeg: Uint8Array): Promise<ApReply>;
  /** Has the AP send the tag what it holds again (`/tag_cmd` refresh). */
  refresh(mac: string): Promise<ApReply>;
  /** The AP's current record of a tag (after a reconnect), or null when unknown. */
  record(mac: string): OeplTag | null;
}

export interface DeliveryOptions {
  /** Tries (uploads and AP-side transfer attempts) before the job fails `nack`. */
  maxTries?: number;
  /** After the tag's expected check-in, how long a transfer may still take to show progress, ms. */
  graceMs?: number;
  /** When the tag's next check-in is unknown (deep sleep), how long to wait at most, ms. */
  maxWaitMs?: number;
  /** Pause before uploading again after a 409 ("Come back later"), ms. */
  busyRetryMs?: number;
}

interface Flight {
  mac: string;
  /** null: a forced refresh of what the tag shows (the AP skips an upload equal to it). */
  jpeg: Uint8Array | null;
  tries: number;
  /** The tag's record when the upload was accepted: the evidence rule compares against it. */
  before: { updatecount: number; hash: string };
  /** True once the AP answered 200 (queued). */
  queued: boolean;
  deadline: number;
  uploadStartedAt: number;
  uploadAnsweredAt: number;
  done: (o: DeliveryOutcome) => void;
}

/**
 * Deliveries to the tags of one AP, one upload in flight per tag. A 200 from `/imgupload` means
 * queued, never shown: a delivery ends `ok` only on "<MAC> reports xfer complete", or on a record
 * with `pending` 0, `updatecount` up and `hash` changed; "xfer timeout" and a reboot that lost the
 * queued image count as tries (re-uploaded until `maxTries`, then `nack`), and no progress by the
 * tag's expected check-in plus a grace ends it `timeout`. Both are retryable at the server.
 */
export class Deliveries {
  private readonly flights = new Map<string, Flight>();
  private readonly opts: Required<DeliveryOptions>;
  /** Uploads run one at a time, so an AP log line without a MAC belongs to the one just answered. */
  private uploading: Promise<void> = Promise.resolve();
  uploads = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ap: Uploader,
    options: DeliveryOptions = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    this.opts = { maxTries: 3, graceMs: 60_000, maxWaitMs: 30 * 60_000, busyRetryMs: 2000, ...options };
  }

  /** True while a delivery to this tag is in flight (the next waits: the AP never drops superseded images). */
  busy(mac: string): boolean {
    return this.flights.has(mac);
  }

  get inFlight(): number {
    return this.flights.size;
  }

  /** Uploads `jpeg` to the tag (null: refreshes what it shows) and resolves when it is shown or failed. */
  deliver(mac: string, jpeg: Uint8Array | null): Promise<DeliveryOutcome> {
    if (this.flights.has(mac)) throw new Error(`${mac}: a delivery is already in flight`);
    return new Promise((resolve) => {
      const rec = this.ap.record(mac);
      const flight: Flight = {
        mac,
        jpeg,
        tries: 0,
        before: { updatecount: rec?.updatecount ?? 0, hash: rec?.hash ?? '' },
        queued: false,
        deadline: Number.POSITIVE_INFINITY,
        uploadStartedAt: 0,
        uploadAnsweredAt: 0,
        done: resolve,
      };
      this.flights.set(mac, flight);
      this.upload(flight);
    });
  }

  private upload(f: Flight): void {
    f.tries++;
    f.queued = false;
    this.uploading = this.uploading.then(() => this.uploadNow(f));
  }

  private async uploadNow(f: Flight): Promise<void> {
    if (this.flights.get(f.mac) !== f) return;
    const rec = this.ap.record(f.mac);
    f.before = { updatecount: rec?.updatecount ?? 0, hash: rec?.hash ?? '' };
    f.uploadStartedAt = this.clock.now();
    let reply: ApReply;
    try {
      reply = f.jpeg ? await this.ap.upload(f.mac, f.jpeg) : await this.ap.refresh(f.mac);
    } catch (err) {
      reply = { status: 0, text: (err as Error).message };
    }
    this.uploads++;
    f.uploadAnsweredAt = this.clock.now();
    if (this.flights.get(f.mac) !== f) return;
    if (reply.status === 200) {
      f.queued = true;
      this.setDeadline(f, rec);
      return;
    }
    this.log(`${f.mac}: upload answered ${reply.status} ${reply.text.trim()}`);
    if (reply.status === 400) {
      // "mac not found": the AP does not know the tag; anything else: it refused the picture.
      const unknown = /mac not found/i.test(reply.text);
      this.end(f, unknown ? 'unknownTag' : 'unsupported', reply.text.trim());
      return;
    }
    // 409 (not running), a dropped connection: the same try again after a pause.
    f.tries--;
    this.clock.setTimeout(() => {
      if (this.flights.get(f.mac) === f) this.upload(f);
    }, this.opts.busyRetryMs);
  }

  /** The tag's expected check-in plus the grace; unknown (deep sleep): the longest wait. */
  private setDeadline(f: Flight, rec: OeplTag | null): void {
    const now = this.clock.now();
    const next = rec && rec.nextcheckin > 0 && rec.nextcheckin < 3_000_000_000 ? rec.nextcheckin * 1000 : null;
    f.deadline = next !== null && next > now - this.opts.graceMs ? next + this.opts.graceMs : now + this.opts.maxWaitMs;
    f.deadline = Math.min(f.deadline, now + this.opts.maxWaitMs);
  }

  /** A tag record arrived (WebSocket or a read): the evidence rule, and a new expected check-in. */
  onRecord(rec: OeplTag): void {
    const f = this.flights.get(rec.mac);
    if (!f?.queued) return;
    const count = rec.updatecount ?? 0;
    if (rec.pending === 0 && count > f.before.updatecount && rec.hash !== f.before.hash) {
      this.end(f, 'ok', 'pending 0, updatecount up, hash changed');
      return;
    }
    this.setDeadline(f, rec);
  }

  /** A `logMsg` or `errMsg` line of the AP. */
  onLine(line: string): void {
    const m = /^([0-9A-Fa-f]{12,16}) (reports xfer complete|xfer timeout)/.exec(line.trim());
    if (m) {
      const f = this.flights.get(m[1].toUpperCase().padStart(16, '0'));
      if (!f) return;
      if (m[2] === 'reports xfer complete') this.end(f, 'ok', 'xfer complete');
      else this.failedTry(f, 'xfer timeout', false);
      return;
    }
    if (/new image is the same as current image/.test(line)) this.sameImage();
  }

  /** The AP found the upload equal to what the tag shows: the one upload just answered. */
  private sameImage(): void {
    const now = this.clock.now();
    const recent = [...this.flights.values()].filter(
      (f) => f.uploadStartedAt > 0 && now - Math.max(f.uploadStartedAt, f.uploadAnsweredAt) <= 2000,
    );
    if (recent.length === 1) this.end(recent[0], 'skipped', 'the tag already shows it');
  }

  /** A failed try: the AP retries a timed-out transfer itself; an image lost by a reboot is uploaded again. */
  private failedTry(f: Flight, why: string, reupload: boolean): void {
    this.log(`${f.mac}: ${why} (try ${f.tries} of ${this.opts.maxTries})`);
    if (f.tries >= this.opts.maxTries) this.end(f, 'nack', why);
    else if (reupload) this.upload(f);
    else f.tries++;
  }

  /**
   * The AP rebooted or the connection was lost and is back: a transfer the record shows done is
   * `ok`; one the AP no longer holds (pending 0) was lost and goes again.
   */
  afterReconnect(): void {
    for (const f of [...this.flights.values()]) {
      if (!f.queued) continue;
      const rec = this.ap.record(f.mac);
      if (!rec) continue;
      const count = rec.updatecount ?? 0;
      if (rec.pending === 0 && count > f.before.updatecount && rec.hash !== f.before.hash) {
        this.end(f, 'ok', 'pending 0, updatecount up, hash changed');
      } else if (rec.pending === 0) {
        this.failedTry(f, 'lost in a reboot', true);
      }
    }
  }

  /** Deliveries whose tag showed no progress by its expected check-in end `timeout`. */
  sweep(): void {
    const now = this.clock.now();
    for (const f of [...this.flights.values()]) {
      if (f.queued && f.deadline <= now) this.end(f, 'timeout', 'no progress by the expected check-in');
    }
  }

  /** Ends every delivery (the bridge stops). */
  abandon(): void {
    for (const f of [...this.flights.values()]) this.end(f, 'timeout', 'bridge stopped');
  }

  private end(f: Flight, code: ResultCode, why: string): void {
    if (this.flights.get(f.mac) !== f) return;
    this.flights.delete(f.mac);
    f.done({ code, tries: f.tries, why });
  }
}
