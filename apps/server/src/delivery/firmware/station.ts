import type { AckMsg, BlobRequestMsg, HelloMsg, JobRef, ProgressMsg, ResultMsg, TagsMsg } from '@esl/contract/protocol';
import { LIMITS } from '@esl/contract/protocol';
import { firmwareJobId, firmwareTaskId } from './ids';
import * as repo from './repository';
import { deviceOf, type FirmwareCore, INSTALL_MS, TRANSFER_SLACK_MS, TTL_S, type UpgradeSteps } from './upgrade';

/*
 * What the firmware engine does with a station's messages about its upgrades: the hello's resync
 * and the versions it reports, acks, results, progress, blob pulls, and tag reports (a tag's
 * version). Each ends with a pump: room may have freed for the next upgrade.
 */

export interface FirmwareStation {
  id: number;
  tenant_id: number;
  store_id: number;
  sn: string;
}

export interface FirmwareStationMessages {
  onHello(station: FirmwareStation, m: HelloMsg): Promise<void>;
  onAck(station: FirmwareStation, m: AckMsg): Promise<void>;
  onResult(station: FirmwareStation, m: ResultMsg): Promise<void>;
  onProgress(station: FirmwareStation, m: ProgressMsg): Promise<void>;
  /** Serves a chunk when the hash is a firmware blob this station is upgrading with; false otherwise. */
  onBlob(station: FirmwareStation, m: BlobRequestMsg): Promise<boolean>;
  onTags(station: FirmwareStation, m: TagsMsg): Promise<void>;
}

export function firmwareStationMessages(
  core: FirmwareCore,
  steps: UpgradeSteps,
  pump: () => Promise<void>,
): FirmwareStationMessages {
  const st: FirmwareStage = { core, steps, pump, blobCache: new Map() };
  return {
    onHello: (station, m) => onHello(st, station, m),
    onAck: (station, m) => onAck(st, station, m),
    onResult: (station, m) => onResult(st, station, m),
    onProgress: (station, m) => onProgress(st, station, m),
    onBlob: (station, m) => onBlob(st, station, m),
    onTags: (station, m) => onTags(st, station, m),
  };
}

/** What the message handlers share. */
interface FirmwareStage {
  core: FirmwareCore;
  steps: UpgradeSteps;
  pump: () => Promise<void>;
  /** The last firmware files pulled, by hash (8 at most). */
  blobCache: Map<string, Uint8Array>;
}

async function ours(db: FirmwareCore['db'], station: FirmwareStation, ids: readonly string[]) {
  const rows = await repo.tasksByIds(
    db,
    ids.flatMap((id) => firmwareTaskId(id) ?? []),
  );
  return new Map(
    rows
      .filter((r) => r.tenant_id === station.tenant_id && r.station_id === station.id)
      .map((r) => [firmwareJobId(r.id), r]),
  );
}

async function onHello(st: FirmwareStage, station: FirmwareStation, m: HelloMsg) {
  const { core, pump, steps } = st;
  const { db, now } = core;
  const { step, done, failed } = steps;
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
    await core.link.send({ tenantId: station.tenant_id, sn: station.sn }, 'cancel', {
      v: 1,
      ids: cancel.slice(0, LIMITS.maxRefsPerMessage),
      reason: 'unknown',
    });
  }
  await pump();
}

async function onAck(st: FirmwareStage, station: FirmwareStation, m: AckMsg) {
  const { core, pump, steps } = st;
  const { db, now } = core;
  const { step, failed } = steps;
  const rows = await ours(
    db,
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

async function onResult(st: FirmwareStage, station: FirmwareStation, m: ResultMsg) {
  const { core, steps, pump } = st;
  const { db, now } = core;
  const { step, done, failed } = steps;
  const rows = await ours(
    db,
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
          await steps.tagLog(t, 'cancelled', 'stopped', station.sn);
        }
        break;
      case 'badBlob':
        await steps.retryOrFail(t, 'badBlob', 'the downloaded file did not match its SHA-256');
        break;
      case 'timeout':
      case 'nack':
      case 'unknownTag':
        await steps.retryOrFail(t, r.code, r.code === 'timeout' ? 'timed out' : 'transfer failed');
        break;
      default:
        await failed(t, r.code, `failed at station ${station.sn} (${r.code})`, repo.AT_STATION);
    }
  }
  const ids: JobRef[] = m.results.map((r) => [r.id, r.rev]);
  await core.link.send({ tenantId: station.tenant_id, sn: station.sn }, 'resack', { v: 1, ids });
  await pump();
}

async function onProgress(st: FirmwareStage, station: FirmwareStation, m: ProgressMsg) {
  const { core } = st;
  const { db } = core;
  const t = (await ours(db, station, [m.id])).get(m.id);
  if (!t || t.rev !== m.rev) return;
  const bytes = Math.min(Number(t.size), m.done);
  const moved = await repo.setDoneBytes(db, { id: t.id, rev: t.rev, size: Number(t.size) }, bytes);
  if (!moved) return;
  core.notices.broadcast(t.tenant_id, {
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
    core.syslog({
      tenantId: t.tenant_id,
      storeId: t.store_id,
      level: 'info',
      event: 'firmware.progress',
      message: `${deviceOf(t)}: firmware ${t.version} ${bytes} of ${t.size} bytes at station ${station.sn}`,
    });
  }
}

async function onBlob(st: FirmwareStage, station: FirmwareStation, m: BlobRequestMsg): Promise<boolean> {
  const { core, blobCache } = st;
  const { db } = core;
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
  core.counters.chunksServed++;
  await core.link.sendBlobChunk(
    { tenantId: station.tenant_id, sn: station.sn },
    m.hash,
    m.offset,
    bytes.subarray(m.offset, m.offset + m.length),
  );
  return true;
}

async function onTags(st: FirmwareStage, station: FirmwareStation, m: TagsMsg) {
  const { core, pump, steps } = st;
  const { db, now } = core;
  const { done, failed } = steps;
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
