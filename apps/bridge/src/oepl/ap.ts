import type { LedPattern, NfcPayload, TagEntry } from '@esl/contract/protocol';
import type { IndexImage } from '@esl/labels';
import type { Clock } from '@esl/station';
import type WebSocket from 'ws';
import type { AccessPointAdapter, AdapterHealth, TagOutcome } from '../adapter';
import { type ApReply, OeplClient } from './client';
import { Deliveries, type DeliveryOptions } from './delivery';
import { lowBattery, tagEntry } from './inventory';
import { toJpeg } from './jpeg';
import { ledPattern } from './led';
import { type LearnedModel, mapTagType, type TypeMapping } from './models';
import { CAP, normalMac, type OeplSys, type OeplTag } from './types';

/** Content mode of uploaded images (the bridge's uploads use it) and of the AP's NFC URL record. */
export const CONTENT_MODE = { image: 25, nfcUrl: 14 } as const;
/**
 * Longest NFC URL the AP writes, UTF-8 bytes: its record is one NDEF short record in a TLV whose
 * one-byte length holds the URL and 5 bytes more (a length of 255 means something else).
 */
export const NFC_URL_MAX_BYTES = 249;

export interface OeplOptions extends DeliveryOptions {
  /** The AP's address, `http://HOST[:PORT]`. */
  url: string;
  clock: Clock;
  /** Server time (the station's clock corrected by the welcome): tag reports are stamped in it. */
  serverNow?: () => number;
  /** Pause between two uploads to the AP, ms (the AP converts each JPEG on its own CPU). */
  paceMs?: number;
  /** Uploads waiting at the AP at most (different tags), so it never holds stale work. */
  maxQueued?: number;
  /** Tags silent this long while the AP is up mean its radio failed, ms. */
  staleMs?: number;
  log?: (line: string) => void;
  /** A tag record changed (a report is due) or a slot freed up (work may go). */
  onChange?: () => void;
}

/**
 * The downward half for one OpenEPaperLink access point: HTTP and the WebSocket (docs/OEPL.md).
 * It holds `/ws` open (so it sets `stopsleep=0`), keeps the tag table from `/backup_db`, the `tags`
 * stream and `/get_db?mac=`, reads each hwType's tag type from the AP, and delivers images through
 * `Deliveries` (one upload in flight per tag, confirmed only by the tag's transfer).
 */
export class OeplAccessPoint implements AccessPointAdapter {
  readonly kind = 'OpenEPaperLink access point';
  readonly client: OeplClient;
  readonly records = new Map<string, OeplTag>();
  readonly types = new Map<number, TypeMapping>();
  readonly deliveries: Deliveries;
  /** Which version of our images each tag was confirmed showing, with the AP's hash then. */
  readonly shown = new Map<string, { ver: string; hash: string }>();
  /** The NFC URL each tag was confirmed holding (docs/PROTOCOL.md §5.16 rule 2: the same again is skipped). */
  readonly nfcWritten = new Map<string, string>();
  sys: OeplSys | null = null;
  sysAt = 0;
  info = { alias: '', version: '', channel: 0, maxsleep: 10 };
  alarms: string[] = [];
  private ws: WebSocket | null = null;
  private stopped = false;
  private connected = false;
  private apToServerMs = 0;
  private attachedAt = 0;
  private lastUploadAt = 0;
  /** Deliveries from their start (type, JPEG) to their end. */
  private delivering = 0;
  private readonly typeLoads = new Map<number, Promise<void>>();
  private reconnectTimer: number | null = null;
  private sweepTimer: number | null = null;
  private readonly opts: OeplOptions & { paceMs: number; maxQueued: number; staleMs: number };

  constructor(options: OeplOptions) {
    this.opts = { paceMs: 250, maxQueued: 16, staleMs: 15 * 60_000, ...options };
    this.client = new OeplClient(options.url);
    this.deliveries = new Deliveries(
      options.clock,
      {
        upload: (mac, jpeg) => this.upload(mac, jpeg),
        refresh: (mac) => this.client.tagCmd(mac, 'refresh'),
        writeNfc: (mac, url) =>
          this.client.saveTagConfig(mac, { contentmode: CONTENT_MODE.nfcUrl, modecfgjson: JSON.stringify({ url }) }),
        record: (mac) => this.records.get(mac) ?? null,
      },
      options,
      (line) => this.log(line),
    );
  }

  get online(): boolean {
    return this.connected && this.sys !== null && this.sys.runstate === 2;
  }

  private log(line: string): void {
    this.opts.log?.(`[oepl ${this.client.base}] ${line}`);
  }

  // ------------------------------------------------------------------------------------------
  // Connection

