import type { ProgressMsg, TagsMsg } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import type { JobConsumer } from '../link/consumers';
import type { StationLink } from '../link/station-link';
import { firmwareDeadlines, stopTagUpgrades } from './deadlines';
import { firmwarePump } from './dispatch';
import { type FirmwareStation, firmwareStationMessages } from './station';
import { type FirmwareCore, type FirmwareCounters, type FirmwareLogLine, upgradeSteps } from './upgrade';

/*
 * Firmware rollout (docs/PROTOCOL.md §5.12, §10): one slot per device in `firmware_tasks`, sent
 * to the station as an `apfw`, `modulefw` or `tagfw` job whose blob is the firmware file. The
 * station pulls it in chunks, checks its SHA-256, installs; the upgrade is done only when the
 * device itself reports the new version (a station's hello, a tag's report). Job ids of firmware
 * (`zf` + 14 base-36 digits, ids.ts) say their kind (link/consumers.ts), so the gateway hands the
 * engine its own jobs: it is the uplink's consumer of kind 'firmware'.
 *
 * In stages: upgrade.ts (one upgrade's steps and ends), dispatch.ts (the pump), station.ts (the
 * station's messages), deadlines.ts (the clock and the stop).
 */

export { firmwareJobId, firmwareTaskId } from './ids';
export type { FirmwareStation } from './station';
export type { FirmwareLogLine } from './upgrade';

export interface FirmwareEngineOptions {
  db: Kysely<Database>;
  /** Where firmware jobs, cancels, result acks and blob chunks go. */
  link: StationLink;
  notices: Notices;
  now: () => number;
  /** Writes a system-log row. */
  syslog: (line: FirmwareLogLine) => void;
  /** Attempts (badBlob, timeout, nack) before an upgrade fails (5). */
  maxAttempts?: number;
  /** Wait before a retry, ms (30 s). */
  retryMs?: number;
  /**
   * Several server processes (cluster/leases.ts): takes or renews this process's lease on a
   * station's dispatch, the one label dispatch takes; false while another process holds it.
   * Absent: one process dispatches all.
   */
  claimStation?: (stationId: number) => Promise<boolean>;
  onError?: (err: unknown, what: string) => void;
}

export interface FirmwareEngine extends JobConsumer<FirmwareStation> {
  readonly kind: 'firmware';
  onProgress(station: FirmwareStation, m: ProgressMsg): Promise<void>;
  onTags(station: FirmwareStation, m: TagsMsg): Promise<void>;
  /** Sends due upgrades to their stations. */
  pump(): Promise<void>;
  /** Deadlines, then a pump. */
  tick(): Promise<void>;
  /** Stops the store's tag upgrades: queued ones are cancelled, those at a station asked to stop. */
  stopTags(tenantId: number, storeId: number): Promise<{ cancelled: number; stopping: number }>;
  readonly counters: FirmwareCounters;
}

export function createFirmwareEngine(o: FirmwareEngineOptions): FirmwareEngine {
  const core: FirmwareCore = {
    db: o.db,
    link: o.link,
    notices: o.notices,
    now: o.now,
    syslog: o.syslog,
    counters: { jobsSent: 0, chunksServed: 0, retries: 0 },
  };
  const steps = upgradeSteps(core, { maxAttempts: o.maxAttempts ?? 5, retryMs: o.retryMs ?? 30_000 });
  const pump = firmwarePump(core, steps, {
    claimStation: o.claimStation,
    onError: (err, what) => o.onError?.(err, what),
  });
  return {
    kind: 'firmware',
    ...firmwareStationMessages(core, steps, pump),
    pump,
    tick: () => firmwareDeadlines(core, steps, pump),
    stopTags: (tenantId, storeId) => stopTagUpgrades(core, steps, tenantId, storeId),
    counters: core.counters,
  };
}
