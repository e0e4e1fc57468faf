import { defineHandlers } from '../../api/handlers';
import * as pages from './service';

export const pageScheduleHandlers = defineHandlers({
  pageScheduleList: (ctx, body) => pages.list(ctx, body),
  addPageSchedule: (ctx, body) => pages.add(ctx, body),
  editPageSchedule: (ctx, { id, ...patch }) => pages.edit(ctx, id, patch),
  deletePageSchedule: async (ctx, { ids }) => ({ deleted: await pages.remove(ctx, ids) }),
});
