import type { Kysely } from 'kysely';
import type { StationLink as StationControl } from '../../api/station-control';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import type { SysLogLine } from '../broker/events';
import type { StationLink } from '../link/station-link';
import type { MqttPort } from '../mqtt/port';
import { configAndCommands } from './control';
import { type GatewayConsumer, type GatewayCounters, gatewayCore } from './core';
import type { PresenceOptions } from './presence';
import { gatewaySweeper, type SweeperOptions } from './sweeper';
import { stationUplink } from './uplink';
import { presences } from './welcome';

/*
 * The server's side of the station protocol (DELIVERY.md §4.3, §5.5): presence from status,
 * hello and heartbeat; runtime figures; tag reports; the sweeper that marks silent stations
 * offline, recomputes tag status and sends every online station the server's time
 * (`down/time`, docs/PROTOCOL.md §5.8). Whatever the broker (embedded or external), it hears the
 * stations through an MqttPort and speaks to them through a StationLink; the messages about jobs
 * go to the consumer of their kind (link/consumers.ts). Messages of one station are handled one
 * after another.
 *
 * In parts: core.ts (what they share: counters, drops, presence notices), uplink.ts (receiving
 * and routing), welcome.ts (status, hello, heartbeat), tags/ (tag reports and tag status),
 * control.ts (configuration and command window), sweeper.ts (silence, tag status, time).
 */

export type { DropReason, GatewayConsumer, GatewayCounters } from './core';
export { SKEW_WARN_MS } from './welcome';

export interface GatewayOptions extends SweeperOptions {
  db: Kysely<Database>;
  /** What stations send comes in through this port. */
  port: MqttPort;
  /** What the gateway sends stations (welcome, config, command window, time) goes out through this link. */
  link: StationLink;
  notices: Notices;
  now: () => number;
  /** Writes a system-log row (the caller damps repeats). */
  syslog: (line: SysLogLine) => void;
  presence?: Partial<PresenceOptions>;
  /** Shared-subscription group on an external broker. */
  share?: string;
  /** Messages queued for one station before more are dropped. */
  maxPendingPerStation?: number;
  /** Command-window session lifetime without a line, s (600). */
  cmdTtlS?: number;
  onError?: (err: unknown, what: string) => void;
  /**
   * The uplink's consumers, one per job kind (the task engine, the firmware engine): hello
   * resyncs, acks, results, progress and blob pulls of their jobs, tag reports, radio figures.
   */
  consumers?: readonly GatewayConsumer[];
}

export interface Gateway {
  readonly counters: GatewayCounters;
  /** Subscribes to what stations send (retained statuses arrive at once). */
  start(): Promise<void>;
  /**
   * One sweeper step at `now()`: due offline notices; silent stations, tag status and `down/time`
   * when their time has come.
   */
  tick(): Promise<void>;
  /** Recomputes every store's tag status now. */
  sweepTagStatus(): Promise<void>;
  /** Resolves when every message received so far is handled. */
  idle(): Promise<void>;
  /** Desired configuration and command window, for the stations module (api/station-control.ts). */
  readonly control: StationControl;
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const core = gatewayCore({ ...options, consumers: options.consumers ?? [] });
  const config = configAndCommands(core, options.cmdTtlS);
  const sweeper = gatewaySweeper(core, options);
  const uplink = stationUplink(core, { presences: presences(core, config, sweeper.told), config }, options);
  return {
    counters: core.counters,
    control: config.control,
    start: () => uplink.start(),
    async tick() {
      const t = options.now();
      core.presenceDue(t);
      config.sweep(t);
      await sweeper.tick(t);
    },
    sweepTagStatus: () => sweeper.sweepTagStatus(),
    idle: () => uplink.idle(),
    async close() {
      await uplink.stop();
      await uplink.idle();
    },
  };
}
