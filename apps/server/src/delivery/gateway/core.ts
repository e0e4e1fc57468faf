import type { DecodeError } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import type { SysLogLine } from '../broker/events';
import type { JobConsumer } from '../link/consumers';
import type { StationLink } from '../link/station-link';
import { Presence, type PresenceNotice, type PresenceOptions } from './presence';
import type { StationIdentity } from './repository';

/*
 * What the gateway's parts share: the database, the downlink, the consoles' notices, the clock,
 * the system log, the counters of dropped input, and the station presence the consoles are told.
 */

/** Why a station message was dropped; counted per reason (and per station). */
export type DropReason = DecodeError | 'badTopic' | 'unknownStation' | 'foreignTag' | 'overload' | 'handlerError';

export interface GatewayCounters {
  /** Messages and tag entries dropped, by reason. */
  dropped: Record<DropReason, number>;
  /** Wills (offline statuses) of a connection that was no longer the station's current one. */
  staleWills: number;
  /** Tag entries for hardware ids nobody registered (heard, not ours to track). */
  unregisteredTags: number;
  /** Tag entries stored. */
  tagEntries: number;
  /** Station messages handled again after a transient database failure (a lost deadlock, a lost connection). */
  retried: number;
  /** Tag entries naming a learned model key no station of the tenant described (stored, shown as unknown). */
  unknownModels: number;
  /** Learned models stored from `up/models` (new or changed descriptions). */
  learnedModels: number;
  /** Heartbeat alarms the server does not know (not kept). */
  unknownAlarms: number;
  /** Per station (`{tid}.{sn}`), what was dropped. */
  byStation: Map<string, Partial<Record<DropReason, number>>>;
}

/** The uplink's consumers as the gateway hands them a station: the task engine, the firmware engine. */
export type GatewayConsumer = JobConsumer<StationIdentity>;

export interface GatewayCore {
  db: Kysely<Database>;
  link: StationLink;
  notices: Notices;
  now: () => number;
  /** Writes a system-log row (the caller damps repeats). */
  syslog: (line: SysLogLine) => void;
  counters: GatewayCounters;
  /** The last button or NFC wake-up written per tag id (its last-seen), so one wake is one event. */
  wakes: Map<number, number>;
  consumers: readonly GatewayConsumer[];
  /** Counts a drop (and writes its system-log row when the station is known: `{tid}.{sn}`). */
  drop(station: string | null, reason: DropReason, n?: number): void;
  /**
   * A station went online or offline (`why` for the system log); the consoles are told, damped.
   * `connId`: the connection that brought it online (its status or hello), news even when the row
   * already said online.
   */
  presenceChanged(station: StationIdentity, online: boolean, why: string, connId?: string): void;
  /** Due presence notices (the damper's delayed offline ones). */
  presenceDue(now: number): void;
}

export interface CoreOptions {
  db: Kysely<Database>;
  link: StationLink;
  notices: Notices;
  now: () => number;
  syslog: (line: SysLogLine) => void;
  consumers: readonly GatewayConsumer[];
  presence?: Partial<PresenceOptions>;
}

export function gatewayCore(o: CoreOptions): GatewayCore {
  const counters: GatewayCounters = {
    dropped: {
      tooLarge: 0,
      badJson: 0,
      badVersion: 0,
      invalid: 0,
      badTopic: 0,
      unknownStation: 0,
      foreignTag: 0,
      overload: 0,
      handlerError: 0,
    },
    staleWills: 0,
    unregisteredTags: 0,
    tagEntries: 0,
    retried: 0,
    unknownModels: 0,
    learnedModels: 0,
    unknownAlarms: 0,
    byStation: new Map(),
  };
  const presence = new Presence(o.presence);
  /** Where each station seen belongs, for notices of the presence damper. */
  const where = new Map<number, { tenantId: number; storeId: number; sn: string }>();

  const drop = (station: string | null, reason: DropReason, n = 1) => {
    counters.dropped[reason] += n;
    if (!station) return;
    const per = counters.byStation.get(station) ?? {};
    per[reason] = (per[reason] ?? 0) + n;
    counters.byStation.set(station, per);
    o.syslog({
      tenantId: Number(station.split('.')[0]) || null,
      ...(station.includes('.') ? { stationSn: station.slice(station.indexOf('.') + 1) } : {}),
      level: 'warn',
      event: 'station.bad_input',
      message: `station ${station.split('.')[1] ?? station}: dropped ${n} ${n === 1 ? 'message' : 'entries'} (${reason})`,
    });
  };

  const tell = (n: PresenceNotice) => {
    const at = where.get(n.stationId);
    if (!at) return;
    if (n.kind === 'flapping') {
      o.syslog({
        tenantId: at.tenantId,
        storeId: at.storeId,
        level: 'warn',
        event: 'station.flapping',
        message: `station ${at.sn} went online/offline ${n.transitions} times within 5 minutes`,
      });
      o.notices.broadcast(at.tenantId, {
        type: 'station.status',
        id: n.stationId,
        sn: at.sn,
        storeId: at.storeId,
        flapping: true,
        at: n.at,
      });
      return;
    }
    o.notices.broadcast(at.tenantId, {
      type: 'station.status',
      id: n.stationId,
      sn: at.sn,
      storeId: at.storeId,
      online: n.kind === 'online',
      at: n.at,
    });
  };

  const presenceChanged = (station: StationIdentity, online: boolean, why: string, connId?: string) => {
    where.set(station.id, { tenantId: station.tenant_id, storeId: station.store_id, sn: station.sn });
    const t = o.now();
    for (const n of presence.set(station.id, online, t)) tell(n);
    const was = Boolean(Number(station.online));
    // A connection the row does not hold is written even when the row said online: the row was
    // never connected (the demo seeds some stations online), or the earlier connection ended
    // unseen (the server stopped with it, or its Will was lost) — a restart logged no station.
    const unseen = online && was && connId !== undefined && connId !== station.conn_id;
    if (was !== online || unseen) {
      const because = unseen && station.conn_id !== '' ? 'reconnected' : why;
      o.syslog({
        tenantId: station.tenant_id,
        storeId: station.store_id,
        level: 'info',
        event: online ? 'station.online' : 'station.offline',
        message: `station ${station.sn} ${online ? 'online' : 'offline'} (${because})`,
      });
    }
  };

  return {
    db: o.db,
    link: o.link,
    notices: o.notices,
    now: o.now,
    syslog: o.syslog,
    counters,
    wakes: new Map(),
    consumers: o.consumers,
    drop,
    presenceChanged,
    presenceDue(t) {
      for (const n of presence.due(t)) tell(n);
    },
  };
}
