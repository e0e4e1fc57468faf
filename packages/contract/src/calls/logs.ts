import { OpLog, OpLogListBody, SysLog, SysLogListBody } from '../api/logs';
import { call, list, pending } from './define';

/** The operation, system, tag-task and data-push logs. */
export const LOG_CALLS = {
  opLog: call('/log/taglog/oplist', 'log.read', OpLogListBody, OpLog, 'Operation log', list),
  sysLog: call('/log/taglog/syslist', 'log.read', SysLogListBody, SysLog, 'System log', list),
  tagTaskLog: pending('/log/taglog/esltasklist', 'log.read', 'Tag task log'),
  pushLog: pending('/data/pushexp/List', 'log.read', 'Data push log'),
} as const;
