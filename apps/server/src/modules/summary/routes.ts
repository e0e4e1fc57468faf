import { defineHandlers } from '../../api/handlers';
import { presentChanges, presentModels, presentShopStatic, presentStores } from './presenter';
import * as summary from './service';

/** The dashboard's statistics (`/sumary/*`, docs/DASHBOARD.md). */
export const summaryHandlers = defineHandlers({
  shopStatic: async (ctx) => presentShopStatic(await summary.shopFigures(ctx)),
  tagModelDistribution: async (ctx) => presentModels(await summary.tagsByModel(ctx)),
  tagShopDistribution: async (ctx) => {
    const { stores, rows } = await summary.tagsByStore(ctx);
    return presentStores(stores, rows);
  },
  tagChangeStat: async (ctx, body) => {
    const { dates, rows, deliveries } = await summary.changes(ctx, body);
    return presentChanges(dates, rows, deliveries);
  },
});
