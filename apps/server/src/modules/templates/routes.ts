import { requireTenant } from '../../api/context';
import { defineHandlers } from '../../api/handlers';
import { pngDataUrl } from '../../infra/render';
import * as fonts from '../fonts/service';
import * as rules from './rules';
import * as templates from './service';

export const templateHandlers = defineHandlers({
  // A brand font (the fonts module stores it): templates that already named its family get
  // thumbnails drawn with it (their tags are re-labelled by the upload itself).
  uploadFont: async (ctx) => {
    const font = await fonts.upload(ctx);
    const using = await fonts.templatesUsing(ctx.services.db, requireTenant(ctx).tenantId, font.family);
    if (using.length > 0) await templates.redrawThumbnails(ctx, using);
    return font;
  },
  templateList: (ctx, body) => templates.list(ctx, body),
  addTemplate: (ctx, body) => templates.add(ctx, body),
  copyTemplate: (ctx, { id, name }) => templates.copy(ctx, id, name),
  delTemplate: async (ctx, { ids }) => ({ deleted: await templates.remove(ctx, ids) }),
  templateData: (ctx, { id }) => templates.load(ctx, id),
  alterTemplateData: (ctx, body) => templates.save(ctx, body),
  updateDeviceTemplates: (ctx, { ids }) => templates.sendTemplatesToDevices(ctx, ids),
  updateDeviceFonts: (ctx) => templates.sendFontsToDevices(ctx),
  dataKeyMap: (ctx) => templates.keyMap(ctx),
  alterKeyMap: (ctx, { name, tField }) => templates.alterKey(ctx, name, tField),
  updateDataKeyMap: (ctx, { keys }) => templates.replaceKeys(ctx, keys),
  templatePreview: async (ctx, body) => {
    const { png, ...rest } = await templates.preview(ctx, body);
    return { png: pngDataUrl(png), ...rest };
  },
  templateRules: (ctx, body) => rules.listRules(ctx, body),
  setTemplateRule: (ctx, body) => rules.setRule(ctx, body),
  delTemplateRules: async (ctx, { ids }) => ({ deleted: await rules.removeRules(ctx, ids) }),
});
