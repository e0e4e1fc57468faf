import type { Kysely } from 'kysely';
import type { Database, FirmwareTaskState } from '../../infra/db/schema';
import { appendTagLog } from '../../infra/logs/repository';
import type { Notices } from '../../infra/notice/notices';
import type { StationLink } from '../link/station-link';
import * as repo from './repository';

/*
 * One upgrade's steps as the firmware engine's stages share them: the engine's parts (the same
 * for every stage), the step notices and system-log rows, and the moves that end an attempt
 * (done, failed, retried).
 */

export interface FirmwareLogLine {
  tenantId: number;
  level: 'info' | 'warn';
  event: string;
  message: string;
  /** The store of the station or tag being upgraded. */
  storeId?: number;
}

export interface FirmwareCounters {
  jobsSent: number;
  chunksServed: number;
  retries: number;
}

/** What every stage of the firmware engine works with. */
export interface FirmwareCore {
  db: Kysely<Database>;
  link: StationLink;
  notices: Notices;
  now: () => number;
  syslog: (line: FirmwareLogLine) => void;
  counters: FirmwareCounters;
}

export const ACK_MS = 15_000;
/** A firmware job's TTL at the station, s: a tag's transfer waits for its check-ins. */
export const TTL_S = 3600;
export const TRANSFER_SLACK_MS = 60_000;
/** A station reboots into its new firmware, a tag reports it, within this long. */
export const INSTALL_MS = 15 * 60_000;
const KIND_WORD = { apfw: 'base station', modulefw: 'radio module', tagfw: 'tag' } as const;

/** The device an upgrade is for, in words (`tag 0A1B…`, `base station SN…`). */
export const deviceOf = (t: repo.TaskRow) =>
  t.kind === 'tagfw' ? `tag ${t.hardware_id ?? t.tag_id}` : `${KIND_WORD[t.kind]} ${t.sn ?? t.station_id}`;

export interface UpgradeSteps {
  /** One step of an upgrade: a notice to the consoles and a system-log row. */
  step(
    t: repo.TaskRow,
    state: string,
    message: string,
    extra?: { level?: 'info' | 'warn'; code?: string; done?: number },
  ): Promise<void>;
  /** A tag upgrade ended: its tag-log row. */
  tagLog(t: repo.TaskRow, result: 'ok' | 'failed' | 'cancelled', code: string, stationSn?: string): Promise<void>;
  /** The device reports the new version. */
  done(t: repo.TaskRow, reported: string): Promise<void>;
  failed(t: repo.TaskRow, code: string, message: string, from?: readonly FirmwareTaskState[]): Promise<void>;
  /** Another attempt after `retryMs`, or failed after `maxAttempts`. */
  retryOrFail(t: repo.TaskRow, code: string, why: string): Promise<void>;
}

export function upgradeSteps(core: FirmwareCore, limits: { maxAttempts: number; retryMs: number }): UpgradeSteps {
  const { db, notices, now } = core;

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
    core.syslog({
      tenantId: t.tenant_id,
      storeId: t.store_id,
      level: extra.level ?? 'info',
      event: `firmware.${state}`,
      message: `${deviceOf(t)}: firmware ${t.version} ${message}`,
    });
  }

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
    if (Number(t.attempt) >= limits.maxAttempts) {
      await failed(t, code, `failed after ${t.attempt} attempts (${why})`, repo.AT_STATION);
      return;
    }
    if (
      await repo.move(
        db,
        { id: t.id, rev: t.rev, from: repo.AT_STATION },
        { state: 'queued', code, not_before: now() + limits.retryMs, deadline: null, done_bytes: 0 },
      )
    ) {
      core.counters.retries++;
      await step(t, 'retry', `attempt ${t.attempt} failed (${why}); trying again`, { level: 'warn', code, done: 0 });
    }
  }

  return { step, tagLog, done, failed, retryOrFail };
}
