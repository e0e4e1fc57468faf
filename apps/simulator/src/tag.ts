import { findTagModel, type TagModel } from '@esl/contract';
import type { LedPattern, NfcPayload, WakeReason } from '@esl/contract/protocol';
import { contentHash, decodeTagImage, type IndexImage, pack, readHeader } from '@esl/labels';
import type { Random } from './random';

/** How a tag is made: its id, model, where it hangs and how it behaves. */
export interface TagSpec {
  /** Hardware id, upper-case hex (8–16 digits). */
  id: string;
  /** Catalogue model code, e.g. '05'. */
  hw: string;
  /** Wake interval, s (40 by default, as OpenEPaperLink tags). */
  wakeS?: number;
  /** Position in metres relative to its station. */
  x?: number;
  y?: number;
  fw?: string;
  /** Whether it has an NFC chip the station can write (docs/SHELF.md); by default its model's (the catalogue's `nfc`). */
  nfc?: boolean;
}

/** What the tag shows, as it decoded it itself. */
export interface Screen {
  readonly image: IndexImage;
  /** SHA-256 the tag computed from the decoded planes (not the hash the job named). */
  readonly hash: string;
  /** The tag-side version: the first 16 hex digits of `hash`. */
  readonly ver: string;
  readonly bytes: Uint8Array;
}

export type ReceiveResult = { ok: true; screen: Screen } | { ok: false; reason: 'unsupported' | 'displayError' };

/**
 * A simulated tag: wakes on its own (jittered by ±50 ppm drift and a random phase), reports
 * battery, temperature and signal, drains its battery with airtime, and decodes whatever image it
 * receives with @esl/labels — its screen hash is an independent witness of what arrived.
 */
export class SimTag {
  readonly id: string;
  readonly hw: string;
  readonly model: TagModel;
  wakeS: number;
  fw: string;
  x: number;
  y: number;
  /** Fixed shadowing of this spot, dB. */
  readonly shadowDb: number;
  /** Clock drift, parts per million (±50). */
  readonly driftPpm: number;
  battMv: number;
  private readonly baseTemp: number;
  private screenState: Screen | null = null;
  private heldState: { screen: Screen; at: number; n: number } | null = null;
  private heldCount = 0;
  /** Timed images it switched to at their time. */
  switches = 0;
  /** Why it woke last. */
  reason: WakeReason = 'boot';
  /** LED patterns shown, newest last. */
  readonly flashes: LedPattern[] = [];
  /** Whether it has an NFC chip (a tag without one answers NFC jobs `unsupported`). */
  readonly hasNfc: boolean;
  /** What a phone held to it reads (docs/PROTOCOL.md §5.16); null: nothing written. */
  nfc: NfcPayload | null = null;
  /** NFC contents written, in order. */
  nfcWrites = 0;
  /** Failed check-ins in a row (after 14 OEPL tags fall back to long scans; we just count). */
  missedCheckIns = 0;
  transfers = 0;
  /** The page of its label it shows (docs/PAGES.md): 1 after every new picture. */
  page = 1;
  /** Seconds a page it switched to by its button stays (the last `page` job's stay, else 30). */
  buttonStayS = 30;
  /** Tells page switches apart: a return to page 1 armed for an older switch does nothing. */
  private pageSwitch = 0;
  /** Tells held (timed) page switches apart: a newer one, or a new picture, drops an older one. */
  private pageHold = 0;
  /** Below this battery voltage, mV, it refuses new pictures (answered `lowBattery`); null: never. */
  lowBatteryMv: number | null = null;

  constructor(
    spec: TagSpec,
    private readonly rng: Random,
  ) {
    const model = findTagModel(spec.hw);
    if (!model) throw new RangeError(`tag ${spec.id}: unknown model ${spec.hw}`);
    if (!/^[0-9A-F]{8,16}$/.test(spec.id)) throw new RangeError(`tag id ${spec.id} is not 8–16 upper-case hex digits`);
    this.id = spec.id;
    this.hw = model.code;
    this.model = model;
    this.wakeS = spec.wakeS ?? 40;
    this.hasNfc = spec.nfc ?? model.nfc;
    this.fw = spec.fw ?? '1.0.0';
    this.x = spec.x ?? rng.between(-20, 20);
    this.y = spec.y ?? rng.between(-20, 20);
    this.shadowDb = rng.normal(0, 4);
    this.driftPpm = rng.between(-50, 50);
    this.battMv = Math.round(rng.between(2850, 3050));
    this.baseTemp = rng.normal(21, 1.5);
  }

  /** The interval to its next wake, ms, with its drift. */
  wakeIntervalMs(): number {
    return this.wakeS * 1000 * (1 + this.driftPpm / 1e6);
  }

  /** A random first wake within one interval, ms from now. */
  firstWakeMs(): number {
    return this.rng.between(0, this.wakeIntervalMs());
  }

  distanceM(): number {
    return Math.hypot(this.x, this.y);
  }

  /** Temperature now, °C: its spot's base plus a slow daily swing and a little noise. */
  temperature(now: number): number {
    const day = Math.sin((2 * Math.PI * (now % 86_400_000)) / 86_400_000);
    return Math.round((this.baseTemp + 1.5 * day + this.rng.normal(0, 0.1)) * 10) / 10;
  }

  /** The image it shows, or null (new, or a reboot lost it). */
  screen(): Screen | null {
    return this.screenState;
  }

