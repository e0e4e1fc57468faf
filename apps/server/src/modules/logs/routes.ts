import { requireCaller } from '../../api/context';
import { defineHandlers } from '../../api/handlers';
import { currentStore } from '../stores/service';
import { presentOpLog, presentPushLog, presentSysLog, presentTagLog } from './presenter';
import { listOpLogs, listPushLogs, listSysLogs, listTagLogs } from './repository';

/** Each caller sees the rows of their own tenant; platform operators see the platform rows. */
export const logHandlers = defineHandlers({
  opLog: async (ctx, body) => {
    const { rows, count } = await listOpLogs(ctx.services.db, requireCaller(ctx).tenantId, body);
    return { rows: rows.map((r) => presentOpLog(r, ctx.lang)), count };
  },
  sysLog: async (ctx, body) => {
    const { rows, count } = await listSysLogs(ctx.services.db, requireCaller(ctx).tenantId, body);
    return { rows: rows.map(presentSysLog), count };
  },
  // The delivery logs belong to a store: the caller's current one. Platform operators read the
  // logs too, but no store has platform rows: their lists are empty.
  tagTaskLog: async (ctx, body) => {
    if (requireCaller(ctx).tenantId === null) return { rows: [], count: 0 };
    const { rows, count } = await listTagLogs(ctx.services.db, await currentStore(ctx), body);
    return { rows: rows.map((r) => presentTagLog(r, ctx.lang)), count };
  },
  pushLog: async (ctx, body) => {
    if (requireCaller(ctx).tenantId === null) return { rows: [], count: 0 };
    const { rows, count } = await listPushLogs(ctx.services.db, await currentStore(ctx), body);
    return { rows: rows.map((r) => presentPushLog(r, ctx.lang)), count };
  },
});
