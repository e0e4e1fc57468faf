// The upward half of every station (docs/PROTOCOL.md): the simulator's stations and the bridges
// to real access points use it; each brings its own downward half as a StationDriver.
export { BlobPulls, type ChunkRequest } from './blobs';
export { type CmdHost, type CmdSessions, type CommandOutput, onCmd, type StationDriver } from './driver';
export { imageMatches } from './images';
export { acceptJobs, type HeldJob, type JobsContext } from './jobs';
export { StationLink } from './link';
export { type LinkOptions, type LinkStats, newLinkStats, type StationIdentity } from './options';
export { Outbox } from './outbox';
export { changed, TagTable } from './tag-table';
export { type Clock, mathRandom, type Rng, realClock } from './time';
export type { LinkCore } from './upward';
