import type { StationKey } from '@esl/contract/protocol';

/**
 * What the broker must learn when a station's credentials change. The embedded broker reads
 * secrets from the database at each login, so it only closes a session made with the old secret;
 * Mosquitto keeps its own accounts (dynamic security, ./dynsec.ts), so they are written there.
 */
export interface StationAccounts {
  /** A station was added or its secret renewed: from now on only `secret` logs it in. */
  secretIssued(key: StationKey, secret: string): Promise<void>;
  /** A station was deleted: no login any more, and its session ends. */
  removed(key: StationKey): Promise<void>;
}

/** No broker (MQTT=off, tests of other modules): nothing to tell. */
export const noStationAccounts: StationAccounts = {
  async secretIssued() {},
  async removed() {},
};
