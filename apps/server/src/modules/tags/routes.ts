import { defineHandlers } from '../../api/handlers';
import { tagDelivery } from './delivery';
import { presentTag, presentWallTag } from './presenter';
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
  refreshTag: (ctx, { ids, force }) => tags.refresh(ctx, ids, force ?? false),
  refreshAllTags: (ctx, { force }) => tags.refresh(ctx, null, force ?? false),
  rollCallTag: (ctx, { ids, led }) => tags.rollCall(ctx, ids, led),
  rollCallAllTags: (ctx) => tags.rollCall(ctx, null),
  ledTag: (ctx, { ids, led }) => tags.flashLed(ctx, ids, led),
  showPage: (ctx, { ids, page, staySeconds, at }) => tags.showPage(ctx, ids, page, staySeconds, at),
  requestProgress: (ctx, { id }) => tags.progress(ctx, id),
  tagScreen,
  tagDelivery,
  setTagPosition: async (ctx, body) => presentTag(await tags.setPosition(ctx, body)),
  importTagPositions: async (ctx, { rows }) => ({ updated: await tags.importPositions(ctx, rows) }),
  tagWall: async (ctx, { aisle }) => {
    const { rows, problems, ...rest } = await tags.wall(ctx, aisle);
    return { ...rest, tags: rows.map((r) => presentWallTag(r, problems.get(r.id) ?? [])) };
  },
});
