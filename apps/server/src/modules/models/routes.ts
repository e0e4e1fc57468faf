import { defineHandlers } from '../../api/handlers';
import * as models from './service';

export const modelHandlers = defineHandlers({
  learnedModelList: async (ctx) => ({ rows: await models.list(ctx) }),
});
