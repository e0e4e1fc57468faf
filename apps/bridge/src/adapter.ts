import type { LearnedModel, LedPattern, NfcPayload, ResultCode, TagEntry } from '@esl/contract/protocol';
import type { IndexImage } from '@esl/labels';

/** How one operation on a tag ended. */
export interface TagOutcome {
  code: ResultCode;
  tries: number;
  why: string;
}

/** An access point's state, for the heartbeat, the command window and the console. */
export interface AdapterHealth {
  online: boolean;
  apstate: number;
  runstate: number;
  firmware: string;
  channel: number;
  tags: number;
  lowBattery: number;
  timeouts: number;
  heap: number;
  fsFree: number;
  inFlight: number;
  /** Alarm codes raised now (docs/PROTOCOL.md §6, e.g. `radioSilent`). */
  alarms: string[];
}

/**
 * The downward half of a bridge: one vendor's access point. The OEPL adapter is the first; a
 * Bluetooth ESL access point would be the second, with the same upward half (`@esl/station`).
 */
export interface AccessPointAdapter {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The tag is served by this access point. */
  has(tag: string): boolean;
  /** Our report entries for its tags. */
  tagEntries(): TagEntry[];
  /** Tag models learned from its hardware (not in the catalogue), for `up/models`. */
  models(): LearnedModel[];
  /** An image for this tag may go now. */
  canDeliver(tag: string): boolean;
  deliver(tag: string, image: IndexImage, ver: string, force: boolean): Promise<TagOutcome>;
  led(tag: string, pattern: LedPattern): Promise<TagOutcome>;
  /** Writes the tag's NFC content (docs/PROTOCOL.md §5.16); resolves when the tag took it, or failed. */
  nfc(tag: string, content: NfcPayload, force: boolean): Promise<TagOutcome>;
  /** `refresh`, `reboot`, `scan`, … where the access point offers them. */
  tagCommand(tag: string, cmd: string): Promise<TagOutcome>;
  health(): AdapterHealth;
}
