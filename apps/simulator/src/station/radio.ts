import type { MessageInput, TagEntry } from '@esl/contract/protocol';
import type { HeldJob, StationLink } from '@esl/station';
import { checkIn, command, type Exchange, frameErrorRate, rssiAt, transferImage } from '../radio/link';
import type { RadioProfile } from '../radio/profiles';
import type { Random } from '../random';
import type { SimTag } from '../tag';
import type { FirmwareJob, FirmwarePlan } from './firmware';
import type { StationStats } from './stats';
import { TimedImages } from './timed';

/** How long a waking tag's CSMA backoff waits for a busy channel (a check-in, not a transfer), ms. */
const CSMA_WAIT_MS = 10;
/**
 * The most radio work a station lines up behind the current exchange for tags that checked in
 * meanwhile, ms. A transfer is not one continuous frame: between its frames (inter-frame spacing,
 * the 30 ms "please wait" of each block's preparation) a waking tag's check-in is heard and
 * answered with its data info, and its transfer then interleaves with the running ones — in
 * airtime the same as serving it after them. A tag waits about as long as it tries a block (5
 * tries of a 300 ms receive loop), so a longer line is not joined: the check-in goes unheard.
 */
export const LINE_MS = 1500;

export interface RadioSettings {
  profile: RadioProfile;
  rng: Random;
  /** Extra frame loss on top of what the signal gives (0–1). */
  loss: number;
}

/**
 * The simulated station's radio (the downward half): tags check in, the most urgent job ready for
 * a tag is served over the modelled link, and airtime is counted for the heartbeat.
 */
export class SimRadio {
  /** false while rebooting: the radio hears nothing. */
  powered = true;
  private busyUntil = 0;
  private window: { start: number; airMs: number; services: number };
  /** Timed images handed to tags, switched at their time (§5.14). */
  readonly timed: TimedImages;
  private counters = { tx: 0, rx: 0, crcErr: 0 };

  constructor(
    private readonly link: StationLink,
    private readonly stats: StationStats,
    private readonly settings: RadioSettings,
    private readonly firmwarePlan: () => FirmwarePlan | null,
    tags: () => ReadonlyMap<string, SimTag> = () => new Map(),
  ) {
    this.window = { start: link.clock.now(), airMs: 0, services: 0 };
    this.timed = new TimedImages(link, tags);
  }

  onWake(tag: SimTag, backedOff = false): void {
    if (!backedOff) tag.spend(0);
    const link = this.link;
    const now = link.clock.now();
    if (this.powered && !backedOff && this.busyUntil > now && this.busyUntil - now <= CSMA_WAIT_MS) {
      // The channel is busy with another tag's check-in: like 802.15.4 CSMA-CA, the tag backs off
      // a moment and tries once more, so two tags whose wakes coincide do not shadow each other
      // at every wake for ever.
      link.after(this.busyUntil - now + this.settings.rng.between(0, 2), () => this.onWake(tag, true));
      return;
    }
    // Busy with other tags: a tag with a job ready here joins the line when it is short enough
    // (LINE_MS); any other check-in, or one while rebooting, goes unheard.
    const line = this.powered && this.busyUntil > now && this.busyUntil - now <= LINE_MS && this.ready(tag) !== null;
    if (!this.powered || (this.busyUntil > now && !line)) {
      tag.missedCheckIns++;
      this.stats.missedCheckIns++;
      return;
    }
    if (line) this.stats.lined++;
    const { profile, rng, loss } = this.settings;
    const rssi = rssiAt(profile, tag.distanceM(), tag.shadowDb) + rng.normal(0, 1);
    const per = frameErrorRate(profile, rssi, loss);
    const ci = checkIn(profile, per, rng);
    this.spend(ci);
    if (!ci.ok) {
      tag.missedCheckIns++;
      this.stats.missedCheckIns++;
      return;
    }
    this.stats.checkIns++;
    tag.missedCheckIns = 0;
    const entry: TagEntry = {
      id: tag.id,
      rssi: Math.round(rssi),
      lqi: Math.max(0, Math.min(255, Math.round(255 * (1 - per)))),
      battMv: Math.round(tag.battMv),
      temp: tag.temperature(now),
      ver: tag.ver,
      fw: tag.fw,
      hw: tag.hw,
      wakeS: tag.wakeS,
      seenAt: link.serverNow(),
      reason: tag.reason,
      ...(tag.page > 1 ? { page: tag.page } : {}),
    };
    link.heard.record(entry);
    tag.reason = 'timer';
    this.serve(tag, per);
    link.changed();
  }

