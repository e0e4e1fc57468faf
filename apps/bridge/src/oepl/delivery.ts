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
  /** Sets the tag's NFC URL (`/save_cfg`, content mode 14): the AP queues the record when the tag is due. */
  writeNfc(mac: string, url: string): Promise<ApReply>;
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
  /** An NFC URL written instead of a picture (`jpeg` is then null). */
  nfc?: string;
  tries: number;
  /** The tag's record when the upload was accepted: the evidence rule compares against it. */
  before: { updatecount: number; hash: string };
  /** True once the AP answered 200 (queued). */
  queued: boolean;
  deadline: number;
  uploadStartedAt: number;
  uploadAnsweredAt: number;
  /**
   * "<MAC> reports xfer complete" lines since this try's upload. The AP delivers every image it
   * holds for a tag in turn (an earlier bridge's, say, before a restart): a transfer is this
   * upload's only once the AP holds nothing more for the tag (`pending` 0).
   */
  completions: number;
  done: (o: DeliveryOutcome) => void;
}

/**
 * Deliveries to the tags of one AP, one upload in flight per tag. A 200 from `/imgupload` means
 * queued, never shown: a delivery ends `ok` only on "<MAC> reports xfer complete" with the AP
 * holding nothing more for the tag (`pending` 0: it delivers every image it holds, in turn), or on
 * a record with `pending` 0, `updatecount` up and `hash` changed; "xfer timeout" and a reboot that lost the
 * queued image count as tries (re-uploaded until `maxTries`, then `nack`), and no progress by the
 * tag's expected check-in plus a grace ends it `timeout`. Both are retryable at the server.
 */
export class Deliveries {
  private readonly flights = new Map<string, Flight>();
  private readonly opts: Required<DeliveryOptions>;
  /** Uploads run one at a time: the AP answers them, and logs each, in the order they were sent. */
  private uploading: Promise<void> = Promise.resolve();
  /**
   * The tags of picture uploads sent whose AP log line has not come yet, oldest first. Each upload
   * logs exactly one "new image: …<MAC>…" or "new image is the same as current image" (no MAC), in
   * order, on the one WebSocket: the line without a MAC belongs to the oldest upload still waiting
   * for its line. Emptied when the WebSocket is lost (its lines are gone with it).
   */
  private awaitingLine: string[] = [];
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

  /** True while an NFC write to this tag is in flight (the hash the AP keeps for it is then the record's). */
  writingNfc(mac: string): boolean {
    return this.flights.get(mac)?.nfc !== undefined;
  }

  get inFlight(): number {
    return this.flights.size;
  }

  /** Uploads `jpeg` to the tag (null: refreshes what it shows) and resolves when it is shown or failed. */
  deliver(mac: string, jpeg: Uint8Array | null): Promise<DeliveryOutcome> {
    return this.fly(mac, jpeg);
  }

  /**
   * Writes an NFC URL to the tag and resolves when the tag took the record, or failed: the same
   * evidence as a picture's (the AP sends the record as data and logs "reports xfer complete").
   */
  writeNfc(mac: string, url: string): Promise<DeliveryOutcome> {
    return this.fly(mac, null, url);
  }