  /** Reads the AP, sets stopsleep=0 and its clock, loads the tag table and opens the WebSocket. */
  async start(): Promise<void> {
    this.sweepTimer = this.opts.clock.setInterval(() => this.tick(), 1000);
    await this.attach().catch((err: Error) => {
      this.log(`attach failed: ${err.message}`);
      this.scheduleReconnect();
    });
  }

  private async attach(): Promise<void> {
    const [sysinfo, cfg] = await Promise.all([this.client.sysinfo(), this.client.apConfig()]);
    this.info = {
      alias: String(cfg.alias ?? sysinfo.alias ?? ''),
      version: String(sysinfo.buildversion ?? sysinfo.ap_version ?? 'unknown'),
      channel: Number(cfg.channel ?? 0),
      maxsleep: Number(cfg.maxsleep ?? 10),
    };
    // Holding /ws open with stopsleep=1 keeps every tag awake and drains its battery.
    if (Number(cfg.stopsleep ?? 1) !== 0) await this.client.saveApConfig({ stopsleep: 0 });
    await this.client
      .setTime((this.opts.serverNow?.() ?? this.opts.clock.now()) / 1000)
      .catch(() => ({ status: 0, text: '' }));
    await this.openSocket();
    this.attachedAt = this.opts.clock.now();
    for (const rec of await this.client.backupDb()) this.onRecord(rec);
    this.deliveries.afterReconnect();
    this.log(`attached: ${this.records.size} tags, firmware ${this.info.version}, channel ${this.info.channel}`);
    this.opts.onChange?.();
  }

