import { defineHandlers } from '../../api/handlers';
import { presentTag } from './presenter';
import { tagScreen } from './screen';
import * as tags from './service';

export const tagHandlers = defineHandlers({
  tagList: async (ctx, body) => {
    const { rows, count } = await tags.list(ctx, body);
    return { rows: rows.map(presentTag), count };
  },
  addTag: async (ctx, body) => {
    const rows = await tags.add(ctx, body);
    return { added: rows.length, tags: rows.map(presentTag) };
  },
  delTag: async (ctx, { ids }) => ({ deleted: await tags.remove(ctx, ids) }),
  bindTag: async (ctx, { hardwareId, barcode }) => presentTag(await tags.bind(ctx, hardwareId, barcode)),
  unbindTag: async (ctx, { ids }) => ({ unbound: await tags.unbind(ctx, ids) }),
  setTagTemplate: async (ctx, { ids, templateId }) => ({ updated: await tags.setTemplate(ctx, ids, templateId) }),
  refreshTag: (ctx, { ids }) => tags.operate(ctx, 'tag.refresh', ids),
  refreshAllTags: (ctx) => tags.operate(ctx, 'tag.refresh', null),
  rollCallTag: (ctx, { ids }) => tags.operate(ctx, 'tag.rollcall', ids),
  rollCallAllTags: (ctx) => tags.operate(ctx, 'tag.rollcall', null),
  tagScreen,
});
