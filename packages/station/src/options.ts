import type { Job, MessageName, ResultCode, StationKey } from '@esl/contract/protocol';
import type { Clock, Rng } from './time';

/** Who the station is on the broker. */
export interface StationIdentity {
  tenantId: number;
  sn: string;
  /** The MQTT secret shown when the station was added (docs/PROTOCOL.md 3). */
  secret: string;
}

/** The protocol-side counters every station keeps (the simulator adds its radio's). */
export interface LinkStats {
  connects: number;
  refusals: number;
  abruptLosses: number;
  reboots: number;
  sent: Partial<Record<MessageName, number>>;
  received: Partial<Record<MessageName | 'blobChunk', number>>;
  /** Down messages that failed their schema (dropped). */
  badDown: number;
  acks: { ok: number; refused: number };
  results: Partial<Record<ResultCode, number>>;
}

export const newLinkStats = (): LinkStats => ({
  connects: 0,
  refusals: 0,
  abruptLosses: 0,
  reboots: 0,
  sent: {},
  received: {},
  badDown: 0,
  acks: { ok: 0, refused: 0 },
  results: {},
});

export interface LinkOptions {
  /** The broker: `mqtt://host:port`, or `mqtts://host:port` for MQTT over TLS. */
  url: string;
  /** For `mqtts://`: PEM certificates to trust instead of the system's. The broker's certificate is always verified. */
  ca?: string | Buffer;
  clock: Clock;
  rng: Rng;
  /** Virtual ms before reconnecting after a lost connection (doubling on refusals, up to 5 min). */
  reconnectMs?: number;
  /** Jobs it holds at most (`caps.queue`). */
  queueSize?: number;
  /** Heartbeat and tag-report intervals until the server's config says otherwise, s. */
  heartbeatS?: number;
  reportS?: number;
  /** Its counters; pass a bigger object to share it with the downward half. */
  stats?: LinkStats;
  /** Station time minus this clock (a station whose own clock is off). */
  skewMs?: () => number;
  /** Called after anything observable changed. */
  onChange?: () => void;
  /** Called with every jobs message as it arrives. */
  onJobs?: (station: StationKey, jobs: readonly Job[]) => void;
  log?: (line: string) => void;
}
