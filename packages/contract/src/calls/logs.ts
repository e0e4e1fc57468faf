import { OpLog, OpLogListBody, SysLog, SysLogListBody } from '../api/logs';
import type { Messages } from '../errors';
import { call, list, pending } from './define';

/** The operation, system, tag-task and data-push logs. */
export const LOG_CALLS = {
  opLog: call('/log/taglog/oplist', 'log.read', OpLogListBody, OpLog, 'Operation log', list),
  sysLog: call('/log/taglog/syslist', 'log.read', SysLogListBody, SysLog, 'System log', list),
  tagTaskLog: pending('/log/taglog/esltasklist', 'log.read', 'Tag task log'),
  pushLog: pending('/data/pushexp/List', 'log.read', 'Data push log'),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const LOG_CALL_NAMES = {
  opLog: { 'zh-CN': '查询操作日志', en: 'Read the operation log' },
  sysLog: { 'zh-CN': '查询系统日志', en: 'Read the system log' },
  tagTaskLog: { 'zh-CN': '查询价签日志', en: 'Read the tag log' },
  pushLog: { 'zh-CN': '查询数据日志', en: 'Read the data log' },
} as const satisfies Record<keyof typeof LOG_CALLS, Messages>;
