// The station and tag simulator (DELIVERY.md §8): programmatic API for tests and the demo.
export { type ClockOptions, VirtualClock } from './clock';
export {
  EMU_TAG_TYPES,
  type EmuApOptions,
  type EmuApServer,
  type EmuScreen,
  EmuTag,
  type EmuTagType,
  emuTags,
  mapToPalette,
  type OeplAp,
  OeplApEmulator,
  startOeplAp,
  TRANSFER_MS_296x128,
} from './oepl';
export { ApiError, nextSerials, type Provisioned, type ProvisionOptions, provision, storeCode } from './provision';
export { channelBound, checkInMs, serviceMs, storeBound, uniformLoad } from './radio/bound';
export { PROFILES, profileByName, type RadioProfile } from './radio/profiles';
export { Random } from './random';
export {
  madeUpTags,
  type SimReport,
  type Simulator,
  type SimulatorOptions,
  type StationReport,
  startSimulator,
} from './simulator';
export { type FlapSpec, SimStation, type StationSpec, type StationStats } from './station';
export {
  buildFirmwareFile,
  checkFirmwareBlob,
  type FirmwareFaults,
  type FirmwareFileSpec,
  FirmwarePlan,
} from './station/firmware';
export { type Screen, SimTag, type TagSpec } from './tag';
export { startWall, type WallServer, type WallStation, type WallStationJson, type WallTag, wallJson } from './wall';
