import { defineHandlers } from '../../api/handlers';
import * as schedule from './service';

export const scheduleHandlers = defineHandlers({
  scheduleList: (ctx, body) => schedule.list(ctx, body),
  addSchedule: (ctx, body) => schedule.add(ctx, body),
  editSchedule: (ctx, { id, ...patch }) => schedule.edit(ctx, id, patch),
  cancelSchedule: async (ctx, { ids }) => ({ cancelled: await schedule.cancel(ctx, ids) }),
});
