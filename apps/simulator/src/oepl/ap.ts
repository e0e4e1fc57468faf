import { createHash } from 'node:crypto';
import jpeg from 'jpeg-js';
import type { VirtualClock } from '../clock';
import { Random } from '../random';
import { mapToPalette } from './palette';
import { EmuTag, NEVER_UPDATE } from './tag';
import { rawBytes } from './types';

/** Radio time of one 296×128 two-plane image (9,472 bytes), the field figure. */
export const TRANSFER_MS_296x128 = 3900;
const CHECKIN_MS = 40_000;
/** When more is queued for a tag, it is offered again this soon. */
const AGAIN_MS = 5000;
const NEVER = 3216153600;

export interface EmuApOptions {
  clock: VirtualClock;
  seed?: string | number;
  /** Tags to make: MAC (16 hex), hwType, and whether it has NFC (default: its type's, EMU_NFC_TYPES). */
  tags?: { mac: string; hwType: number; nfc?: boolean }[];
  /** Tags another AP serves (`apip` its address): listed with `isexternal`, never talked to. */
  external?: { mac: string; hwType: number; apip: string }[];
  maxsleep?: number;
  stopsleep?: number;
  alias?: string;
}

/** A reply of the AP's HTTP interface. */
export interface EmuReply {
  status: number;
  text: string;
}

/**
 * An emulated OpenEPaperLink access point, written to its documented behaviour (../shared/OEPL.md):
 * tags check in every 40 s (up to `maxsleep` when idle, 40 s while a WebSocket client holds
 * `stopsleep` = 1), one transfer at a time at ~3.9 s per 296×128 two-plane image, a queue per tag
 * that delivers every superseded image in turn, transfer timeouts, reboots that lose the queue.
 * The HTTP and WebSocket faces are in http.ts; everything runs on the virtual clock.
 */
export class OeplApEmulator {
  readonly tags = new Map<string, EmuTag>();
  readonly config: { alias: string; channel: number; maxsleep: number; stopsleep: number; [k: string]: unknown };
  apstate = 1;
  runstate = 2;
  /** How many `/imgupload` requests arrived whole, before the AP looks at them (for figures). */
  received = 0;
  /** Every `/imgupload` that was queued or compared: MAC, dither, virtual time. */
  readonly uploads: { mac: string; dither: number; at: number; status: number; bytes: number }[] = [];
  /** WebSocket clients connected (http.ts keeps it). */
  wsClients = 0;
  /** A radio that hears nothing while the AP looks healthy (the field failure). */
  radioDead = false;
  /** A slow WebSocket (tests): every message reaches its clients this much later, in order, ms. */
  socketLagMs = 0;
  timeSet: number | null = null;
  lowbattcount = 0;
  timeoutcount = 0;
  private readonly clock: VirtualClock;
  private readonly rng: Random;
  private readonly listeners = new Set<(msg: Record<string, unknown>) => void>();
  private readonly rebootListeners = new Set<() => void>();
  private readonly waiting: EmuTag[] = [];
  private transferring: EmuTag | null = null;
  private generation = 0;
  private bootedAt: number;
  private timeOffsetMs = 0;
  private sysTimer: number | null = null;
  private contentTimer: number | null = null;
  private sysCount = 0;
  /** Busy radio time and time with work waiting (the bench's utilisation). */
  readonly radio = { busyMs: 0, transfers: 0 };

  constructor(options: EmuApOptions) {
    this.clock = options.clock;
    this.rng = new Random(options.seed ?? 'oepl-ap');
    this.config = {
      alias: options.alias ?? 'Emulated AP',
      channel: 11,
      maxsleep: options.maxsleep ?? 10,
      stopsleep: options.stopsleep ?? 1,
      led: 255,
      preview: 1,
      lock: 0,
      nightlyreboot: 0,
    };
    this.bootedAt = this.clock.now();
    for (const t of options.tags ?? []) this.addTag(t.mac, t.hwType, t.nfc);
    for (const t of options.external ?? []) this.addExternalTag(t.mac, t.hwType, t.apip);
  }

  /** AP time, Unix seconds. */
  apNow(): number {
    return Math.floor((this.clock.now() + this.timeOffsetMs) / 1000);
  }

  /** The tag on the air now, if any. */
  get transferringMac(): string | null {
    return this.transferring?.mac ?? null;
  }

  get running(): boolean {
    return this.runstate === 2;
  }

