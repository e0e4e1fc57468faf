import {
  describeTarget,
  type Language,
  type OpLog,
  operationName,
  PUSH_SOURCE_LABELS,
  type PushLog,
  type SysLog,
  sysEventName,
  sysLogMessage,
  TAG_LOG_RESULT_LABELS,
  type TagLog,
  tagLogKindName,
  tagLogMessage,
} from '@esl/contract';
import type { PushLogRow, TagLogRow } from './repository';

export function presentOpLog(
  row: {
    id: number;
    time: number;
    username: string;
    store_id: number | null;
    store_name: string | null;
    call: string;
    target: string;
    code: number;
    msg: string;
    ip: string;
  },
  lang: Language,
): OpLog {
  return {
    id: row.id,
    time: Number(row.time),
    username: row.username,
    storeId: row.store_id,
    storeName: row.store_name ?? '',
    call: row.call,
    operation: operationName(row.call, lang),
    target: describeTarget(row.target, lang),
    code: row.code,
    msg: row.msg,
    ip: row.ip,
  };
}

/** A system-log row in the reader's language: the event as a word, the message in its words. */
export function presentSysLog(
  row: {
    id: number;
    time: number;
    level: 'info' | 'warn' | 'error';
    event: string;
    message: string;
    store_id: number | null;
    store_name: string | null;
  },
  lang: Language,
): SysLog {
  return {
    id: row.id,
    time: Number(row.time),
    level: row.level,
    event: row.event,
    eventName: sysEventName(row.event, lang),
    message: sysLogMessage(row.message, lang),
    storeId: row.store_id,
    storeName: row.store_name ?? '',
  };
}

/** PostgreSQL answers bigint columns as strings. */
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function presentTagLog(row: TagLogRow, lang: Language): TagLog {
  const queuedAt = num(row.queued_at);
  const finishedAt = Number(row.finished_at);
  return {
    id: row.id,
    tagId: row.tag_id,
    hardwareId: row.hardware_id,
    requestId: row.request_id,
    kind: row.kind,
    kindName: tagLogKindName(row.kind, lang),
    rev: row.rev,
    result: row.result,
    resultName: TAG_LOG_RESULT_LABELS[row.result]?.[lang] ?? row.result,
    code: row.code,
    message: tagLogMessage(row, lang),
    hash: row.hash,
    stationSn: row.station_sn,
    attempts: row.attempts,
    queuedAt,
    sentAt: num(row.sent_at),
    finishedAt,
    latencyMs: queuedAt === null ? null : Math.max(0, finishedAt - queuedAt),
    airMs: row.air_ms,
    rssi: row.rssi,
  };
}

/** The stored exceptions (a JSON array of strings); anything else reads as none. */
function exceptionsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}

export function presentPushLog(row: PushLogRow, lang: Language): PushLog {
  return {
    id: row.id,
    source: row.source,
    sourceName: PUSH_SOURCE_LABELS[row.source]?.[lang] ?? row.source,
    username: row.username ?? '',
    products: row.products,
    tagsAffected: row.tags_affected,
    rendered: row.rendered,
    failed: row.failed,
    exceptions: exceptionsOf(row.exceptions),
    exceptionCount: row.exception_count,
    startedAt: Number(row.started_at),
    finishedAt: num(row.finished_at),
  };
}
