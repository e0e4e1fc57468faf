import {
  type HeartbeatMsg,
  type HelloMsg,
  STATION_ALARM_INFO,
  STATION_ALARMS,
  type StationAlarm,
  type StationKey,
  type StatusMsg,
} from '@esl/contract/protocol';
import { presentStation } from '../../modules/stations/presenter';
import { inOrder, jobKindOf, NEWS_ORDER } from '../link/consumers';
import type { ConfigAndCommands } from './control';
import type { GatewayCore } from './core';
import * as repo from './repository';

/*
 * A station's presence (docs/PROTOCOL.md §5.2–§5.5): its status (the broker's connect and Will),
 * its hello, answered with a welcome and handed to every consumer with its own jobs of the
 * station's queue, and its heartbeats, whose runtime figures the consoles see. The station's clock
 * is checked against the server's at each.
 */

/** A station clock further off than this is warned about (docs/PROTOCOL.md §5.8). */
export const SKEW_WARN_MS = 5000;

export interface Presences {
  onStatus(station: repo.StationIdentity, m: StatusMsg): Promise<void>;
  onHello(key: StationKey, station: repo.StationIdentity, m: HelloMsg): Promise<void>;
  onHeartbeat(station: repo.StationIdentity, m: HeartbeatMsg): Promise<void>;
}

/** `told(stationId, at)`: this process told the station the time (a welcome carries it). */
export function presences(
  core: GatewayCore,
  config: ConfigAndCommands,
  told: (stationId: number, at: number) => void,
): Presences {
  const { db, now } = core;

  async function onStatus(station: repo.StationIdentity, m: StatusMsg) {
    const t = now();
    if (m.online) {
      await repo.markOnline(db, station.id, m.connId, t, Boolean(Number(station.online)));
      core.presenceChanged(station, true, 'connected', m.connId);
      return;
    }
    if (await repo.markOffline(db, station.id, m.connId, t)) {
      core.presenceChanged(station, false, 'connection closed');
      return;
    }
    // Not the current connection (or already offline): an old Will racing the reconnect.
    if (station.conn_id !== m.connId) core.counters.staleWills++;
  }

  async function onHello(key: StationKey, station: repo.StationIdentity, m: HelloMsg) {
    const t = now();
    await repo.applyHello(db, station.id, m, t, Boolean(Number(station.online)));
    core.presenceChanged(station, true, 'hello', m.connId);
    const desired = await repo.desiredConfig(db, station.id);
    const rev = Number(desired?.cfg_rev ?? 0);
    const time = now();
    await core.link.send(key, 'welcome', { v: 1, connId: m.connId, time, cfgRev: rev });
    told(station.id, time);
    if (desired) await config.reportedConfig(key, desired, m.cfgRev);
    // Resync: what the station holds against what each consumer thinks it holds (DELIVERY.md §4.4),
    // each consumer seeing only its own kind's entries of the station's queue.
    for (const c of inOrder(core.consumers, NEWS_ORDER)) {
      await c.onHello(station, { ...m, queue: m.queue.filter(([id]) => jobKindOf(id) === c.kind) });
    }
    // Checked at every hello (a connect is news worth a row even when the clock was off before).
    const skew = m.time - t;
    if (Math.abs(skew) > SKEW_WARN_MS) warnSkew(station, skew);
  }

  function warnSkew(station: repo.StationIdentity, skew: number) {
    core.syslog({
      tenantId: station.tenant_id,
      storeId: station.store_id,
      level: 'warn',
      event: 'station.clock_skew',
      message: `station ${station.sn}: its clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ahead' : 'behind'}`,
    });
  }

  /** An alarm raised or over is written to the system log once, at the heartbeat that changed it. */
  function logAlarms(station: repo.StationIdentity, now: readonly StationAlarm[]) {
    const before = station.alarms ? station.alarms.split(',') : [];
    for (const a of now.filter((x) => !before.includes(x))) {
      core.syslog({
        tenantId: station.tenant_id,
        storeId: station.store_id,
        level: 'warn',
        event: 'station.alarm',
        message: `station ${station.sn}: alarm ${a}: ${STATION_ALARM_INFO[a]}`,
      });
    }
    for (const a of before.filter((x) => !(now as readonly string[]).includes(x))) {
      core.syslog({
        tenantId: station.tenant_id,
        storeId: station.store_id,
        level: 'info',
        event: 'station.alarm_over',
        message: `station ${station.sn}: alarm ${a} is over`,
      });
    }
  }

  async function onHeartbeat(station: repo.StationIdentity, m: HeartbeatMsg) {
    for (const c of inOrder(core.consumers, NEWS_ORDER)) c.onHeartbeat?.(station, m);
    const desired = await repo.desiredConfig(db, station.id);
    if (desired) await config.reportedConfig({ tenantId: station.tenant_id, sn: station.sn }, desired, m.cfgRev);
    const t = now();
    const known = (m.alarms ?? []).filter((a): a is StationAlarm => (STATION_ALARMS as readonly string[]).includes(a));
    core.counters.unknownAlarms += (m.alarms?.length ?? 0) - known.length;
    const row = await repo.applyHeartbeat(db, station.id, m, t, Boolean(Number(station.online)), known);
    if (!row) return;
    logAlarms(station, known);
    // Damped: written when the skew crosses the threshold, not again until it was back within it.
    // The stored skew (of the last hello or heartbeat) is the memory, so with several server
    // processes a crossing is written once whichever process handles the heartbeat.
    const skew = m.at - t;
    const before = station.clock_skew_ms === null ? null : Number(station.clock_skew_ms);
    if (Math.abs(skew) > SKEW_WARN_MS && (before === null || Math.abs(before) <= SKEW_WARN_MS)) warnSkew(station, skew);
    if (!Number(station.online)) core.presenceChanged(station, true, 'heartbeat');
    core.notices.broadcast(station.tenant_id, {
      type: 'station.runtime',
      id: station.id,
      storeId: station.store_id,
      station: presentStation(row),
    });
  }

  return { onStatus, onHello, onHeartbeat };
}
