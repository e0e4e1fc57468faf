import { defineHandlers } from '../../api/handlers';
import { presentStore } from './presenter';
import * as stores from './service';

export const storeHandlers = defineHandlers({
  storeList: async (ctx, body) => {
    const { rows, count } = await stores.list(ctx, body);
    return { rows: rows.map(presentStore), count };
  },
  addStore: async (ctx, body) => presentStore(await stores.add(ctx, body)),
  alterStore: async (ctx, { id, ...patch }) => presentStore(await stores.alter(ctx, id, patch)),
  delStore: async (ctx, { ids }) => ({ deleted: await stores.remove(ctx, ids) }),
  getStoreParams: async (ctx, { id }) => ({ id, params: await stores.getParams(ctx, id) }),
  setStoreParams: async (ctx, { id, params }) => ({ id, params: await stores.setParams(ctx, id, params) }),
});
