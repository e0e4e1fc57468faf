import { DEFAULTS } from '@esl/contract/protocol';
import type { GatewayCore } from './core';
import * as repo from './repository';
import * as tags from './tags/repository';

/*
 * The gateway's sweeper: silent stations marked offline, every store's tag status recomputed, and
 * `down/time` to every online station (docs/PROTOCOL.md §5.8), each when its period has passed.
 */

export interface SweeperOptions {
  /** Missed heartbeats before a station is marked offline (3). */
  missedHeartbeats?: number;
  /** How often the sweeper looks for silent stations, and recomputes tag status, ms. */
  silenceSweepMs?: number;
  tagStatusMs?: number;
  /** How often each online station is sent `down/time`, ms (DEFAULTS.timeS: 600 s; a welcome counts). */
  timeSyncMs?: number;
  /**
   * Several server processes: whether this one sends `down/time` now (the sweeper lease,
   * cluster/leases.ts), so each station hears it from one process. Absent: this process does.
   */
  claimTimeSync?: () => Promise<boolean>;
}

export interface Sweeper {
  /** One step at `t` (`now()`): silent stations, tag status and `down/time` when their time has come. */
  tick(t: number): Promise<void>;
  /** Recomputes every store's tag status now. */
  sweepTagStatus(): Promise<void>;
  /** This process told the station the time (a welcome carries it). */
  told(stationId: number, at: number): void;
}

export function gatewaySweeper(core: GatewayCore, o: SweeperOptions): Sweeper {
  const { db, now } = core;
  const missed = o.missedHeartbeats ?? DEFAULTS.missedHeartbeats;
  const silenceSweepMs = o.silenceSweepMs ?? 5000;
  const tagStatusMs = o.tagStatusMs ?? 60_000;
  const timeSyncMs = o.timeSyncMs ?? DEFAULTS.timeS * 1000;
  let lastSilenceSweep = now();
  let lastTagSweep = now();
  let lastTimeSweep = now();
  /** When this process last told each station the time (`down/time` or a welcome), by station id. */
  const timeSentAt = new Map<number, number>();

  async function sweepSilence() {
    const t = now();
    const gone = await repo.markSilentOffline(db, t, missed);
    for (const s of gone) {
      core.presenceChanged(
        { ...s, online: 1, conn_id: '', clock_skew_ms: null, alarms: '' },
        false,
        `no heartbeat for ${missed} intervals`,
      );
    }
  }

  /**
   * `down/time` to every online station not told the time (by this process) for `timeSyncMs`; a
   * station this process has not told yet (just took the lease, or it said hello to another
   * process) is told at once. QoS 0, like the heartbeat: a lost one is made up by the next.
   */
  async function sweepTime() {
    if (o.claimTimeSync && !(await o.claimTimeSync())) {
      timeSentAt.clear(); // another process tells them; start afresh if this one takes over
      return;
    }
    const t = now();
    const online = await repo.onlineStationKeys(db);
    const live = new Set<number>();
    for (const s of online) {
      live.add(s.id);
      const last = timeSentAt.get(s.id);
      if (last !== undefined && t - last < timeSyncMs) continue;
      await core.link.send({ tenantId: s.tenant_id, sn: s.sn }, 'time', { v: 1, t: now() }, { qos: 0 });
      timeSentAt.set(s.id, t);
    }
    for (const id of timeSentAt.keys()) if (!live.has(id)) timeSentAt.delete(id);
  }

  async function sweepTagStatus() {
    const t = now();
    for (const { tenantId, storeId, th } of await tags.storesWithThresholds(db)) {
      await tags.recomputeTagStatus(db, { tenantId, storeId }, t, th);
    }
  }

  return {
    async tick(t) {
      if (t - lastSilenceSweep >= silenceSweepMs) {
        lastSilenceSweep = t;
        await sweepSilence();
      }
      if (t - lastTagSweep >= tagStatusMs) {
        lastTagSweep = t;
        await sweepTagStatus();
      }
      if (t - lastTimeSweep >= silenceSweepMs) {
        lastTimeSweep = t;
        await sweepTime();
      }
    },
    sweepTagStatus,
    told(stationId, at) {
      timeSentAt.set(stationId, at);
    },
  };
}