  /** The most urgent job ready for a tag, if any. */
  private ready(tag: SimTag): HeldJob | null {
    let best: HeldJob | null = null;
    for (const h of this.link.queue.values()) {
      if (h.running || !('tag' in h.job) || h.job.tag !== tag.id) continue;
      if ((h.job.kind === 'image' || h.job.kind === 'tagfw' || h.job.kind === 'timed') && h.bytes === null) continue;
      if (!best || h.job.prio < best.job.prio) best = h;
    }
    return best;
  }

  /** Serves the most urgent job ready for a tag that just checked in (in line behind others when busy). */
  private serve(tag: SimTag, per: number): void {
    const link = this.link;
    const { profile, rng } = this.settings;
    if (this.timed.checkIn(tag, (job, code, extra) => link.result(job, code, extra))) {
      this.spend(command(profile, per, rng));
      return;
    }
    const held = this.ready(tag);
    if (!held) return;
    const job = held.job;
    const rssi = () => link.heard.get(tag.id)?.rssi;
    // A timed image before its time goes into the tag's second buffer; after it, it is a picture.
    const ahead = job.kind === 'timed' && !this.timed.due(job);
    if (job.kind === 'timed' && ahead && !job.force && this.timed.holds(tag, job)) {
      link.finish(held, 'skipped', { ver: job.image.ver, rssi: rssi() });
      return;
    }
    if (job.kind === 'image' || job.kind === 'timed') {
      if (!ahead && !job.force && tag.ver === job.image.ver) {
        link.finish(held, 'skipped', { ver: tag.ver, rssi: rssi() });
        return;
      }
      if (tag.refusesForBattery()) {
        // The tag answers the transfer's first frame with a refusal: a command's airtime.
        const ex = command(profile, per, rng);
        this.spend(ex);
        if (ex.ok) link.finish(held, 'lowBattery', { airMs: Math.round(ex.airMs), rssi: rssi() });
        return;
      }
      const bytes = held.bytes as Uint8Array;
      const ex = transferImage(profile, bytes.length, per, rng);
      // In line behind other tags' exchanges, it ends when the line before it and its own airtime did.
      const startsIn = Math.max(0, this.busyUntil - link.clock.now());
      this.spend(ex);
      held.running = true;
      held.tries++;
      this.stats.retries += ex.retries;
      link.after(startsIn + ex.airMs, () => {
        held.running = false;
        tag.spend(ex.airMs);
        if (!ex.ok) {
          if (held.tries >= 3) link.finish(held, 'nack', { tries: held.tries, airMs: Math.round(ex.airMs) });
          return;
        }
        this.stats.transfers++;
        if (job.kind === 'timed' && !this.timed.due(job)) {
          const got = tag.hold(bytes, job.at);
          if (got.ok) this.timed.arm(tag, job);
          const extra = { tries: held.tries, airMs: Math.round(ex.airMs), rssi: rssi() };
          if (got.ok) link.finish(held, 'ok', { ...extra, ver: got.screen.ver }, job);
          else link.finish(held, got.reason, extra, job);
          return;
        }
        const got = tag.receive(bytes);
        // The transfer-complete frame told the station what the tag holds now: report it next.
        if (got.ok) link.heard.confirm(tag.id, got.screen.ver, link.serverNow());
        const extra = { tries: held.tries, airMs: Math.round(ex.airMs), rssi: rssi() };
        if (got.ok) link.finish(held, 'ok', { ...extra, ver: got.screen.ver }, job);
        else link.finish(held, got.reason, extra, job);
      });
      return;
    }
    if (job.kind === 'tagfw') {
      this.serveTagFirmware(tag, held, job, per);
      return;
    }
    if (job.kind === 'nfc') {
      // No chip: nothing to write. The same content already there: nothing sent (as an image's `ver`).
      if (!tag.hasNfc) {
        link.finish(held, 'unsupported', { rssi: rssi() });
        return;
      }
      if (!job.force && tag.nfc?.type === job.nfc.type && tag.nfc.value === job.nfc.value) {
        link.finish(held, 'skipped', { rssi: rssi() });
        return;
      }
    }
    const ex = command(profile, per, rng);
    this.spend(ex);
    if (!ex.ok) return; // tried again at the next check-in, until the TTL
    if (job.kind === 'page') {
      // A page switch (§5.15): one command exchange, no image; the tag goes back to page 1 by itself.
      if (job.page > tag.pages()) {
        link.finish(held, 'unsupported', {
          airMs: Math.round(ex.airMs),
          detail: `the tag holds ${tag.pages()} page(s)`,
        });
        return;
      }
      if (job.stayS > 0) tag.buttonStayS = job.stayS;
      const hold = tag.holdPage();
      const show = () => {
        const n = tag.heldPageDue(hold) ? tag.showPage(job.page) : null;
        if (n !== null) this.pageShown(tag, n, job.stayS);
      };
      // A timed switch (rule 5): the tag's own timer switches at `at`, no radio exchange then.
      const wait = job.at === undefined ? 0 : job.at - link.serverNow();
      if (wait > 0) link.after(wait, show);
      else show();
      link.finish(held, 'ok', { airMs: Math.round(ex.airMs), ...(tag.ver ? { ver: tag.ver } : {}), rssi: rssi() });
      return;
    }
    if (job.kind === 'nfc') tag.writeNfc(job.nfc);
    if ((job.kind === 'led' || job.kind === 'ping') && job.led) tag.flash(job.led);
    if (job.kind === 'tagcfg' && job.cfg.wakeS) tag.wakeS = job.cfg.wakeS;
    link.finish(held, 'ok', { airMs: Math.round(ex.airMs) });
  }