  private fly(mac: string, jpeg: Uint8Array | null, nfc?: string): Promise<DeliveryOutcome> {
    if (this.flights.has(mac)) throw new Error(`${mac}: a delivery is already in flight`);
    return new Promise((resolve) => {
      const rec = this.ap.record(mac);
      const flight: Flight = {
        mac,
        jpeg,
        ...(nfc !== undefined ? { nfc } : {}),
        tries: 0,
        before: { updatecount: rec?.updatecount ?? 0, hash: rec?.hash ?? '' },
        queued: false,
        deadline: Number.POSITIVE_INFINITY,
        uploadStartedAt: 0,
        uploadAnsweredAt: 0,
        completions: 0,
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
    f.completions = 0;
    f.uploadStartedAt = this.clock.now();
    let reply: ApReply;
    if (f.jpeg) {
      this.awaitingLine.push(f.mac);
      if (this.awaitingLine.length > 64) this.awaitingLine.shift(); // an AP that never logs
    }
    try {
      if (f.nfc !== undefined) reply = await this.ap.writeNfc(f.mac, f.nfc);
      else reply = f.jpeg ? await this.ap.upload(f.mac, f.jpeg) : await this.ap.refresh(f.mac);
    } catch (err) {
      reply = { status: 0, text: (err as Error).message };
    }
    // `/save_cfg` answers 200 for a MAC it does not know, with the error in its text.
    if (reply.status === 200 && /mac not found/i.test(reply.text)) reply = { status: 400, text: reply.text };
    this.uploads++;
    f.uploadAnsweredAt = this.clock.now();
    if (f.jpeg && reply.status !== 200) {
      // A refused upload logs no line; one whose answer was lost may have: none can be paired.
      if (reply.status === 0) this.awaitingLine = [];
      else {
        const at = this.awaitingLine.lastIndexOf(f.mac);
        if (at >= 0) this.awaitingLine.splice(at, 1);
      }
    }
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
    f.deadline = this.deadlineOf(rec);
  }

  private deadlineOf(rec: OeplTag | null): number {
    const now = this.clock.now();
    const next = rec && rec.nextcheckin > 0 && rec.nextcheckin < 3_000_000_000 ? rec.nextcheckin * 1000 : null;
    const at = next !== null && next > now - this.opts.graceMs ? next + this.opts.graceMs : now + this.opts.maxWaitMs;
    return Math.min(at, now + this.opts.maxWaitMs);
  }

  /**
   * A tag record arrived (WebSocket or a read): the evidence rule, and while the AP holds an image
   * for the tag, a new expected check-in. A tag that checks in with nothing pending has not got our
   * image coming (the AP dropped it, or never held it): its check-in may bring the deadline closer,
   * never push it on, so the delivery ends `timeout` instead of waiting on every check-in for ever.
   */
  onRecord(rec: OeplTag): void {
    const f = this.flights.get(rec.mac);
    if (!f?.queued) return;
    if (rec.pending === 0 && f.completions > 0) {
      this.end(f, 'ok', 'xfer complete');
      return;
    }
    const count = rec.updatecount ?? 0;
    if (rec.pending === 0 && count > f.before.updatecount && rec.hash !== f.before.hash) {
      this.end(f, 'ok', 'pending 0, updatecount up, hash changed');
      return;
    }
    f.deadline = rec.pending > 0 ? this.deadlineOf(rec) : Math.min(f.deadline, this.deadlineOf(rec));
  }

  /** A `logMsg` or `errMsg` line of the AP. */
  onLine(line: string): void {
    const m = /^([0-9A-Fa-f]{12,16}) (reports xfer complete|xfer timeout)/.exec(line.trim());
    if (m) {
      const f = this.flights.get(m[1].toUpperCase().padStart(16, '0'));
      if (!f) return;
      if (m[2] === 'reports xfer complete') {
        // Ours when the AP holds nothing more for the tag: now (its record came first) or with
        // the record that follows the line.
        if (!f.queued && f.uploadStartedAt === 0) return;
        f.completions++;
        if (this.ap.record(f.mac)?.pending === 0) this.end(f, 'ok', 'xfer complete');
      } else this.failedTry(f, 'xfer timeout', false);
      return;
    }
    if (/new image is the same as current image/.test(line)) {
      const mac = this.awaitingLine.shift();
      if (mac) this.sameImage(mac);
      return;
    }
    const image = /new image\b.*?([0-9A-Fa-f]{12,16})/.exec(line);
    if (image) {
      // Its upload is queued at the AP; the lines of uploads before it were lost.
      const at = this.awaitingLine.indexOf(image[1].toUpperCase().padStart(16, '0'));
      if (at >= 0) this.awaitingLine.splice(0, at + 1);
    }
  }

  /** The AP's WebSocket was lost: lines of uploads sent meanwhile will never come. */
  linesLost(): void {
    this.awaitingLine = [];
  }

  /**
   * The AP found the upload to `mac` equal to its newest image for the tag. That is what the tag
   * shows only when the AP holds nothing queued for it; with images pending it is the newest
   * queued one (an earlier try, say, that the tag has not taken yet), so the delivery waits for
   * the tag's transfer like any queued upload.
   */
  private sameImage(mac: string): void {
    const f = this.flights.get(mac);
    if (!f?.jpeg || f.uploadStartedAt === 0) return;
    if ((this.ap.record(f.mac)?.pending ?? 0) > 0) {
      this.log(`${f.mac}: the AP already holds this image queued; waiting for the tag to take it`);
      return;
    }
    this.end(f, 'skipped', 'the tag already shows it');
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
