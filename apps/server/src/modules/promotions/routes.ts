import { defineHandlers } from '../../api/handlers';
import * as promotions from './service';

export const promotionHandlers = defineHandlers({
  promotionList: (ctx, body) => promotions.list(ctx, body),
  addPromotion: (ctx, body) => promotions.add(ctx, body),
  editPromotion: (ctx, { id, ...patch }) => promotions.edit(ctx, id, patch),
  cancelPromotion: async (ctx, { ids }) => ({ cancelled: await promotions.cancel(ctx, ids) }),
});
