import { requireCaller } from '../../api/context';
import { defineHandlers } from '../../api/handlers';
import { presentOpLog, presentSysLog } from './presenter';
import { listOpLogs, listSysLogs } from './repository';

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
});
