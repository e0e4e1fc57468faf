import { defineHandlers } from '../../api/handlers';
import { importMapped, type ScheduleRows } from '../products/service';
import * as schedule from './service';

export const scheduleHandlers = defineHandlers({
  scheduleList: (ctx, body) => schedule.list(ctx, body),
  addSchedule: (ctx, body) => schedule.add(ctx, body),
  editSchedule: (ctx, { id, ...patch }) => schedule.edit(ctx, id, patch),
  cancelSchedule: async (ctx, { ids }) => ({ cancelled: await schedule.cancel(ctx, ids) }),
  // The import wizard lives with the products; its timed rows become scheduled changes here
  // (this module builds on the products module, not the reverse).
  importMapped: async (ctx) => {
    let added = 0;
    const write: ScheduleRows = async (trx, at, rows, scope, note) => {
      const done = await schedule.addByBarcodes(trx, ctx, at, rows, scope, note);
      added += done.ids.length;
      return { changes: done.ids.length, missing: done.missing };
    };
    const answer = await importMapped(ctx, write);
    await schedule.largeFileAdded(ctx, added);
    return answer;
  },
});
