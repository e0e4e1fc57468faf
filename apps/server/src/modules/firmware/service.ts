import type { FirmwareChoice, UpgradeStarted } from '@esl/contract';
import { FIRMWARE_UPLOAD_MAX_BYTES } from '@esl/contract';
import { firmwareFits } from '@esl/contract/protocol';
import type {} from '@fastify/multipart';
import { type CallContext, requireCaller } from '../../api/context';
import { AppError, badFile, invalidField, notFound } from '../../api/errors';
import { writeSysLog } from '../../infra/audit/syslog';
import type { FirmwareTaskKind } from '../../infra/db/schema';
import { currentStore } from '../stores/service';
import { checkFirmwareFile, STORED_KIND } from './file';
import { presentChoice } from './presenter';
import * as repo from './repository';

/*
 * Firmware files and upgrades as the console and the API ask for them. Files are the platform's:
 * the operator uploads each once and every tenant upgrades with it (a station model or a tag's
 * hardware runs the same firmware whoever owns it). Upgrades are per store.
 */

/** The one file of a multipart upload (field `file`); a second file is refused. */
async function readOneFile(ctx: CallContext): Promise<{ name: string; bytes: Buffer }> {
  if (!ctx.request.isMultipart()) throw badFile('fileMissing');
  let file: { name: string; bytes: Buffer } | null = null;
  try {
    for await (const part of ctx.request.parts({ limits: { fileSize: FIRMWARE_UPLOAD_MAX_BYTES, files: 2 } })) {
      if (part.type !== 'file') continue;
      if (file !== null || part.fieldname !== 'file') {
        part.file.resume();
        throw badFile('oneFile');
      }
      file = { name: part.filename.slice(0, 100), bytes: await part.toBuffer() };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badFile('firmwareSize');
    if (code === 'FST_FILES_LIMIT') throw badFile('oneFile');
    throw badFile('fileMissing');
  }
  if (!file) throw badFile('fileMissing');
  return file;
}

/** Stores an uploaded firmware file once (the same content again answers the stored one). */
export async function upload(ctx: CallContext): Promise<FirmwareChoice> {
  const { db } = ctx.services;
  const file = await readOneFile(ctx);
  ctx.target = { kind: 'file', name: file.name };
  const checked = checkFirmwareFile(file.bytes);
  if (!checked) throw badFile('notUpgradeFile');
  const known = await repo.firmwareByHash(db, checked.hash);
  if (known) return presentChoice(known);
  const { header } = checked;
  await repo.insertFirmware(db, {
    kind: STORED_KIND[header.kind],
    version: header.version,
    name: header.name ?? file.name,
    bytes: file.bytes,
    hash: checked.hash,
    payloadHash: checked.payloadHash,
    models: header.models ?? [],
    hw: header.hw ?? [],
    now: ctx.now,
  });
  await writeSysLog(ctx.services, {
    tenantId: null,
    level: 'info',
    event: 'firmware.uploaded',
    message: `firmware ${header.kind} ${header.version} uploaded (${file.bytes.length} bytes, SHA-256 ${checked.hash})`,
    time: ctx.now,
  });
  const row = await repo.firmwareByHash(db, checked.hash);
  if (!row) throw notFound();
  return presentChoice(row);
}

export async function choices(ctx: CallContext, kind?: 'ap' | 'module' | 'tag') {
  requireCaller(ctx);
  return (await repo.firmwareChoices(ctx.services.db, kind)).map(presentChoice);
}

const engineOf = (ctx: CallContext) => ctx.request.server.delivery?.firmware ?? null;

async function firmwareFor(ctx: CallContext, id: number, kind: 'ap' | 'module' | 'tag') {
  const fw = await repo.firmwareById(ctx.services.db, id);
  if (!fw) throw notFound();
  if (fw.kind !== kind) throw invalidField('firmwareId', 'firmwareKind');
  return { ...fw, models: JSON.parse(fw.models) as string[], hw: JSON.parse(fw.hw) as string[] };
}

/** Upgrades base stations (`apfw`) or their radio modules (`modulefw`) of the current store. */
export async function upgradeStations(
  ctx: CallContext,
  body: { firmwareId: number; ids: number[] },
  kind: 'apfw' | 'modulefw',
): Promise<UpgradeStarted> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const fw = await firmwareFor(ctx, body.firmwareId, kind === 'apfw' ? 'ap' : 'module');
  const stations = await repo.stationsOfStore(db, at.tenantId, at.storeId, body.ids);
  if (stations.length === 0) throw notFound();
  ctx.target = { kind: 'stations', names: stations.slice(0, 5).map((s) => s.sn), count: stations.length };
  const out = { tasks: 0, incompatible: 0, current: 0 };
  for (const s of stations) {
    const running = kind === 'apfw' ? s.firmware : s.module_firmware;
    if (!firmwareFits({ kind: kind === 'apfw' ? 'station' : 'module', models: fw.models }, s.station_model)) {
      out.incompatible++;
      continue;
    }
    if (running === fw.version) {
      out.current++;
      continue;
    }
    await open(ctx, at, kind, fw, { stationId: s.id, tagId: null, key: `s:${s.id}`, from: running, device: s.sn });
    out.tasks++;
  }
  await engineOf(ctx)?.pump();
  return out;
}

