import { z } from 'zod';

/** What a job asks the station to do. */
export const JOB_KINDS = [
  'image',
  'led',
  'ping',
  'tagcfg',
  'tagfw',
  'rollcall',
  'apfw',
  'modulefw',
  'timed',
  'page',
  'nfc',
] as const;
export const JobKind = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKind>;

/** Kinds aimed at one tag (they carry `tag`); the others are for the station itself. */
export const TAG_JOB_KINDS: readonly JobKind[] = ['image', 'led', 'ping', 'tagcfg', 'tagfw', 'timed', 'page', 'nfc'];

/** 0 interactive single-tag operations > 1 data changes > 2 bulk > 3 firmware. */
export const JobPrio = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
export type JobPrio = z.infer<typeof JobPrio>;

/** Why a station refused to take a job on receipt (`up/ack` with `ok: false`). */
export const ACK_CODES = ['full', 'unsupported', 'invalid', 'stale'] as const;
export const AckCode = z.enum(ACK_CODES);
export type AckCode = z.infer<typeof AckCode>;

export const ACK_CODE_INFO: Record<AckCode, string> = {
  full: 'the station queue is full: the server requeues the job and shrinks its window',
  unsupported: 'the station cannot do this kind (not in `caps.kinds`)',
  invalid: 'the job failed the station’s own checks (e.g. inline data does not match `size`)',
  stale: 'the station already holds a higher `rev` of this job id',
};

/** How a job ended at the station (`up/result`). */
export const RESULT_CODES = [
  'ok',
  'skipped',
  'timeout',
  'nack',
  'displayError',
  'lowBattery',
  'unsupported',
  'unknownTag',
  'badBlob',
  'cancelled',
  'replaced',
] as const;
export const ResultCode = z.enum(RESULT_CODES);
export type ResultCode = z.infer<typeof ResultCode>;

export interface CodeInfo {
  readonly meaning: string;
  /** What the server does with it. */
  readonly handling: string;
}

export const RESULT_CODE_INFO: Record<ResultCode, CodeInfo> = {
  ok: { meaning: 'the tag confirmed it holds/shows `ver` (or did the LED, ping, firmware)', handling: 'final' },
  skipped: { meaning: 'the tag already reported `ver`; nothing was sent', handling: 'final (counts as ok)' },
  timeout: { meaning: 'the TTL passed without the tag checking in or finishing', handling: 'retry with backoff' },
  nack: { meaning: 'the transfer failed after the radio’s own retries', handling: 'retry with backoff' },
  displayError: { meaning: 'the tag reported a panel refresh error', handling: 'retry once, then final' },
  lowBattery: { meaning: 'the tag refused for its battery', handling: 'final until the battery is reported better' },
  unsupported: { meaning: 'the tag or its hardware cannot do this kind or format', handling: 'final' },
  unknownTag: { meaning: 'the station never heard the tag', handling: 're-route to a station that heard it' },
  badBlob: {
    meaning: 'the blob’s SHA-256 did not match after download',
    handling: 'retry; the server re-checks its bytes',
  },
  cancelled: { meaning: 'cancelled by `down/cancel`', handling: 'final for that rev' },
  replaced: {
    meaning: 'a newer image job for the same tag (another id) replaced this one before it ran',
    handling: 'final for that rev',
  },
};

/** Why the server withdraws jobs (`down/cancel`). */
export const CANCEL_REASONS = ['superseded', 'stopped', 'moved', 'unknown'] as const;
export const CancelReason = z.enum(CANCEL_REASONS);
export type CancelReason = z.infer<typeof CancelReason>;

/** Why a tag woke (in tag reports); `boot`/`watchdog` mean it may have lost its picture. */
export const WAKE_REASONS = ['timer', 'boot', 'watchdog', 'button', 'nfc', 'rescan'] as const;
export const WakeReason = z.enum(WAKE_REASONS);
export type WakeReason = z.infer<typeof WakeReason>;

/** LED colours a job may ask for (OEPL's pattern colours, BT ESL LED control, Hanshow flash_light). */
export const LED_COLOURS = ['red', 'green', 'blue', 'yellow', 'cyan', 'magenta', 'white'] as const;
export const LedColour = z.enum(LED_COLOURS);
export type LedColour = z.infer<typeof LedColour>;

/** Commands the command window lets through; a station refuses any other. */
export const STATION_COMMANDS = ['status', 'ping', 'scan', 'channel', 'log', 'reboot'] as const;
export type StationCommand = (typeof STATION_COMMANDS)[number];

/** Radio profiles the server and simulator know (DELIVERY.md §7); a station may report another. */
export const RADIO_PROFILES = ['oepl-2g4', 'subghz-50k', 'subghz-100k'] as const;
export type RadioProfileName = (typeof RADIO_PROFILES)[number];

/** Alarms the server knows in a heartbeat's `alarms`; it keeps these and counts any other. */
export const STATION_ALARMS = ['radioSilent'] as const;
export type StationAlarm = (typeof STATION_ALARMS)[number];
export const STATION_ALARM_INFO: Record<StationAlarm, string> = {
  radioSilent: 'the access point is up while every tag it serves has gone silent (a radio failure)',
};

/**
 * Colour types a learned model may name, with their inks (the labels model's COLOUR_SETS; the
 * protocol imports nothing but zod, so a test of the contract holds the two together).
 */
export const PANEL_INKS = {
  bw: ['white', 'black'],
  bwr: ['white', 'black', 'red'],
  bwry: ['white', 'black', 'red', 'yellow'],
  bwy: ['white', 'black', 'yellow'],
  seven: ['white', 'black', 'green', 'blue', 'red', 'yellow', 'orange'],
} as const;
export type PanelColourType = keyof typeof PANEL_INKS;
export const PANEL_COLOUR_TYPES = Object.keys(PANEL_INKS) as [PanelColourType, ...PanelColourType[]];
