import { type LinkStats, newLinkStats } from '@esl/station';

/** A simulated station's counters: the protocol's (`@esl/station`) and its radio's. */
export interface StationStats extends LinkStats {
  checkIns: number;
  missedCheckIns: number;
  /** Check-ins heard while the radio served others, their job served in line after them. */
  lined: number;
  transfers: number;
  retries: number;
  airMs: number;
}

export const newStationStats = (): StationStats => ({
  ...newLinkStats(),
  checkIns: 0,
  missedCheckIns: 0,
  lined: 0,
  transfers: 0,
  retries: 0,
  airMs: 0,
});
