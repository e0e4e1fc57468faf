import { findTagModel } from '@esl/contract';
import {
  type AckMsg,
  type BlobRequestMsg,
  type CmdOutputMsg,
  DEFAULTS,
  type DecodeError,
  decodeMessage,
  encodeMessage,
  type HeartbeatMsg,
  type HelloMsg,
  type MessageName,
  messageForPath,
  type ProgressMsg,
  parseTopic,
  type ResultMsg,
  type StationKey,
  type StatusMsg,
  type TagsMsg,
  topics,
} from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import type { StationLink } from '../../api/station-control';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import { configMessage, readConfig } from '../../modules/stations/config';
import { presentStation } from '../../modules/stations/presenter';
import type { SysLogLine } from '../broker/events';
import type { MqttMessage, MqttPort, Unsubscribe } from '../mqtt/port';
import { CmdSessions } from './commands';
import { Presence, type PresenceNotice, type PresenceOptions } from './presence';
import * as repo from './repository';

/*
 * The server's side of the station protocol (DELIVERY.md §4.3, §5.5): presence from status,
 * hello and heartbeat; runtime figures; tag reports; the sweeper that marks silent stations
 * offline, recomputes tag status and sends every online station the server's time
 * (`down/time`, docs/PROTOCOL.md §5.8). Whatever the broker (embedded or external), it sees the
 * stations only through an MqttPort. Messages of one station are handled one after another.
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
  /** Per station (`{tid}.{sn}`), what was dropped. */
  byStation: Map<string, Partial<Record<DropReason, number>>>;
}

export interface GatewayOptions {
  db: Kysely<Database>;
  port: MqttPort;
  notices: Notices;
  now: () => number;
  /** Writes a system-log row (the caller damps repeats). */
  syslog: (line: SysLogLine) => void;
  presence?: Partial<PresenceOptions>;
  /** Shared-subscription group on an external broker. */
  share?: string;
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
  /** Messages queued for one station before more are dropped. */
  maxPendingPerStation?: number;
  /** Command-window session lifetime without a line, s (600). */
  cmdTtlS?: number;
  onError?: (err: unknown, what: string) => void;
  /** The task engine's side of the station messages (acks, results, blob pulls, hello resync). */
  tasks?: TaskHooks;
  /** Firmware upgrades (src/firmware): their own jobs, blobs and version reports. */
  firmware?: FirmwareHooks;
}

/**
 * What the gateway hands the firmware engine (src/firmware/engine.ts). Jobs it `owns` are taken
 * out of what the task engine sees; a blob it serves is not asked of the task engine.
 */
export interface FirmwareHooks {
  owns(jobId: string): boolean;
  onHello(station: repo.StationIdentity, m: HelloMsg): Promise<void>;
  onAck(station: repo.StationIdentity, m: AckMsg): Promise<void>;
  onResult(station: repo.StationIdentity, m: ResultMsg): Promise<void>;
  onProgress(station: repo.StationIdentity, m: ProgressMsg): Promise<void>;
  onBlob(station: repo.StationIdentity, m: BlobRequestMsg): Promise<boolean>;
  onTags(station: repo.StationIdentity, m: TagsMsg): Promise<void>;
}

/** What the gateway hands the task engine (delivery/tasks/engine.ts). */
export interface TaskHooks {
  onHello(station: repo.StationIdentity, m: HelloMsg): Promise<void>;
  onAck(station: repo.StationIdentity, m: AckMsg): Promise<void>;
  onResult(station: repo.StationIdentity, m: ResultMsg): Promise<void>;
  onBlob(station: repo.StationIdentity, m: BlobRequestMsg): Promise<void>;
  onTagsReported(tagIds: readonly number[]): Promise<void>;
  /** The station's radio figures (its measured service rate sizes its window). */
  onHeartbeat?(station: repo.StationIdentity, m: HeartbeatMsg): void;
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
  /** Desired configuration and command window, for the stations module. */
  readonly link: StationLink;
  close(): Promise<void>;
}

/** A station clock further off than this is warned about (docs/PROTOCOL.md §5.8). */
export const SKEW_WARN_MS = 5000;

