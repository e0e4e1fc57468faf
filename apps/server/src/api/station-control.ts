/**
 * What the stations module asks of the delivery layer beyond accounts: push a changed desired
 * configuration, and run the command window. Without a broker (MQTT=off) nothing is online, so
 * nothing is sent and no window opens.
 */
export interface StationLink {
  /** The desired configuration of the station changed: sends it now when the station is online. */
  configChanged(stationId: number): Promise<boolean>;
  /**
   * Opens a command-window session on an online station for one console session (`owner`, the
   * hash of its token); null when the station is not connected.
   */
  openCmd(stationId: number, owner: string): Promise<{ session: string; ttlS: number } | null>;
  /** Sends a line (and/or closes); null when the session is unknown, expired or someone else's. */
  cmd(
    stationId: number,
    owner: string,
    session: string,
    what: { line?: string; close?: boolean },
  ): Promise<{ seq: number } | null>;
}

export const noStationLink: StationLink = {
  async configChanged() {
    return false;
  },
  async openCmd() {
    return null;
  },
  async cmd() {
    return null;
  },
};
