import {
  OpLog,
  OpLogListBody,
  PushLog,
  PushLogListBody,
  SysLog,
  SysLogListBody,
  TagLog,
  TagLogListBody,
} from '../api/logs';
import type { Messages } from '../errors';
import { call, list } from './define';

/** The operation, system, tag-task and data-push logs. */
export const LOG_CALLS = {
  opLog: call('/log/taglog/oplist', 'log.read', OpLogListBody, OpLog, 'Operation log', list),
  sysLog: call('/log/taglog/syslist', 'log.read', SysLogListBody, SysLog, 'System log', list),
  tagTaskLog: call(
    '/log/taglog/esltasklist',
    'log.read',
    TagLogListBody,
    TagLog,
    'Tag log of the current store: one row per finished task revision, newest first',
    list,
  ),
  pushLog: call(
    '/data/pushexp/List',
    'log.read',
    PushLogListBody,
    PushLog,
    'Data-push log of the current store: console edits, imports, API batches, newest first',
    list,
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const LOG_CALL_NAMES = {
  opLog: { 'zh-CN': '查询操作日志', en: 'Read the operation log' },
  sysLog: { 'zh-CN': '查询系统日志', en: 'Read the system log' },
  tagTaskLog: { 'zh-CN': '查询价签日志', en: 'Read the tag log' },
  pushLog: { 'zh-CN': '查询数据日志', en: 'Read the data log' },
} as const satisfies Record<keyof typeof LOG_CALLS, Messages>;
