import type { Random } from '../random';
import { EMU_NFC_TYPES, EMU_TAG_TYPES, type EmuTagType } from './types';

/**
 * Data waiting at the AP for its tag: an image (the palette indices) or an NFC URL record
 * (`nfc`, content mode 14), with the MD5 of the bytes sent.
 */
export interface QueuedImage {
  md5: string;
  indices: Uint8Array;
  bytes: number;
  /** When the upload was queued (virtual ms). */
  at: number;
  /** An NFC URL record, not an image: the URL the tag writes into its NFC chip. */
  nfc?: string;
}

/** `nextupdate` of a tag whose content is drawn: nothing to draw until told (the AP's "never"). */
export const NEVER_UPDATE = 3216153600;

/** What an emulated tag shows: the palette indices at the type's canvas size. */
export interface EmuScreen {
  width: number;
  height: number;
  indices: Uint8Array;
  md5: string;
}

/** One emulated OEPL tag and its record in the AP's database. */
export class EmuTag {
  readonly mac: string;
  readonly hwType: number;
  readonly type: EmuTagType;
  lastseen = 0;
  nextcheckin = 0;
  rssi: number;
  lqi: number;
  batteryMv: number;
  temperature: number;
  wakeupReason = 0xfc;
  capabilities: number;
  updatecount = 0;
  updatelast = 0;
  hash = '00000000000000000000000000000000';
  readonly queue: QueuedImage[] = [];
  screen: EmuScreen | null = null;
  /** LED patterns received, newest last. */
  readonly flashes: string[] = [];
  /** The tag's content mode (25: uploaded images, as the bridge sends them; 14: NFC URL) and its settings. */
  contentMode = 25;
  modecfgjson = '{}';
  /** When the AP draws the tag's content next (AP seconds); 0: as soon as the tag is due (`/save_cfg`). */
  nextupdate = NEVER_UPDATE;
  /** Has an NFC chip: reports capability bit 0x40 and writes NFC URL records. */
  readonly hasNfc: boolean;
  /** What its NFC chip holds (the URL last written), null: nothing yet. */
  nfc: string | null = null;
  /** NFC records written, and images taken (transfers that changed the screen), for tests. */
  nfcWrites = 0;
  imageWrites = 0;
  /** Check-ins so far. */
  checkIns = 0;
  /** The next transfers that time out (a test's fault). */
  timeoutsToCome = 0;
  /** false: the tag is gone (out of range, no battery): it never checks in. */
  alive = true;
  /** Its check-in timer. */
  timer: number | null = null;
  /**
   * Another AP serves this tag (a multi-AP shop): this AP lists it with `isexternal` and the
   * serving AP's address, and never talks to it itself.
   */
  servedBy: string | null = null;

  constructor(mac: string, hwType: number, rng: Random, nfc?: boolean) {
    const type = EMU_TAG_TYPES.get(hwType);
    if (!type) throw new RangeError(`emulated AP: no tag type ${hwType}`);
    this.mac = mac;
    this.hwType = hwType;
    this.type = type;
    this.rssi = Math.round(rng.between(-80, -50));
    this.lqi = Math.round(rng.between(80, 110));
    this.batteryMv = Math.round(rng.between(2600, 3000));
    this.temperature = Math.round(rng.between(18, 24));
    this.hasNfc = nfc ?? EMU_NFC_TYPES.has(hwType);
    this.capabilities =
      (type.options.includes('led') ? 0x01 : 0) |
      (type.options.includes('button') ? 0x20 : 0) |
      (this.hasNfc ? 0x40 : 0);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** The record as `/get_db`, `/backup_db` and the WebSocket `tags` message carry it. */
  record(): Record<string, unknown> {
    return {
      mac: this.mac,
      hash: this.hash,
      lastseen: this.lastseen,
      nextupdate: this.nextupdate,
      nextcheckin: this.nextcheckin,
      pending: this.pending,
      alias: '',
      contentMode: this.contentMode,
      LQI: this.lqi,
      RSSI: this.rssi,
      temperature: this.temperature,
      batteryMv: this.batteryMv,
      hwType: this.hwType,
      wakeupReason: this.wakeupReason,
      capabilities: this.capabilities,
      modecfgjson: this.modecfgjson,
      isexternal: this.servedBy !== null,
      apip: this.servedBy ?? '0.0.0.0',
      rotate: 0,
      lut: 0,
      invert: 0,
      updatecount: this.updatecount,
      updatelast: this.updatelast,
      ch: 11,
      ver: 0x29,
    };
  }
}