  private openSocket(): Promise<void> {
    const ws = this.client.socket();
    this.ws = ws;
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        this.connected = true;
        resolve();
      });
      ws.once('error', (err) => reject(err));
      ws.on('message', (data) => this.onSocketMessage(String(data)));
      ws.on('close', () => {
        if (this.ws !== ws) return;
        this.ws = null;
        this.connected = false;
        this.deliveries.linesLost();
        this.log('WebSocket closed');
        this.opts.onChange?.();
        this.scheduleReconnect();
      });
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer !== null) return;
    this.reconnectTimer = this.opts.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped || this.connected) return;
      void this.attach().catch((err: Error) => {
        this.log(`reconnect failed: ${err.message}`);
        this.ws?.terminate();
        this.ws = null;
        this.connected = false;
        this.scheduleReconnect();
      });
    }, 2000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.opts.clock.clear(this.sweepTimer);
    this.opts.clock.clear(this.reconnectTimer);
    this.deliveries.abandon();
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  private onSocketMessage(text: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    if (msg.sys) this.onSys(msg.sys as OeplSys);
    if (Array.isArray(msg.tags)) for (const rec of msg.tags as OeplTag[]) this.onRecord(rec);
    for (const key of ['logMsg', 'errMsg'] as const) {
      const line = msg[key];
      if (typeof line !== 'string') continue;
      if (line.includes('REBOOTING')) this.onRebooting();
      this.deliveries.onLine(line);
      this.opts.onChange?.();
    }
  }

  private onSys(sys: OeplSys): void {
    const was = this.online;
    this.sys = sys;
    if (this.online !== was) this.opts.onChange?.();
    this.sysAt = this.opts.clock.now();
    this.apToServerMs = (this.opts.serverNow?.() ?? this.opts.clock.now()) - sys.currtime * 1000;
  }

  /** "REBOOTING": the socket will die; reconnect and re-check what was in flight. */
  private onRebooting(): void {
    this.log('the AP is rebooting');
    this.ws?.terminate();
  }

  // ------------------------------------------------------------------------------------------
  // Tags

  private onRecord(raw: OeplTag): void {
    const rec = { ...raw, mac: normalMac(raw.mac) };
    // Served by another AP (a multi-AP shop): the AP that serves it reports it and takes its
    // images (the bridge routes a tag's jobs to the AP that has it, Bridge.apFor). A tag that moved
    // here from this AP is forgotten, so its jobs go to its new AP.
    if (rec.isexternal) {
      this.records.delete(rec.mac);
      return;
    }
    this.records.set(rec.mac, rec);
    const shown = this.shown.get(rec.mac);
    if (shown && shown.hash !== rec.hash && rec.pending === 0) {
      // The AP keeps the MD5 of whatever it sent last as the tag's hash: while an NFC record is
      // on its way that is the record's, and the screen still shows our picture.
      if (this.deliveries.writingNfc(rec.mac)) shown.hash = rec.hash;
      else this.shown.delete(rec.mac); // changed behind us
    }
    if (!this.types.has(rec.hwType)) void this.loadType(rec.hwType, rec.capabilities);
    this.deliveries.onRecord(rec);
    this.opts.onChange?.();
  }

  private loadType(hwType: number, capabilities: number): Promise<void> {
    let p = this.typeLoads.get(hwType);
    if (!p) {
      p = this.client
        .tagType(hwType)
        .then((type) => {
          const m = mapTagType(hwType, type, capabilities, this.info.alias || this.client.base);
          this.types.set(hwType, m);
          this.log(
            `tag type ${hwType}: ${type.name} → ${m.model ? `model ${m.model.code}` : `learned ${m.learned?.key}`}`,
          );
          this.opts.onChange?.();
        })
        .catch((err: Error) => {
          this.log(`tag type ${hwType}: ${err.message}`);
          this.typeLoads.delete(hwType);
        });
      this.typeLoads.set(hwType, p);
    }
    return p;
  }

  /** The models learned from this AP's tag types (the catalogue lacks them). */
  models(): LearnedModel[] {
    return [...this.types.values()].flatMap((m) => (m.learned ? [m.learned] : []));
  }

  /** Our report entries for every tag whose type is read (a catalogue model or a learned one). */
  tagEntries(): TagEntry[] {
    const out: TagEntry[] = [];
    for (const rec of this.records.values()) {
      const shown = this.shown.get(rec.mac);
      const ver = shown && shown.hash === rec.hash ? shown.ver : null;
      const e = tagEntry(rec, this.types.get(rec.hwType), ver, this.apToServerMs);
      if (e) out.push(e);
    }
    return out;
  }

  has(mac: string): boolean {
    return this.records.has(mac);
  }

  // ------------------------------------------------------------------------------------------
  // Delivery

  /** True when an image for this tag may go now: none in flight for it, pacing and the AP's queue allow. */
  canDeliver(mac: string): boolean {
    if (!this.online || this.deliveries.busy(mac)) return false;
    if (this.delivering >= this.opts.maxQueued) return false;
    return this.opts.clock.now() - this.lastUploadAt >= this.opts.paceMs;
  }

  /** Sends our image to a tag and resolves when the tag shows it, or failed. */
  async deliver(mac: string, image: IndexImage, ver: string, force: boolean): Promise<TagOutcome> {
    // Counted from the first moment (the type may still load), so `canDeliver` holds the limits.
    this.delivering++;
    this.lastUploadAt = this.opts.clock.now();
    try {
      return await this.deliverNow(mac, image, ver, force);
    } finally {
      this.delivering--;
    }
  }

  private async deliverNow(mac: string, image: IndexImage, ver: string, force: boolean): Promise<TagOutcome> {
    const rec = this.records.get(mac);
    if (!rec) return { code: 'unknownTag', tries: 0, why: 'not on this AP' };
    await this.loadType(rec.hwType, rec.capabilities);
    const mapping = this.types.get(rec.hwType);
    if (!mapping) return { code: 'unsupported', tries: 0, why: `tag type ${rec.hwType} unknown to the AP` };
    const shown = this.shown.get(mac);
    const showing = shown?.ver === ver && shown.hash === rec.hash;
    if (!force && showing) return { code: 'skipped', tries: 0, why: 'shown' };
    let jpeg: Uint8Array | null = null;
    try {
      // Forced and already shown: the AP would skip an equal upload, so it is told to send it again.
      if (!showing) jpeg = toJpeg(image, mapping.type);
    } catch (err) {
      return { code: 'unsupported', tries: 0, why: (err as Error).message };
    }
    const out = await this.deliveries.deliver(mac, jpeg);
    if (out.code === 'ok' || out.code === 'skipped') {
      this.shown.set(mac, { ver, hash: this.records.get(mac)?.hash ?? '' });
    }
    this.opts.onChange?.();
    return out;
  }

  private upload(mac: string, jpeg: Uint8Array): Promise<ApReply> {
    this.lastUploadAt = this.opts.clock.now();
    // No dithering: the AP maps each pixel to the nearest colour, which is exactly ours.
    return this.client.upload(mac, jpeg, { dither: 0, contentmode: CONTENT_MODE.image });
  }

  // ------------------------------------------------------------------------------------------
  // NFC

  /**
   * Writes a tag's NFC URL (docs/OEPL.md "NFC"): the AP's content mode 14 through `/save_cfg`,
   * sent as data at the tag's check-in and confirmed as a picture is (its transfer). The same
   * content mode setting carries our uploads, so it runs as a delivery of its own (no picture for
   * the tag in flight meanwhile, either way), and once it ends the tag's mode goes back to 25:
   * a refresh or a tag's reboot would otherwise send the URL again instead of the picture.
   */
  async nfc(mac: string, content: NfcPayload, force: boolean): Promise<TagOutcome> {
    const rec = this.records.get(mac);
    if (!rec) return { code: 'unknownTag', tries: 0, why: 'not on this AP' };
    if ((rec.capabilities & CAP.nfc) === 0) {
      return { code: 'unsupported', tries: 0, why: 'the tag has no NFC (the AP does not list capability 0x40 for it)' };
    }
    if (content.type !== 'uri') {
      return { code: 'unsupported', tries: 0, why: 'an OpenEPaperLink AP writes only NFC URLs, not text records' };
    }
    if (Buffer.byteLength(content.value, 'utf8') > NFC_URL_MAX_BYTES) {
      return { code: 'unsupported', tries: 0, why: `the URL is longer than the AP's ${NFC_URL_MAX_BYTES} bytes` };
    }
    if (!force && this.nfcWritten.get(mac) === content.value) return { code: 'skipped', tries: 0, why: 'written' };
    this.delivering++;
    this.lastUploadAt = this.opts.clock.now();
    try {
      const out = await this.deliveries.writeNfc(mac, content.value);
      if (out.code === 'ok') this.nfcWritten.set(mac, content.value);
      else this.nfcWritten.delete(mac);
      if (out.code !== 'unknownTag') await this.restoreImageMode(mac);
      this.opts.onChange?.();
      return out;
    } finally {
      this.delivering--;
    }
  }

  /** The tag's content mode back to our uploads' (an upload would set it too; a refresh would not). */
  private async restoreImageMode(mac: string): Promise<void> {
    const r = await this.client
      .saveTagConfig(mac, { contentmode: CONTENT_MODE.image, modecfgjson: '{}' })
      .catch((err: Error) => ({ status: 0, text: err.message }));
    if (r.status !== 200 || !/^ok/i.test(r.text.trim())) {
      this.log(`${mac}: content mode not set back to ${CONTENT_MODE.image}: ${r.status} ${r.text.trim()}`);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Operations

  async led(mac: string, pattern: LedPattern): Promise<TagOutcome> {
    const r = await this.client.ledFlash(mac, ledPattern(pattern));
    return r.status === 200 ? { code: 'ok', tries: 1, why: 'led' } : failed(r);
  }

  /** refresh, reboot, scan, … as `/tag_cmd` takes them. */
  async tagCommand(mac: string, cmd: string): Promise<TagOutcome> {
    const r = await this.client.tagCmd(mac, cmd);
    return r.status === 200 ? { code: 'ok', tries: 1, why: cmd } : failed(r);
  }

  async reboot(): Promise<ApReply> {
    return this.client.reboot();
  }

  // ------------------------------------------------------------------------------------------
  // Health

  private tick(): void {
    this.deliveries.sweep();
    this.checkRadio();
  }

  /** An AP that is up while every tag's last-seen is stale has lost its radio (a known field failure). */
  private checkRadio(): void {
    // Only once the AP has been watched for as long as a tag may stay silent.
    if (!this.online || this.records.size === 0 || this.opts.clock.now() - this.attachedAt < this.opts.staleMs) return;
    const apNowS = ((this.opts.serverNow?.() ?? this.opts.clock.now()) - this.apToServerMs) / 1000;
    const staleS = Math.max(this.opts.staleMs / 1000, 3 * this.info.maxsleep * 60);
    const fresh = [...this.records.values()].some((r) => apNowS - r.lastseen < staleS);
    // The protocol's alarm code (docs/PROTOCOL.md §6): the heartbeat carries it to the console.
    const alarm = 'radioSilent';
    if (!fresh && !this.alarms.includes(alarm)) {
      this.alarms.push(alarm);
      this.log(`ALARM ${alarm}: every tag silent while the AP is up`);
    } else if (fresh && this.alarms.includes(alarm)) {
      this.alarms = this.alarms.filter((a) => a !== alarm);
    }
  }

  health(): AdapterHealth {
    const sys = this.sys;
    const now = this.opts.clock.now();
    let low = 0;
    for (const r of this.records.values()) if (lowBattery(r.batteryMv)) low++;
    return {
      online: this.online && now - this.sysAt < 15_000,
      apstate: sys?.apstate ?? 0,
      runstate: sys?.runstate ?? 0,
      firmware: this.info.version,
      channel: this.info.channel,
      tags: this.records.size,
      lowBattery: sys?.lowbattcount ?? low,
      timeouts: sys?.timeoutcount ?? 0,
      heap: sys?.heap ?? 0,
      fsFree: sys?.littlefsfree ?? 0,
      inFlight: this.delivering,
      alarms: [...this.alarms],
    };
  }
}

const failed = (r: ApReply): TagOutcome => ({
  code: r.status === 400 ? 'unknownTag' : 'nack',
  tries: 1,
  why: `${r.status} ${r.text.trim()}`,
});
