/*
 * The shapes an OpenEPaperLink access point answers (docs/OEPL.md, ../shared/OEPL.md §1), written
 * from its documented interface. Only the fields the bridge reads are named.
 */

/** A tag record: `/get_db`, `/backup_db` and the WebSocket `tags` message. */
export interface OeplTag {
  mac: string;
  /** MD5 of what the tag holds (32 hex; the first 8 bytes matter). */
  hash: string;
  lastseen: number;
  nextupdate?: number;
  nextcheckin: number;
  pending: number;
  alias?: string;
  contentMode?: number;
  LQI: number;
  RSSI: number;
  temperature: number;
  batteryMv: number;
  hwType: number;
  wakeupReason: number;
  capabilities: number;
  isexternal?: boolean;
  apip?: string;
  updatecount?: number;
  updatelast?: number;
  ver?: number;
  ch?: number;
}

/** A tag type, `/tagtypes/XX.json`: the colour table's insertion order is the pixel index. */
export interface OeplTagType {
  version: number;
  name: string;
  width: number;
  height: number;
  /** 0–3; odd: the panel buffer is stored rotated. */
  rotatebuffer: number;
  bpp: number;
  colortable: Record<string, [number, number, number]>;
  options?: string[];
}

/** The `sys` message, every 5 s. */
export interface OeplSys {
  currtime: number;
  heap?: number;
  recordcount?: number;
  dbsize?: number;
  littlefsfree?: number;
  apstate: number;
  runstate: number;
  rssi?: number;
  wifistatus?: number;
  wifissid?: string;
  uptime?: number;
  lowbattcount?: number;
  timeoutcount?: number;
}

/** `/sysinfo` (numbers) and `/get_ap_config` (strings "0"/"1" for flags). */
export interface OeplSysInfo {
  alias?: string;
  env?: string;
  buildversion?: string;
  ap_version?: string;
  sha?: string;
}

export interface OeplApConfig {
  channel?: number | string;
  maxsleep?: number | string;
  stopsleep?: number | string;
  alias?: string;
  [key: string]: unknown;
}

/** AP states (`apstate`). */
export const AP_STATES = [
  'offline',
  'online',
  'flashing',
  'wait reset',
  'power-cycle needed',
  'failed',
  'coming online',
  'no radio',
] as const;

/** Run states (`runstate`): 2 is running. */
export const RUN_STATES = ['stop', 'pause', 'run', 'init'] as const;

/** `nextcheckin` of a tag in deep sleep (or never). */
export const NEVER = 3216153600;
/** Below this the AP counts a tag as low on battery, mV. */
export const LOW_BATTERY_MV = 2400;

/** Capability bits. */
export const CAP = { led: 0x01, button: 0x20, nfc: 0x40, nfcWake: 0x80 } as const;

/** A 12-char MAC is the 16-char one with its two top bytes 0; MACs are upper-case hex. */
export function normalMac(mac: string): string {
  const m = mac.toUpperCase();
  return m.length === 12 ? `0000${m}` : m;
}
