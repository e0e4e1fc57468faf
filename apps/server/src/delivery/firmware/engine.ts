import {
  type AckMsg,
  type BlobRequestMsg,
  encodeMessage,
  type HelloMsg,
  type Job,
  type JobRef,
  LIMITS,
  type ProgressMsg,
  type ResultMsg,
  type StationKey,
  type TagsMsg,
  topics,
} from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { appendTagLog } from '../../infra/logs/repository';
import type { Notices } from '../../infra/notice/notices';
import * as repo from '../../modules/firmware/repository';
import type { MqttPort } from '../mqtt/port';

/*
 * Firmware rollout (docs/PROTOCOL.md §5.12, §10): one slot per device in `firmware_tasks`, sent
 * to the station as an `apfw`, `modulefw` or `tagfw` job whose blob is the firmware file. The
 * station pulls it in chunks, checks its SHA-256, installs; the upgrade is done only when the
 * device itself reports the new version (a station's hello, a tag's report). Job ids of firmware
 * (`zf` + 14 base-36 digits) never parse as a label task's id, so the gateway can tell them apart.
 */

export interface FirmwareStation {
  id: number;
  tenant_id: number;
  store_id: number;
  sn: string;
}

export interface FirmwareLogLine {
  tenantId: number;
  level: 'info' | 'warn';
  event: string;
  message: string;
}

