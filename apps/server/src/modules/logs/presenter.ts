import { describeTarget, type Language, type OpLog, operationName, type SysLog } from '@esl/contract';

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

export function presentSysLog(row: {
  id: number;
  time: number;
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
}): SysLog {
  return { id: row.id, time: Number(row.time), level: row.level, event: row.event, message: row.message };
}