/** Upgrades the current store's tags the firmware fits (all, or the ones listed). */
export async function upgradeTags(
  ctx: CallContext,
  body: { firmwareId: number; ids?: number[] },
): Promise<UpgradeStarted> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const fw = await firmwareFor(ctx, body.firmwareId, 'tag');
  const every = await repo.tagsOfStore(db, at.tenantId, at.storeId, fw.hw, body.ids);
  const asked = body.ids ? new Set(body.ids).size : every.length;
  ctx.target = body.ids
    ? { kind: 'tags', names: every.slice(0, 5).map((t) => t.hardware_id), count: every.length }
    : { kind: 'allTags' };
  const out = { tasks: 0, incompatible: Math.max(0, asked - every.length), current: 0 };
  for (const t of every) {
    if (t.fw === fw.version) {
      out.current++;
      continue;
    }
    await open(ctx, at, 'tagfw', fw, {
      stationId: t.station_id,
      tagId: t.id,
      key: `t:${t.id}`,
      from: t.fw,
      device: t.hardware_id,
      quiet: every.length > 50,
    });
    out.tasks++;
  }
  if (every.length > 50 && out.tasks > 0) {
    await writeSysLog(ctx.services, {
      tenantId: at.tenantId,
      storeId: at.storeId,
      level: 'info',
      event: 'firmware.queued',
      message: `tag firmware ${fw.version} queued for ${out.tasks} tags`,
      time: ctx.now,
    });
  }
  await engineOf(ctx)?.pump();
  return out;
}

async function open(
  ctx: CallContext,
  at: { tenantId: number; storeId: number; userId: number },
  kind: FirmwareTaskKind,
  fw: { id: number; version: string; hash: string; size: number },
  d: { stationId: number | null; tagId: number | null; key: string; from: string; device: string; quiet?: boolean },
) {
  await repo.openTask(ctx.services.db, {
    tenantId: at.tenantId,
    storeId: at.storeId,
    targetKey: d.key,
    kind,
    stationId: d.stationId,
    tagId: d.tagId,
    firmwareId: fw.id,
    version: fw.version,
    hash: fw.hash,
    size: Number(fw.size),
    fromVersion: d.from,
    createdBy: at.userId,
    now: ctx.now,
  });
  if (d.quiet) return;
  const what = kind === 'tagfw' ? 'tag' : kind === 'apfw' ? 'base station' : 'radio module';
  await writeSysLog(ctx.services, {
    tenantId: at.tenantId,
    storeId: at.storeId,
    level: 'info',
    event: 'firmware.queued',
    message: `${what} ${d.device}: firmware ${fw.version} queued (running ${d.from || 'an unknown version'})`,
    time: ctx.now,
  });
}

/** Stops the current store's tag upgrades that have not started. */
export async function stopTags(ctx: CallContext) {
  const at = await currentStore(ctx);
  ctx.target = { kind: 'allTags' };
  const engine = engineOf(ctx);
  if (engine) return engine.stopTags(at.tenantId, at.storeId);
  const cancelled = await repo.cancelQueuedTagTasks(ctx.services.db, at.tenantId, at.storeId, ctx.now);
  return { cancelled: cancelled.length, stopping: 0 };
}

export async function list(
  ctx: CallContext,
  f: { page: number; limit: number; kind?: FirmwareTaskKind; state?: repo.TaskFilter['state'] },
) {
  const at = await currentStore(ctx);
  return repo.listTasks(ctx.services.db, { ...f, tenantId: at.tenantId, storeId: at.storeId });
}