  /** The version it reports: that of its screen. */
  get ver(): string | null {
    return this.screenState?.ver ?? null;
  }

  /** True while its battery is below `lowBatteryMv`: it takes no picture. */
  refusesForBattery(): boolean {
    return this.lowBatteryMv !== null && this.battMv < this.lowBatteryMv;
  }

  /** Spends battery: a little per wake, more per transfer. */
  spend(airMs: number): void {
    this.battMv = Math.max(2000, this.battMv - 0.002 - airMs * 0.0005);
  }

  /**
   * Takes the bytes of an image: decodes them, checks they fit its panel, and hashes what it
   * decoded by packing the planes again — a wrong byte anywhere gives another hash.
   */
  receive(bytes: Uint8Array): ReceiveResult {
    const got = this.decode(bytes);
    if (got.ok) {
      this.screenState = got.screen;
      this.transfers++;
      this.firstPage();
    }
    return got;
  }

  /** Pages of the label it holds (docs/PROTOCOL.md §5.15): its image's height over its panel's. */
  pages(): number {
    const image = this.screenState?.image;
    if (!image) return 0;
    return image.width === this.model.w ? image.height / this.model.h : image.height / this.model.w;
  }

  /**
   * Shows page `page` of what it holds (a `page` job or its button); answers the switch's number
   * for `backToFirst`, or null when it holds no such page.
   */
  showPage(page: number): number | null {
    if (page < 1 || page > this.pages()) return null;
    this.page = page;
    return ++this.pageSwitch;
  }

  /** Its button: the next page (after the last, the first); null when it holds one page. */
  pressButton(): number | null {
    this.reason = 'button';
    const n = this.pages();
    if (n < 2) return null;
    return this.showPage(this.page >= n ? 1 : this.page + 1);
  }

  /** Its stay timer ran out: back to page 1, when switch `n` is still the latest; true when it went back. */
  backToFirst(n: number): boolean {
    if (n !== this.pageSwitch || this.page === 1) return false;
    this.page = 1;
    return true;
  }

  /** Takes a switch to happen later (§5.15 rule 5); answers its number for `heldPageDue`. */
  holdPage(): number {
    return ++this.pageHold;
  }

  /** True when held switch `n` is still the latest (no newer one, no new picture since). */
  heldPageDue(n: number): boolean {
    return n === this.pageHold;
  }

  private firstPage(): void {
    this.page = 1;
    this.pageSwitch++;
    this.pageHold++;
  }

  /**
   * Takes a timed image (docs/PROTOCOL.md §5.14) into its second buffer: decoded and checked like
   * a picture it shows, kept beside the screen until `showHeld` (the station's timer at the
   * image's time) or `dropHeld` (withdrawn). A newer timed image replaces the held one.
   */
  hold(bytes: Uint8Array, at: number): ReceiveResult {
    const got = this.decode(bytes);
    if (got.ok) {
      this.heldState = { screen: got.screen, at, n: ++this.heldCount };
      this.transfers++;
    }
    return got;
  }

  /** The timed image it holds (not shown yet), with its time and a number that tells holds apart. */
  held(): { screen: Screen; at: number; n: number } | null {
    return this.heldState;
  }

  /** Shows the held image now (when it is still hold number `n`); true when it switched. */
  showHeld(n: number): boolean {
    if (!this.heldState || this.heldState.n !== n) return false;
    this.screenState = this.heldState.screen;
    this.heldState = null;
    this.firstPage();
    this.switches++;
    return true;
  }

  /** Forgets the held image without showing it. */
  dropHeld(): void {
    this.heldState = null;
  }

  private decode(bytes: Uint8Array): ReceiveResult {
    let image: IndexImage;
    let header: ReturnType<typeof readHeader>;
    try {
      header = readHeader(bytes);
      image = decodeTagImage(bytes);
    } catch {
      return { ok: false, reason: 'displayError' };
    }
    const { w, h } = this.model;
    // A label of several pages is one image of them stacked along the panel's height (§5.15).
    const stacked = (across: number, along: number) =>
      image.width === across && image.height % along === 0 && image.height / along >= 1 && image.height / along <= 8;
    const fits = stacked(w, h) || stacked(h, w);
    if (!fits || !this.model.colours.includes(image.colourType)) return { ok: false, reason: 'unsupported' };
    const planes = pack(image, { wext: header.wext, hexit: header.hexit });
    const hash = contentHash(planes, {
      colourType: image.colourType,
      width: image.width,
      height: image.height,
      wext: header.wext,
      hexit: header.hexit,
      packedLength: planes.length,
    });
    return { ok: true, screen: { image, hash, ver: hash.slice(0, 16), bytes: bytes.slice() } };
  }

  /** Writes its NFC content (kept across reboots: the NFC chip's memory is not the screen's). */
  writeNfc(content: NfcPayload): void {
    this.nfc = { ...content };
    this.nfcWrites++;
  }

  flash(pattern: LedPattern): void {
    this.flashes.push(pattern);
  }

  /** Restarts the tag; by default it loses its picture (what OEPL users script a resend for). */
  reboot({ losePicture = true }: { losePicture?: boolean } = {}): void {
    if (losePicture) {
      this.screenState = null;
      this.heldState = null;
    }
    this.firstPage();
    this.reason = 'boot';
  }

  moveTo(x: number, y: number): void {
    this.x = x;
    this.y = y;
  }
}
