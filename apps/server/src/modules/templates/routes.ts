import { defineHandlers } from '../../api/handlers';
import { pngDataUrl } from '../../infra/render';
import * as rules from './rules';
import * as templates from './service';

export const templateHandlers = defineHandlers({
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
