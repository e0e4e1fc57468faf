/**
 * What the stations module tells the delivery layer's bridge manager (delivery/bridges/): an
 * OpenEPaperLink station was added, its access-point address changed, or it was deleted, so the
 * bridges this server runs are brought in line with the database now rather than at the next
 * periodic look.
 */
export interface StationBridges {
  changed(): void;
}

/** No broker (MQTT=off), or tests of other modules: no bridges run. */
export const noStationBridges: StationBridges = {
  changed() {},
};
