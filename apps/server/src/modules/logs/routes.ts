import type { CallContext } from '../../api/context';
import { isAdmin, requireCaller } from '../../api/context';
import { defineHandlers } from '../../api/handlers';
import { currentStore, scopeOf, storeRefs } from '../stores/service';
import { presentOpLog, presentPushLog, presentSysLog, presentTagLog } from './presenter';
import { listOpLogs, listPushLogs, listSysLogs, listTagLogs } from './repository';

/** The stores a store-scoped reader (a tenant's user, not an administrator) may read; null: all. */
async function scopedStores(ctx: CallContext): Promise<number[] | null> {
  const caller = requireCaller(ctx);
  if (caller.tenantId === null || isAdmin(caller)) return null;
  const refs = await storeRefs(ctx.services.db, scopeOf({ ...caller, tenantId: caller.tenantId }));
  return refs.map((s) => s.id);
}

/** Each caller sees the rows of their own tenant; platform operators see the platform rows. */
export const logHandlers = defineHandlers({
  opLog: async (ctx, body) => {
    const caller = requireCaller(ctx);
    // A store-scoped user (not an administrator) reads their stores' rows only (the dashboard's
    // recent operations are this call too).
    const stores = await scopedStores(ctx);
    const reader = stores ? { storeIds: stores, username: caller.username } : null;
    const { rows, count } = await listOpLogs(ctx.services.db, caller.tenantId, body, reader);
    return { rows: rows.map((r) => presentOpLog(r, ctx.lang)), count };
  },
  sysLog: async (ctx, body) => {
    const stores = await scopedStores(ctx);
    const reader = stores ? { storeIds: stores, userId: requireCaller(ctx).userId } : null;
    const { rows, count } = await listSysLogs(ctx.services.db, requireCaller(ctx).tenantId, body, reader);
    return { rows: rows.map((r) => presentSysLog(r, ctx.lang)), count };
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