  /**
   * A tag shows another page (switch `n`): the station's table says so at once, and the tag's own
   * timer takes it back to page 1 after `stayS` (0: it stays).
   */
  pageShown(tag: SimTag, n: number, stayS: number): void {
    const link = this.link;
    link.heard.paged(tag.id, tag.page, link.serverNow());
    link.log(`tag ${tag.id}: page ${tag.page}`);
    link.changed();
    if (stayS <= 0) return;
    link.after(stayS * 1000, () => {
      if (!tag.backToFirst(n)) return;
      link.log(`tag ${tag.id}: back to page 1`);
      link.changed();
    });
  }

  /**
   * The tag's button was pressed: it wakes (reason `button`), shows its next page and checks in, so
   * the station hears the press and the page at once.
   */
  press(tag: SimTag): boolean {
    const n = tag.pressButton();
    if (n !== null) this.pageShown(tag, n, tag.buttonStayS);
    this.onWake(tag);
    return n !== null;
  }

  /** Sends a verified tag firmware over the air; the tag runs it (unless it rolls back). */
  private serveTagFirmware(tag: SimTag, held: HeldJob, job: FirmwareJob, per: number): void {
    const { profile, rng } = this.settings;
    const link = this.link;
    const bytes = held.bytes as Uint8Array;
    const ex = transferImage(profile, bytes.length, per, rng);
    this.spend(ex);
    held.running = true;
    held.tries++;
    this.stats.retries += ex.retries;
    link.after(ex.airMs, () => {
      held.running = false;
      tag.spend(ex.airMs);
      if (!ex.ok) {
        if (held.tries >= 3) link.finish(held, 'nack', { tries: held.tries, airMs: Math.round(ex.airMs) });
        return;
      }
      this.stats.transfers++;
      if (!this.firmwarePlan()?.rollsBackTag(tag.id)) tag.fw = job.fw.version;
      link.log(`tag ${tag.id}: firmware ${job.fw.version} transferred`);
      link.finish(held, 'ok', { tries: held.tries, airMs: Math.round(ex.airMs) });
    });
  }

  private spend(ex: Exchange): void {
    const now = this.link.clock.now();
    this.busyUntil = Math.max(this.busyUntil, now) + ex.airMs;
    this.window.airMs += ex.airMs;
    this.window.services++;
    this.stats.airMs += ex.airMs;
    this.counters.tx += Math.ceil(ex.frames / 2);
    this.counters.rx += Math.floor(ex.frames / 2) - Math.min(ex.lost, Math.floor(ex.frames / 2));
    this.counters.crcErr += ex.lost;
  }

  /** The heartbeat's load and radio figures since the last one (the window restarts). */
  heartbeat(): Pick<MessageInput<'heartbeat'>, 'cpu' | 'mem' | 'disk' | 'radio'> {
    const link = this.link;
    const now = link.clock.now();
    const spanMs = Math.max(1, now - this.window.start);
    const busyPct = Math.min(100, (100 * this.window.airMs) / spanMs);
    const svcPerS = (1000 * this.window.services) / spanMs;
    this.window = { start: now, airMs: 0, services: 0 };
    const { rng } = this.settings;
    return {
      cpu: round1(Math.min(100, 4 + busyPct * 0.3 + rng.between(0, 3))),
      mem: round1(Math.min(100, 28 + (40 * link.queue.size) / link.queueSize + rng.between(0, 2))),
      disk: round1(Math.min(100, 12 + link.outbox.size / 100)),
      radio: {
        busyPct: round1(busyPct),
        svcPerS: round1(svcPerS * 10) / 10,
        tx: this.counters.tx,
        rx: this.counters.rx,
        crcErr: this.counters.crcErr,
        noiseDbm: Math.round(rng.normal(-96, 2)),
      },
    };
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