export interface FirmwareEngineOptions {
  db: Kysely<Database>;
  port: MqttPort;
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

export interface FirmwareEngine {
  /** Whether a job id is one of ours. */
  owns(jobId: string): boolean;
  onHello(station: FirmwareStation, m: HelloMsg): Promise<void>;
  onAck(station: FirmwareStation, m: AckMsg): Promise<void>;
  onResult(station: FirmwareStation, m: ResultMsg): Promise<void>;
  onProgress(station: FirmwareStation, m: ProgressMsg): Promise<void>;
  /** Serves a chunk when the hash is a firmware blob this station is upgrading with; false otherwise. */
  onBlob(station: FirmwareStation, m: BlobRequestMsg): Promise<boolean>;
  onTags(station: FirmwareStation, m: TagsMsg): Promise<void>;
  /** Sends due upgrades to their stations. */
  pump(): Promise<void>;
  /** Deadlines, then a pump. */
  tick(): Promise<void>;
  /** Stops the store's tag upgrades: queued ones are cancelled, those at a station asked to stop. */
  stopTags(tenantId: number, storeId: number): Promise<{ cancelled: number; stopping: number }>;
  readonly counters: { jobsSent: number; chunksServed: number; retries: number };
}

const PREFIX = 'zf';
export const firmwareJobId = (id: number) => `${PREFIX}${id.toString(36).padStart(14, '0')}`;
export function firmwareTaskId(job: string): number | null {
  if (!/^zf[0-9a-z]{14}$/.test(job)) return null;
  const n = Number.parseInt(job.slice(2), 36);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

const ACK_MS = 15_000;
/** A firmware job's TTL at the station, s: a tag's transfer waits for its check-ins. */
const TTL_S = 3600;
const TRANSFER_SLACK_MS = 60_000;
/** A station reboots into its new firmware, a tag reports it, within this long. */
const INSTALL_MS = 15 * 60_000;
const KIND_WORD = { apfw: 'base station', modulefw: 'radio module', tagfw: 'tag' } as const;

export function createFirmwareEngine(o: FirmwareEngineOptions): FirmwareEngine {
  const { db, port, notices, now } = o;
  const maxAttempts = o.maxAttempts ?? 5;
  const retryMs = o.retryMs ?? 30_000;
  const fail = (err: unknown, what: string) => o.onError?.(err, what);
  const counters = { jobsSent: 0, chunksServed: 0, retries: 0 };
  const blobCache = new Map<string, Uint8Array>();

  const device = (t: repo.TaskRow) =>
    t.kind === 'tagfw' ? `tag ${t.hardware_id ?? t.tag_id}` : `${KIND_WORD[t.kind]} ${t.sn ?? t.station_id}`;

  /** One step of an upgrade: a notice to the consoles and a system-log row. */
  async function step(
    t: repo.TaskRow,
    state: string,
    message: string,
    extra: { level?: 'info' | 'warn'; code?: string; done?: number } = {},
  ) {
    notices.broadcast(t.tenant_id, {
      type: 'firmware.progress',
      id: t.id,
      storeId: t.store_id,
      kind: t.kind,
      state,
      code: extra.code ?? '',
      done: extra.done ?? Number(t.done_bytes),
      total: Number(t.size),
      version: t.version,
    });
    o.syslog({
      tenantId: t.tenant_id,
      level: extra.level ?? 'info',
      event: `firmware.${state}`,
      message: `${device(t)}: firmware ${t.version} ${message}`,
    });
  }

  /** A tag upgrade ended: its tag-log row. */
  async function tagLog(t: repo.TaskRow, result: 'ok' | 'failed' | 'cancelled', code: string, stationSn?: string) {
    if (t.kind !== 'tagfw' || t.tag_id === null || !t.hardware_id) return;
    await appendTagLog(db, [
      {
        tenantId: t.tenant_id,
        storeId: t.store_id,
        tagId: t.tag_id,
        hardwareId: t.hardware_id,
        kind: 'tagfw',
        rev: t.rev,
        result,
        code: code || null,
        hash: t.hash,
        stationSn: stationSn ?? t.sn ?? null,
        attempts: Number(t.attempt),
        queuedAt: Number(t.created_at),
        sentAt: t.sent_at === null ? null : Number(t.sent_at),
        finishedAt: now(),
      },
    ]);
  }

  async function done(t: repo.TaskRow, reported: string) {
    if (
      await repo.move(
        db,
        { id: t.id, rev: t.rev, from: repo.ACTIVE },
        { state: 'done', finished_at: now(), deadline: null },
      )
    ) {
      await step(t, 'done', `installed: the device reports ${reported}`, { done: Number(t.size) });
      await tagLog(t, 'ok', '');
    }
  }

  async function failed(t: repo.TaskRow, code: string, message: string, from = repo.ACTIVE) {
    if (
      await repo.move(db, { id: t.id, rev: t.rev, from }, { state: 'failed', code, finished_at: now(), deadline: null })
    ) {
      await step(t, 'failed', message, { level: 'warn', code });
      await tagLog(t, 'failed', code);
    }
  }

  async function retryOrFail(t: repo.TaskRow, code: string, why: string) {
    if (Number(t.attempt) >= maxAttempts) {
      await failed(t, code, `failed after ${t.attempt} attempts (${why})`, repo.AT_STATION);
      return;
    }
    if (
      await repo.move(
        db,
        { id: t.id, rev: t.rev, from: repo.AT_STATION },
        { state: 'queued', code, not_before: now() + retryMs, deadline: null, done_bytes: 0 },
      )
    ) {
      counters.retries++;
      await step(t, 'retry', `attempt ${t.attempt} failed (${why}); trying again`, { level: 'warn', code, done: 0 });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Dispatch

  let pumping: Promise<void> | null = null;
  let again = false;
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          again = false;
          await dispatch();
        } while (again);
      } catch (err) {
        fail(err, 'firmware dispatch');
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  }

  /*
   * What decides a dispatch is in the database, so whichever process runs it decides the same:
   * the upgrades running at the station (counted from their rows), how many tag transfers it runs
   * at once (its last hello's `caps.fwConcurrent`, which the gateway keeps on its row), the label
   * work waiting for it. With several processes
   * the station's dispatch lease (the label dispatch's) lets one of them send to it at a time, so
   * two never count the same free room.
   */
  async function dispatch() {
    const t0 = now();
    for (const st of await repo.stationsWithDueTasks(db, t0)) {
      if (o.claimStation && !(await o.claimStation(st.id))) continue;
      const running = await repo.runningAt(db, st.id);
      const due = await repo.dueTasksOfStation(db, st.id, t0, 64);
      const jobs: Job[] = [];
      let tagRoom = (st.fw_concurrent ?? 1) - running.tagTransfers;
      let stationBusy = running.station > 0;
      let labelsWait: boolean | null = null;
      for (const t of due) {
        if (t.kind === 'tagfw') {
          if (tagRoom <= 0) continue;
          labelsWait ??= await repo.labelWorkWaits(db, st.id, t0);
          if (labelsWait) continue;
        } else if (stationBusy) continue;
        const attempt = Number(t.attempt) + 1;
        if (
          !(await repo.move(
            db,
            { id: t.id, rev: t.rev, from: ['queued'] },
            { state: 'sent', attempt, sent_at: t0, deadline: t0 + ACK_MS, done_bytes: 0 },
          ))
        ) {
          continue;
        }
        if (t.kind === 'tagfw') tagRoom--;
        else stationBusy = true;
        const base = { id: firmwareJobId(t.id), rev: t.rev, att: attempt, prio: 3 as const, ttlS: TTL_S };
        const fw = { version: t.version, hash: t.hash, size: Number(t.size) };
        if (t.kind === 'tagfw') {
          jobs.push({ ...base, kind: 'tagfw', tag: t.hardware_id ?? '', fw: { ...fw, hw: [t.tag_model ?? ''] } });
        } else {
          jobs.push({ ...base, kind: t.kind, fw });
        }
        await step({ ...t, attempt }, 'sent', `sent to station ${st.sn} (attempt ${attempt})`, { done: 0 });
      }
      if (jobs.length === 0) continue;
      const key: StationKey = { tenantId: st.tenant_id, sn: st.sn };
      for (let i = 0; i < jobs.length; i += LIMITS.maxJobsPerMessage) {
        await port.publish(
          topics.down(key, 'jobs'),
          encodeMessage('jobs', { v: 1, jobs: jobs.slice(i, i + LIMITS.maxJobsPerMessage) }),
          { qos: 1 },
        );
      }
      counters.jobsSent += jobs.length;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Station messages

  const ours = async (station: FirmwareStation, ids: readonly string[]) => {
    const rows = await repo.tasksByIds(
      db,
      ids.flatMap((id) => firmwareTaskId(id) ?? []),
    );
    return new Map(
      rows
        .filter((r) => r.tenant_id === station.tenant_id && r.station_id === station.id)
        .map((r) => [firmwareJobId(r.id), r]),
    );
  };

  async function onHello(station: FirmwareStation, m: HelloMsg) {
    // The gateway stored what the hello says (versions, `caps.fwConcurrent`) before this runs.
    const held = new Map<string, number>();
    for (const [id, rev] of m.queue) if (firmwareTaskId(id) !== null) held.set(id, rev);
    const cancel: JobRef[] = [];
    const open = await repo.openTasksOfStation(db, station.id);
    const wanted = new Set(open.map((t) => firmwareJobId(t.id)));
    for (const t of open) {
      if (t.kind !== 'tagfw') {
        const reported = t.kind === 'apfw' ? m.fw.ap : (m.fw.module ?? '');
        if (reported === t.version && t.state !== 'queued') {
          await done(t, reported);
          continue;
        }
        if (t.state === 'installing') {
          await failed(t, 'rolledBack', `rolled back: the device came back on ${reported || 'an unknown version'}`);
          continue;
        }
      }
      if (t.state !== 'sent' && t.state !== 'accepted') continue;
      const id = firmwareJobId(t.id);
      if (t.kind !== 'tagfw' && t.state === 'accepted' && held.get(id) !== t.rev && m.outbox > 0) {
        // Accepted, no longer held, results waiting: the `ok` may be among them (sent just before
        // the restart and lost). The version it came back on judges that result, whichever process
        // handles it; no result → the job's deadline retries it.
        await repo.move(
          db,
          { id: t.id, rev: t.rev, from: ['accepted'] },
          { came_back_on: (t.kind === 'apfw' ? m.fw.ap : m.fw.module) ?? '' },
        );
        continue;
      }
      if (held.get(id) === t.rev) {
        if (t.state === 'sent') {
          await repo.move(
            db,
            { id: t.id, rev: t.rev, from: ['sent'] },
            { state: 'accepted', accepted_at: now(), deadline: now() + TTL_S * 1000 + TRANSFER_SLACK_MS },
          );
        }
      } else if (
        await repo.move(
          db,
          { id: t.id, rev: t.rev, from: repo.AT_STATION },
          { state: 'queued', not_before: now(), deadline: null },
        )
      ) {
        await step(t, 'queued', `no longer held by station ${station.sn}: sent again`, { done: 0 });
      }
    }
    // Firmware jobs the station holds that no open upgrade wants (stopped, replaced, finished).
    for (const [id, rev] of held) {
      const t = open.find((x) => firmwareJobId(x.id) === id);
      if (!wanted.has(id) || (t && t.rev > rev)) cancel.push([id, rev]);
    }
    if (cancel.length) {
      await port.publish(
        topics.down({ tenantId: station.tenant_id, sn: station.sn }, 'cancel'),
        encodeMessage('cancel', { v: 1, ids: cancel.slice(0, LIMITS.maxRefsPerMessage), reason: 'unknown' }),
        { qos: 1 },
      );
    }
    await pump();
  }

  async function onAck(station: FirmwareStation, m: AckMsg) {
    const rows = await ours(
      station,
      m.jobs.map((j) => j.id),
    );
    for (const a of m.jobs) {
      const t = rows.get(a.id);
      if (!t || t.rev !== a.rev) continue;
      if (a.ok) {
        if (
          await repo.move(
            db,
            { id: t.id, rev: t.rev, from: ['sent'] },
            { state: 'accepted', accepted_at: now(), deadline: now() + TTL_S * 1000 + TRANSFER_SLACK_MS },
          )
        ) {
          await step(t, 'accepted', `accepted by station ${station.sn}; downloading`, { done: 0 });
        }
      } else if (a.code === 'full') {
        await repo.move(db, { id: t.id, rev: t.rev, from: ['sent'] }, { state: 'queued', not_before: now() + 5000 });
      } else if (a.code !== 'stale') {
        await failed(t, a.code ?? 'invalid', `refused by station ${station.sn} (${a.code ?? 'invalid'})`, ['sent']);
      }
    }
    await pump();
  }

  async function onResult(station: FirmwareStation, m: ResultMsg) {
    const rows = await ours(
      station,
      m.results.map((r) => r.id),
    );
    for (const r of m.results) {
      const t = rows.get(r.id);
      if (!t || t.rev !== r.rev) continue;
      switch (r.code) {
        case 'ok': {
          const reported = t.came_back_on;
          if (reported !== null && t.kind !== 'tagfw') {
            // Installed and restarted before this result got out: the hello already said how it went.
            if (reported === t.version) await done(t, reported);
            else
              await failed(t, 'rolledBack', `rolled back: the device came back on ${reported || 'an unknown version'}`);
            break;
          }
          const t1 = now();
          if (
            await repo.move(
              db,
              { id: t.id, rev: t.rev, from: repo.AT_STATION },
              { state: 'installing', installing_at: t1, deadline: t1 + INSTALL_MS, done_bytes: Number(t.size) },
            )
          ) {
            await step(
              t,
              'installing',
              t.kind === 'tagfw'
                ? 'transferred and verified; waiting for the tag to report its new version'
                : 'downloaded and verified; installing and restarting',
              { done: Number(t.size) },
            );
          }
          break;
        }
        case 'cancelled':
          if (
            await repo.move(
              db,
              { id: t.id, rev: t.rev, from: repo.AT_STATION },
              { state: 'cancelled', code: 'stopped', finished_at: now(), deadline: null },
            )
          ) {
            await step(t, 'cancelled', 'stopped before it started; the device keeps its firmware', {
              code: 'stopped',
            });
            await tagLog(t, 'cancelled', 'stopped', station.sn);
          }
          break;
        case 'badBlob':
          await retryOrFail(t, 'badBlob', 'the downloaded file did not match its SHA-256');
          break;
        case 'timeout':
        case 'nack':
        case 'unknownTag':
          await retryOrFail(t, r.code, r.code === 'timeout' ? 'timed out' : 'transfer failed');
          break;
        default:
          await failed(t, r.code, `failed at station ${station.sn} (${r.code})`, repo.AT_STATION);
      }
    }
    const ids: JobRef[] = m.results.map((r) => [r.id, r.rev]);
    await port.publish(
      topics.down({ tenantId: station.tenant_id, sn: station.sn }, 'resack'),
      encodeMessage('resack', { v: 1, ids }),
      { qos: 1 },
    );
    await pump();
  }

  async function onProgress(station: FirmwareStation, m: ProgressMsg) {
    const t = (await ours(station, [m.id])).get(m.id);
    if (!t || t.rev !== m.rev) return;
    const bytes = Math.min(Number(t.size), m.done);
    const moved = await repo.setDoneBytes(db, { id: t.id, rev: t.rev, size: Number(t.size) }, bytes);
    if (!moved) return;
    notices.broadcast(t.tenant_id, {
      type: 'firmware.progress',
      id: t.id,
      storeId: t.store_id,
      kind: t.kind,
      state: t.state,
      code: '',
      done: bytes,
      total: Number(t.size),
      version: t.version,
    });
    // One progress row in the system log per tenth of the transfer.
    if (moved === 'tenth') {
      o.syslog({
        tenantId: t.tenant_id,
        level: 'info',
        event: 'firmware.progress',
        message: `${device(t)}: firmware ${t.version} ${bytes} of ${t.size} bytes at station ${station.sn}`,
      });
    }
  }

  async function onBlob(station: FirmwareStation, m: BlobRequestMsg): Promise<boolean> {
    const open = await repo.openTasksOfStation(db, station.id);
    if (!open.some((t) => t.hash === m.hash && t.tenant_id === station.tenant_id && t.state !== 'queued')) {
      return false;
    }
    let bytes = blobCache.get(m.hash);
    if (!bytes) {
      bytes = (await repo.firmwareBytes(db, m.hash)) ?? undefined;
      if (!bytes) return false;
      if (blobCache.size >= 8) blobCache.delete(blobCache.keys().next().value as string);
      blobCache.set(m.hash, bytes);
    }
    if (m.offset >= bytes.length) return true;
    counters.chunksServed++;
    await port.publish(
      topics.blobChunk({ tenantId: station.tenant_id, sn: station.sn }, m.hash, m.offset),
      Buffer.from(bytes.subarray(m.offset, m.offset + m.length)),
      { qos: 1 },
    );
    return true;
  }

  async function onTags(station: FirmwareStation, m: TagsMsg) {
    // Nearly every report comes from a store with no tag upgrade open: one indexed look instead
    // of the routing update and the station's task list.
    if (!(await repo.storeHasOpenTagTasks(db, station.tenant_id, station.store_id))) return;
    await repo.routeQueuedTagTasks(
      db,
      station.tenant_id,
      station.id,
      m.tags.map((e) => e.id),
    );
    const open = (await repo.openTasksOfStation(db, station.id)).filter(
      (t) => t.kind === 'tagfw' && t.hardware_id !== null,
    );
    if (open.length === 0) return;
    const byTag = new Map(open.map((t) => [t.hardware_id as string, t]));
    const t0 = now();
    for (const e of m.tags) {
      const t = byTag.get(e.id);
      if (!t || e.fw === undefined) continue;
      if (e.fw === t.version && t.state !== 'queued') {
        await done(t, e.fw);
      } else if (t.state === 'installing' && e.fw !== t.version) {
        // Heard after the install (in the server's clock): it runs the old firmware again.
        const heardAt = t0 - Math.max(0, m.at - e.seenAt);
        if (heardAt > Number(t.installing_at ?? t0)) {
          await failed(t, 'rolledBack', `rolled back: the tag reports ${e.fw}`);
        }
      }
    }
    await pump();
  }

  async function tick() {
    const t0 = now();
    for (const t of await repo.overdue(db, t0)) {
      if (t.state === 'sent') {
        await repo.move(
          db,
          { id: t.id, rev: t.rev, from: ['sent'] },
          { state: 'queued', not_before: t0, deadline: null },
        );
      } else if (t.state === 'accepted') {
        await retryOrFail(t, 'timeout', 'no result from the station in time');
      } else {
        await failed(t, 'timeout', 'never reported the new version after installing', ['installing']);
      }
    }
    await pump();
  }

  async function stopTags(tenantId: number, storeId: number) {
    // Cancel first, then read what is at the stations: an upgrade a dispatch (this process's or
    // another's) sends meanwhile is either still queued when the cancel runs, and is cancelled, or
    // sent before it, and is read below as at its station. Read the other way round, one sent
    // between the read and the cancel would be neither.
    const cancelledIds = await repo.cancelQueuedTagTasks(db, tenantId, storeId, now());
    const atStation = await repo.tagTasksAtStations(db, tenantId, storeId);
    for (let i = 0; i < cancelledIds.length; i += 1000) {
      for (const t of await repo.tasksByIds(db, cancelledIds.slice(i, i + 1000))) {
        await step(t, 'cancelled', 'stopped before it started', { code: 'stopped', done: 0 });
        await tagLog(t, 'cancelled', 'stopped');
      }
    }
    const perStation = new Map<number, { sn: string; ids: JobRef[] }>();
    for (const t of atStation) {
      if (t.station_id === null || !t.sn) continue;
      const entry = perStation.get(t.station_id) ?? { sn: t.sn, ids: [] };
      entry.ids.push([firmwareJobId(t.id), t.rev]);
      perStation.set(t.station_id, entry);
    }
    for (const { sn, ids } of perStation.values()) {
      for (let i = 0; i < ids.length; i += LIMITS.maxRefsPerMessage) {
        await port.publish(
          topics.down({ tenantId, sn }, 'cancel'),
          encodeMessage('cancel', { v: 1, ids: ids.slice(i, i + LIMITS.maxRefsPerMessage), reason: 'stopped' }),
          { qos: 1 },
        );
      }
    }
    return { cancelled: cancelledIds.length, stopping: atStation.length };
  }

  return {
    owns: (id) => firmwareTaskId(id) !== null,
    onHello,
    onAck,
    onResult,
    onProgress,
    onBlob,
    onTags,
    pump,
    tick,
    stopTags,
    counters,
  };
}