export function createGateway(options: GatewayOptions): Gateway {
  const { db, port, notices, now } = options;
  const missed = options.missedHeartbeats ?? DEFAULTS.missedHeartbeats;
  const silenceSweepMs = options.silenceSweepMs ?? 5000;
  const tagStatusMs = options.tagStatusMs ?? 60_000;
  const timeSyncMs = options.timeSyncMs ?? DEFAULTS.timeS * 1000;
  const maxPending = options.maxPendingPerStation ?? 1000;
  const presence = new Presence(options.presence);
  const cmds = new CmdSessions(options.cmdTtlS);
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
    byStation: new Map(),
  };
  /** Where each station seen belongs, for notices of the presence damper. */
  const where = new Map<number, { tenantId: number; storeId: number; sn: string }>();
  const chains = new Map<string, { tail: Promise<void>; pending: number }>();
  const unsubscribes: Unsubscribe[] = [];
  let lastSilenceSweep = now();
  let lastTagSweep = now();
  let lastTimeSweep = now();
  /** When this process last told each station the time (`down/time` or a welcome), by station id. */
  const timeSentAt = new Map<number, number>();
  let closed = false;

  const drop = (station: string | null, reason: DropReason, n = 1) => {
    counters.dropped[reason] += n;
    if (!station) return;
    const per = counters.byStation.get(station) ?? {};
    per[reason] = (per[reason] ?? 0) + n;
    counters.byStation.set(station, per);
    options.syslog({
      tenantId: Number(station.split('.')[0]) || null,
      level: 'warn',
      event: 'station.bad_input',
      message: `station ${station.split('.')[1] ?? station}: dropped ${n} ${n === 1 ? 'message' : 'entries'} (${reason})`,
    });
  };
  const fail = (err: unknown, what: string) => options.onError?.(err, what);

  const tell = (n: PresenceNotice) => {
    const at = where.get(n.stationId);
    if (!at) return;
    if (n.kind === 'flapping') {
      options.syslog({
        tenantId: at.tenantId,
        level: 'warn',
        event: 'station.flapping',
        message: `station ${at.sn} went online/offline ${n.transitions} times within 5 minutes`,
      });
      notices.broadcast(at.tenantId, {
        type: 'station.status',
        id: n.stationId,
        sn: at.sn,
        storeId: at.storeId,
        flapping: true,
        at: n.at,
      });
      return;
    }
    notices.broadcast(at.tenantId, {
      type: 'station.status',
      id: n.stationId,
      sn: at.sn,
      storeId: at.storeId,
      online: n.kind === 'online',
      at: n.at,
    });
  };
  const presenceChanged = (station: repo.StationIdentity, online: boolean, why: string) => {
    where.set(station.id, { tenantId: station.tenant_id, storeId: station.store_id, sn: station.sn });
    const t = now();
    for (const n of presence.set(station.id, online, t)) tell(n);
    if (Boolean(Number(station.online)) !== online) {
      options.syslog({
        tenantId: station.tenant_id,
        level: 'info',
        event: online ? 'station.online' : 'station.offline',
        message: `station ${station.sn} ${online ? 'online' : 'offline'} (${why})`,
      });
    }
  };

  // -------------------------------------------------------------------------------------------
  // Inbound

  const receive = (m: MqttMessage) => {
    if (closed) return;
    const t = parseTopic(m.topic);
    if (!t || t.kind === 'down') return drop(null, 'badTopic');
    const name: MessageName | undefined = t.kind === 'status' ? 'status' : messageForPath(`up/${t.name}`);
    if (!name) return drop(`${t.tenantId}.${t.sn}`, 'badTopic');
    const key: StationKey = { tenantId: t.tenantId, sn: t.sn };
    const id = `${key.tenantId}.${key.sn}`;
    const chain = chains.get(id) ?? { tail: Promise.resolve(), pending: 0 };
    if (chain.pending >= maxPending) return drop(id, 'overload');
    chain.pending++;
    chains.set(id, chain);
    chain.tail = chain.tail
      .then(() => handle(key, id, name, m))
      .catch((err) => {
        counters.dropped.handlerError++;
        fail(err, `${name} from ${id}`);
      })
      .finally(() => {
        if (--chain.pending === 0 && chains.get(id) === chain) chains.delete(id);
      });
  };

  async function handle(key: StationKey, id: string, name: MessageName, m: MqttMessage): Promise<void> {
    const decoded = decodeMessage(name, m.payload);
    if (!decoded.ok) return drop(id, decoded.error);
    const station = await repo.findStation(db, key);
    if (!station) return drop(id, 'unknownStation');
    switch (name) {
      case 'status':
        return onStatus(station, decoded.message as StatusMsg);
      case 'hello':
        return onHello(key, station, decoded.message as HelloMsg);
      case 'heartbeat':
        return onHeartbeat(station, decoded.message as HeartbeatMsg);
      case 'tags':
        return onTags(id, station, decoded.message as TagsMsg);
      case 'cmdOutput':
        return onCmdOutput(station, decoded.message as CmdOutputMsg);
      case 'ack':
      case 'result':
      case 'progress':
      case 'blobRequest':
        return toEngines(station, name, decoded.message);
      default:
        return;
    }
  }

  /** Firmware jobs and blobs to the firmware engine, the rest to the task engine. */
  async function toEngines(station: repo.StationIdentity, name: MessageName, message: unknown) {
    const fw = options.firmware;
    const tasks = options.tasks;
    if (name === 'blobRequest') {
      const m = message as BlobRequestMsg;
      if (fw && (await fw.onBlob(station, m))) return;
      return tasks?.onBlob(station, m);
    }
    if (name === 'progress') return fw?.onProgress(station, message as ProgressMsg);
    if (name === 'ack') {
      const m = message as AckMsg;
      const mine = fw ? m.jobs.filter((j) => fw.owns(j.id)) : [];
      const rest = fw ? m.jobs.filter((j) => !fw.owns(j.id)) : m.jobs;
      if (fw && mine.length) await fw.onAck(station, { ...m, jobs: mine });
      if (rest.length) await tasks?.onAck(station, { ...m, jobs: rest });
      return;
    }
    const m = message as ResultMsg;
    const mine = fw ? m.results.filter((r) => fw.owns(r.id)) : [];
    const rest = fw ? m.results.filter((r) => !fw.owns(r.id)) : m.results;
    if (fw && mine.length) await fw.onResult(station, { ...m, results: mine });
    if (rest.length) await tasks?.onResult(station, { ...m, results: rest });
  }

  async function onStatus(station: repo.StationIdentity, m: StatusMsg) {
    const t = now();
    if (m.online) {
      await repo.markOnline(db, station.id, m.connId, t, Boolean(Number(station.online)));
      presenceChanged(station, true, 'connected');
      return;
    }
    if (await repo.markOffline(db, station.id, m.connId, t)) {
      presenceChanged(station, false, 'connection closed');
      return;
    }
    // Not the current connection (or already offline): an old Will racing the reconnect.
    if (station.conn_id !== m.connId) counters.staleWills++;
  }

  async function onHello(key: StationKey, station: repo.StationIdentity, m: HelloMsg) {
    const t = now();
    await repo.applyHello(db, station.id, m, t, Boolean(Number(station.online)));
    presenceChanged(station, true, 'hello');
    const desired = await repo.desiredConfig(db, station.id);
    const rev = Number(desired?.cfg_rev ?? 0);
    const time = now();
    await port.publish(
      topics.down(key, 'welcome'),
      encodeMessage('welcome', { v: 1, connId: m.connId, time, cfgRev: rev }),
      { qos: 1 },
    );
    timeSentAt.set(station.id, time);
    if (desired) await reportedConfig(key, desired, m.cfgRev);
    // Resync: what the station holds against what the tasks think it holds (DELIVERY.md §4.4).
    const fw = options.firmware;
    await options.tasks?.onHello(station, fw ? { ...m, queue: m.queue.filter(([id]) => !fw.owns(id)) } : m);
    await fw?.onHello(station, m);
    // Checked at every hello (a connect is news worth a row even when the clock was off before).
    const skew = m.time - t;
    if (Math.abs(skew) > SKEW_WARN_MS) warnSkew(station, skew);
  }

  function warnSkew(station: repo.StationIdentity, skew: number) {
    options.syslog({
      tenantId: station.tenant_id,
      level: 'warn',
      event: 'station.clock_skew',
      message: `station ${station.sn}: its clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ahead' : 'behind'}`,
    });
  }

  async function onHeartbeat(station: repo.StationIdentity, m: HeartbeatMsg) {
    options.tasks?.onHeartbeat?.(station, m);
    const desired = await repo.desiredConfig(db, station.id);
    if (desired) await reportedConfig({ tenantId: station.tenant_id, sn: station.sn }, desired, m.cfgRev);
    const t = now();
    const row = await repo.applyHeartbeat(db, station.id, m, t, Boolean(Number(station.online)));
    if (!row) return;
    // Damped: written when the skew crosses the threshold, not again until it was back within it.
    // The stored skew (of the last hello or heartbeat) is the memory, so with several server
    // processes a crossing is written once whichever process handles the heartbeat.
    const skew = m.at - t;
    const before = station.clock_skew_ms === null ? null : Number(station.clock_skew_ms);
    if (Math.abs(skew) > SKEW_WARN_MS && (before === null || Math.abs(before) <= SKEW_WARN_MS)) warnSkew(station, skew);
    if (!Number(station.online)) presenceChanged(station, true, 'heartbeat');
    notices.broadcast(station.tenant_id, {
      type: 'station.runtime',
      id: station.id,
      storeId: station.store_id,
      station: presentStation(row),
    });
  }

  async function onTags(id: string, station: repo.StationIdentity, m: TagsMsg) {
    const t = now();
    const latest = new Map<string, TagsMsg['tags'][number]>();
    for (const e of m.tags) {
      const prev = latest.get(e.id);
      if (!prev || e.seenAt >= prev.seenAt) latest.set(e.id, e);
    }
    if (latest.size === 0) return;
    const known = await repo.tagsByHardwareId(db, [...latest.keys()]);
    counters.unregisteredTags += latest.size - known.length;
    const updates: repo.TagUpdate[] = [];
    const mismatched: number[] = [];
    let foreign = 0;
    for (const tag of known) {
      // Another tenant's tag, or a tag of another store: not this station's to report.
      if (tag.tenant_id !== station.tenant_id || tag.store_id !== station.store_id) {
        foreign++;
        continue;
      }
      const e = latest.get(tag.hardware_id);
      if (!e) continue;
      const rssi = Math.round(e.rssi);
      const route = routeTo(tag, station.id, rssi);
      updates.push({
        id: tag.id,
        stationId: route,
        // The signal belongs to the station the tag is routed to (the hysteresis compares it).
        signal: route === station.id ? rssi : (tag.signal ?? rssi),
        battery: batteryPercent(e.battMv),
        temperature: e.temp === undefined ? null : Math.round(e.temp),
        hardwareModel: findTagModel(e.hw)?.name ?? e.hw,
        // Age within the report, in the server's clock: immune to the station's clock error.
        lastSeen: Math.min(t, t - Math.max(0, m.at - e.seenAt)),
        wakeS: e.wakeS ?? null,
        wakeSBefore: tag.wake_s,
        desiredBefore: tag.desired_hash,
        statusBefore: tag.status,
        shownVer: e.ver,
        fw: e.fw ?? null,
        stationChanged: route !== tag.station_id,
      });
      // Only a tag that reports another picture than it should show can need its work re-opened.
      if (tag.desired_hash !== null && tag.desired_hash.slice(0, 16) !== (e.ver ?? '')) mismatched.push(tag.id);
    }
    if (foreign > 0) drop(id, 'foreignTag', foreign);
    if (updates.length === 0) return;
    const th = await repo.thresholdsOfStore(db, station.store_id);
    await repo.storeTagReport(db, { tenantId: station.tenant_id, storeId: station.store_id }, updates, t, th);
    counters.tagEntries += updates.length;
    notices.broadcast(station.tenant_id, {
      type: 'tag.changed',
      storeId: station.store_id,
      ids: updates.map((u) => u.id),
    });
    await options.tasks?.onTagsReported(mismatched);
    await options.firmware?.onTags(station, m);
  }

  /**
   * The station said which configuration revision it runs (hello, heartbeat): stored, and when it
   * is not the desired one, the desired configuration is sent (again).
   */
  async function reportedConfig(key: StationKey, desired: repo.DesiredConfig, reported: number) {
    const rev = Number(desired.cfg_rev);
    if (desired.cfg_applied_rev === null || Number(desired.cfg_applied_rev) !== reported) {
      const heartbeatS = reported === rev && rev > 0 ? readConfig(desired.config).heartbeatS : null;
      await repo.setAppliedRev(db, desired.id, reported, heartbeatS);
    }
    if (rev > 0 && reported !== rev) await sendConfig(key, desired);
  }

  async function sendConfig(key: StationKey, d: repo.DesiredConfig) {
    const message = configMessage(readConfig(d.config), Number(d.cfg_rev), d.wifi_password);
    await port.publish(topics.down(key, 'config'), encodeMessage('config', message), { qos: 1 });
  }

  async function onCmdOutput(station: repo.StationIdentity, m: CmdOutputMsg) {
    const s = cmds.of(m.session, station.id, now());
    if (!s) return; // a closed or expired window, or another station's session
    notices.toSession(s.tenantId, s.owner, {
      type: 'station.cmd',
      id: station.id,
      session: m.session,
      seq: m.seq,
      out: m.out,
      ...(m.exit === undefined ? {} : { exit: m.exit }),
    });
  }

  const link: StationLink = {
    async configChanged(stationId) {
      const d = await repo.desiredConfig(db, stationId);
      if (!d || !Number(d.online) || !Number(d.cfg_rev)) return false;
      await sendConfig({ tenantId: d.tenant_id, sn: d.sn }, d);
      return true;
    },
    async openCmd(stationId, owner) {
      const d = await repo.desiredConfig(db, stationId);
      if (!d || !Number(d.online)) return null;
      const s = cmds.open(stationId, d.tenant_id, owner, now());
      await port.publish(
        topics.down({ tenantId: d.tenant_id, sn: d.sn }, 'cmd'),
        encodeMessage('cmd', { v: 1, session: s.id, seq: s.seq++, open: { ttlS: cmds.ttlS } }),
        { qos: 1 },
      );
      return { session: s.id, ttlS: cmds.ttlS };
    },
    async cmd(stationId, owner, session, what) {
      const s = cmds.use(session, stationId, owner, now());
      if (!s) return null;
      const d = await repo.desiredConfig(db, stationId);
      if (!d) return null;
      const seq = s.seq++;
      if (what.close) cmds.close(session, now());
      await port.publish(
        topics.down({ tenantId: d.tenant_id, sn: d.sn }, 'cmd'),
        encodeMessage('cmd', {
          v: 1,
          session,
          seq,
          ...(what.line === undefined ? {} : { line: what.line }),
          ...(what.close ? { close: true } : {}),
        }),
        { qos: 1 },
      );
      return { seq };
    },
  };

  // -------------------------------------------------------------------------------------------
  // Sweeper

  async function sweepSilence() {
    const t = now();
    const gone = await repo.markSilentOffline(db, t, missed);
    for (const s of gone) {
      presenceChanged(
        { ...s, online: 1, conn_id: '', clock_skew_ms: null },
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
    if (options.claimTimeSync && !(await options.claimTimeSync())) {
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
      await port.publish(
        topics.down({ tenantId: s.tenant_id, sn: s.sn }, 'time'),
        encodeMessage('time', { v: 1, t: now() }),
        { qos: 0 },
      );
      timeSentAt.set(s.id, t);
    }
    for (const id of timeSentAt.keys()) if (!live.has(id)) timeSentAt.delete(id);
  }

  async function sweepTagStatus() {
    const t = now();
    for (const { tenantId, storeId, th } of await repo.storesWithThresholds(db)) {
      await repo.recomputeTagStatus(db, { tenantId, storeId }, t, th);
    }
  }

  return {
    counters,
    link,
    async start() {
      if (options.share && port.retained) {
        // Several server processes: live statuses too through the shared subscription (each handled
        // by one process), and the stations' retained last statuses read once at start.
        unsubscribes.push(
          await port.subscribe(topics.serverStatusFilter, receive, { qos: 1, share: options.share }),
          await port.subscribe(topics.serverUpFilter, receive, { qos: 1, share: options.share }),
        );
        await port.retained(topics.serverStatusFilter, receive);
        return;
      }
      unsubscribes.push(
        await port.subscribe(topics.serverStatusFilter, receive, { qos: 1 }),
        await port.subscribe(topics.serverUpFilter, receive, { qos: 1, share: options.share }),
      );
    },
    async tick() {
      const t = now();
      for (const n of presence.due(t)) tell(n);
      cmds.sweep(t);
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
    async idle() {
      while (chains.size > 0) await Promise.all([...chains.values()].map((c) => c.tail));
    },
    async close() {
      closed = true;
      await Promise.all(unsubscribes.splice(0).map((u) => u().catch(() => {})));
      await this.idle();
    },
  };
}

/**
 * Which station a tag is routed to: the reporting one when the tag had none, already was its, its
 * station is offline, or this one hears it clearly better (6 dB of hysteresis against ping-pong).
 */
function routeTo(
  tag: { station_id: number | null; signal: number | null; station_online: number | null },
  reporting: number,
  rssi: number,
): number {
  if (tag.station_id === null || tag.station_id === reporting) return reporting;
  if (!Number(tag.station_online)) return reporting;
  if (tag.signal === null || rssi >= tag.signal + 6) return reporting;
  return tag.station_id;
}

/** A coin cell's voltage as a rough charge: 2.2 V empty … 3.0 V full (docs/PROTOCOL.md). */
export function batteryPercent(mv: number): number {
  return Math.max(0, Math.min(100, Math.round(((mv - 2200) / 800) * 100)));
}