  onMessage(fn: (msg: Record<string, unknown>) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onReboot(fn: () => void): void {
    this.rebootListeners.add(fn);
  }

  private send(msg: Record<string, unknown>): void {
    if (this.socketLagMs > 0) {
      this.clock.setTimeout(() => {
        for (const fn of this.listeners) fn(msg);
      }, this.socketLagMs);
      return;
    }
    for (const fn of this.listeners) fn(msg);
  }

  private log(line: string): void {
    this.send({ logMsg: line });
  }

  private tagMessage(tag: EmuTag): void {
    this.send({ tags: [tag.record()] });
  }

  addTag(mac: string, hwType: number, nfc?: boolean): EmuTag {
    const tag = new EmuTag(mac.toUpperCase(), hwType, this.rng.fork(mac), nfc);
    this.tags.set(tag.mac, tag);
    tag.nextcheckin = NEVER;
    this.schedule(tag, this.rng.between(0, CHECKIN_MS));
    return tag;
  }

  /**
   * A tag another AP serves, as multi-AP shops sync their databases: in this AP's lists and its
   * WebSocket with `isexternal` and `apip`, never checking in here, never sent an image from here.
   */
  addExternalTag(mac: string, hwType: number, apip: string): EmuTag {
    this.clock.clear(this.tags.get(mac.toUpperCase())?.timer ?? null); // a tag that moved away
    const tag = new EmuTag(mac.toUpperCase(), hwType, this.rng.fork(mac));
    tag.servedBy = apip;
    this.tags.set(tag.mac, tag);
    this.tagMessage(tag);
    return tag;
  }

  start(): void {
    this.sysTimer = this.clock.setInterval(() => this.sys(), 5000);
    this.contentTimer = this.clock.setInterval(() => this.contentRunner(), 1000);
  }

  stop(): void {
    this.clock.clear(this.sysTimer);
    this.clock.clear(this.contentTimer);
    for (const t of this.tags.values()) this.clock.clear(t.timer);
    this.generation++;
  }

  // ------------------------------------------------------------------------------------------
  // Tags checking in

  /** The interval the AP gives an idle tag, ms. */
  private idleMs(): number {
    if (this.config.stopsleep === 1 && this.wsClients > 0) return CHECKIN_MS;
    return Math.max(CHECKIN_MS, this.config.maxsleep * 60_000);
  }

  private schedule(tag: EmuTag, ms: number): void {
    this.clock.clear(tag.timer);
    tag.timer = this.clock.setTimeout(() => this.checkIn(tag), ms);
  }

  /** Wakes a tag now with a reason (4: button 1), as a press does. */
  pressButton(mac: string, reason = 4): void {
    const tag = this.tags.get(mac);
    if (!tag) throw new RangeError(`no tag ${mac}`);
    tag.wakeupReason = reason;
    this.checkIn(tag);
  }

  private checkIn(tag: EmuTag): void {
    const waitMs = tag.queue.length > 0 ? CHECKIN_MS : this.idleMs();
    this.schedule(tag, waitMs);
    if (!tag.alive || !this.running || this.radioDead) return;
    tag.checkIns++;
    tag.lastseen = this.apNow();
    tag.nextcheckin = tag.lastseen + Math.round(waitMs / 1000);
    this.tagMessage(tag);
    tag.wakeupReason = 0;
    if (tag.queue.length > 0 && tag !== this.transferring && !this.waiting.includes(tag)) {
      this.waiting.push(tag);
      this.nextTransfer();
    }
  }

  // ------------------------------------------------------------------------------------------
  // One transfer at a time

  private nextTransfer(): void {
    if (this.transferring || !this.running) return;
    const tag = this.waiting.shift();
    if (!tag) return;
    const item = tag.queue[0];
    if (!item) {
      this.nextTransfer();
      return;
    }
    this.transferring = tag;
    const ms = (TRANSFER_MS_296x128 * item.bytes) / 9472;
    const gen = this.generation;
    for (let b = 0; b * 4096 < item.bytes; b++) {
      this.log(`${tag.mac} block request /current/${tag.mac}_${item.at}.pending block ${b}`);
    }
    this.clock.setTimeout(() => {
      if (gen !== this.generation) return; // rebooted meanwhile
      this.radio.busyMs += ms;
      this.radio.transfers++;
      this.transferring = null;
      this.endTransfer(tag);
      this.nextTransfer();
    }, ms);
  }

  private endTransfer(tag: EmuTag): void {
    if (tag.timeoutsToCome > 0) {
      tag.timeoutsToCome--;
      this.timeoutcount++;
      this.send({ errMsg: `${tag.mac} xfer timeout` });
      return; // the item stays queued: the tag tries again at its next check-in
    }
    const item = tag.queue.shift();
    if (!item) return;
    // Whatever was sent, the AP keeps its MD5 as the tag's hash and counts an update: an NFC
    // record too, though the screen stays as it was.
    tag.hash = item.md5;
    if (item.nfc !== undefined) {
      tag.nfc = item.nfc;
      tag.nfcWrites++;
    } else {
      tag.screen = { width: tag.type.width, height: tag.type.height, indices: item.indices, md5: item.md5 };
      tag.imageWrites++;
    }
    tag.updatecount++;
    tag.updatelast = this.apNow();
    tag.lastseen = this.apNow();
    this.log(`${tag.mac} reports xfer complete`);
    if (tag.queue.length > 0) {
      this.schedule(tag, AGAIN_MS);
      tag.nextcheckin = tag.lastseen + AGAIN_MS / 1000;
    }
    this.tagMessage(tag);
  }

  // ------------------------------------------------------------------------------------------
  // What the HTTP interface does

  /**
   * `/imgupload`: a JPEG at the type's size, mapped to its palette (dither 0), queued for the tag.
   * As on the AP, the upload sets the tag's content mode (`contentmode`, 24 when not given) and its
   * settings (the file): a `/save_cfg` not drawn yet is overwritten. The emulator converts at once.
   */
  upload(mac: string, file: Uint8Array, dither: number, contentmode = 24): EmuReply {
    this.received++;
    if (!this.running) return { status: 409, text: 'Come back later' };
    const tag = this.tags.get(mac.toUpperCase());
    if (!tag) return { status: 400, text: 'mac not found' };
    // Counted, so a test sees an upload sent to the wrong AP; this AP cannot deliver it.
    if (tag.servedBy !== null) {
      this.uploads.push({ mac: tag.mac, dither, at: this.clock.now(), status: 400, bytes: file.length });
      return { status: 400, text: 'tag is served by another AP' };
    }
    let img: { width: number; height: number; data: Uint8Array };
    try {
      img = jpeg.decode(file, { useTArray: true, formatAsRGBA: true });
    } catch {
      return { status: 400, text: 'not a JPEG' };
    }
    const { width, height } = tag.type;
    if (img.width !== width || img.height !== height) return { status: 400, text: 'wrong size' };
    const indices = mapToPalette(img.data, Object.values(tag.type.colortable));
    const md5 = createHash('md5').update(indices).digest('hex');
    this.uploads.push({ mac: tag.mac, dither, at: this.clock.now(), status: 200, bytes: file.length });
    tag.contentMode = contentmode;
    tag.modecfgjson = JSON.stringify({ filename: `/temp/${tag.mac}_${this.clock.now()}.jpg`, delete: '1' });
    tag.nextupdate = NEVER_UPDATE;
    const last = tag.queue.at(-1)?.md5 ?? tag.hash;
    if (md5 === last) {
      this.log('new image is the same as current image. not updating tag.');
      return { status: 200, text: 'Ok, saved' };
    }
    this.log(`new image: /current/${tag.mac}.jpg`);
    tag.queue.push({ md5, indices, bytes: rawBytes(tag.type), at: this.clock.now() });
    this.tagMessage(tag);
    return { status: 200, text: 'Ok, saved' };
  }

  tagCmd(mac: string, cmd: string): EmuReply {
    const tag = this.tags.get(mac.toUpperCase());
    if (!tag) return { status: 400, text: 'mac not found' };
    if (cmd === 'refresh' && tag.contentMode === 14) {
      // The AP draws the tag's content again, whatever its mode: in mode 14 that is the NFC record.
      tag.nextupdate = 0;
    } else if (cmd === 'refresh' && tag.screen) {
      const s = tag.screen;
      tag.queue.push({ md5: s.md5, indices: s.indices, bytes: rawBytes(tag.type), at: this.clock.now() });
    } else if (cmd === 'reboot') {
      tag.wakeupReason = 1;
    } else if (cmd === 'scan') {
      tag.wakeupReason = 0xfd;
    } else if (cmd === 'del') {
      this.clock.clear(tag.timer);
      this.tags.delete(tag.mac);
    }
    if (this.tags.has(tag.mac)) this.tagMessage(tag);
    return { status: 200, text: 'Ok, done' };
  }

  ledFlash(mac: string, pattern: string): EmuReply {
    const tag = this.tags.get(mac.toUpperCase());
    if (!tag) return { status: 400, text: 'mac not found' };
    if (!/^[0-9A-Fa-f]{24}$/.test(pattern)) return { status: 400, text: 'bad pattern' };
    tag.flashes.push(pattern.toUpperCase());
    return { status: 200, text: 'Ok, done' };
  }

  /**
   * `/save_cfg`: a tag's content mode and its settings (`modecfgjson`), alias, rotation, LUT;
   * `nextupdate` 0, so the AP draws the content once the tag is due (contentRunner). The AP answers
   * 200 even for a MAC it does not know, with its error in the text.
   */
  saveTagConfig(fields: Record<string, string>): EmuReply {
    const tag = this.tags.get((fields.mac ?? '').toUpperCase());
    if (!tag) return { status: 200, text: 'Error while saving: mac not found' };
    if (fields.contentmode !== undefined) tag.contentMode = Number(fields.contentmode);
    if (fields.modecfgjson !== undefined) tag.modecfgjson = fields.modecfgjson;
    tag.nextupdate = 0;
    this.tagMessage(tag);
    return { status: 200, text: 'Ok, saved' };
  }

  /**
   * The AP's content loop: a tag whose `nextupdate` has come is drawn when it is due within 300 s
   * (or every tag, while a WebSocket client holds `stopsleep` 1). Content mode 14 queues its NFC
   * URL record (an NDEF URI record in a TLV, as the NFC Forum type 2 layout has it); an image mode
   * without a file to draw queues nothing. Either way nothing more is drawn until told.
   */
  private contentRunner(): void {
    if (!this.running) return;
    const now = this.apNow();
    const awake = this.config.stopsleep === 1 && this.wsClients > 0;
    for (const tag of this.tags.values()) {
      if (tag.servedBy !== null || tag.nextupdate > now || !(awake || tag.nextcheckin < now + 300)) continue;
      tag.nextupdate = NEVER_UPDATE;
      this.log(`Updating ${tag.mac}`);
      if (tag.contentMode !== 14) continue;
      let url = '';
      try {
        url = String((JSON.parse(tag.modecfgjson) as { url?: unknown }).url ?? '');
      } catch {
        url = '';
      }
      if (!url) continue;
      const record = nfcUrlRecord(url);
      const md5 = createHash('md5').update(record).digest('hex');
      tag.queue.push({ md5, indices: new Uint8Array(0), bytes: record.length, at: this.clock.now(), nfc: url });
      this.tagMessage(tag);
    }
  }

  saveConfig(fields: Record<string, string>): EmuReply {
    for (const [k, v] of Object.entries(fields)) {
      const n = Number(v);
      this.config[k] = k === 'alias' || Number.isNaN(n) ? v : n;
    }
    return { status: 200, text: 'Ok, saved' };
  }

  setTime(epoch: number): EmuReply {
    if (!(epoch > 1.6e9)) return { status: 400, text: 'Error: epoch too small' };
    this.timeOffsetMs = epoch * 1000 - this.clock.now();
    this.timeSet = epoch;
    return { status: 200, text: 'Ok, time set' };
  }

  /**
   * Restarts: "REBOOTING" on the WebSocket, every connection closed, 409 until it runs again after
   * `downMs`; the queue (in RAM) and a transfer on the air are lost, the tag database is kept.
   */
  reboot(downMs = 10_000): EmuReply {
    this.send({ errMsg: 'REBOOTING' });
    this.generation++;
    this.runstate = 3;
    this.apstate = 6;
    this.transferring = null;
    this.waiting.length = 0;
    for (const t of this.tags.values()) t.queue.length = 0;
    this.clock.setTimeout(() => {
      for (const fn of this.rebootListeners) fn();
    }, 1);
    this.clock.setTimeout(() => {
      this.runstate = 2;
      this.apstate = 1;
      this.bootedAt = this.clock.now();
    }, downMs);
    return { status: 200, text: 'Ok, rebooting' };
  }

  private sys(): void {
    this.sysCount++;
    const now = this.apNow();
    this.lowbattcount = [...this.tags.values()].filter((t) => t.batteryMv > 0 && t.batteryMv < 2400).length;
    const sys: Record<string, unknown> = {
      currtime: now,
      heap: 180_000,
      recordcount: this.tags.size,
      dbsize: this.tags.size * 168,
      littlefsfree: 900_000,
      apstate: this.apstate,
      runstate: this.runstate,
      rssi: -60,
      wifistatus: 3,
      wifissid: 'shop',
      uptime: Math.floor((this.clock.now() - this.bootedAt) / 1000),
    };
    if (this.sysCount % 12 === 0)
      Object.assign(sys, { lowbattcount: this.lowbattcount, timeoutcount: this.timeoutcount });
    this.send({ sys });
  }

  /** `/sysinfo`. */
  sysinfo(): Record<string, unknown> {
    return { alias: this.config.alias, env: 'emulator', buildversion: '2.85', sha: 'emulated', ap_version: 1 };
  }
}

/**
 * An NFC URL as a tag's NFC memory takes it (NFC Forum: an NDEF message TLV holding one
 * short well-known URI record, URI identifier code 0 for "no prefix", then the terminator TLV).
 */
export function nfcUrlRecord(url: string): Uint8Array {
  const text = new TextEncoder().encode(url);
  const payload = 1 + text.length;
  const record = [0xd1, 0x01, payload, 0x55, 0x00, ...text];
  return Uint8Array.from([0x03, record.length, ...record, 0xfe]);
}
