import { z } from 'zod';
import {
  AddTemplateBody,
  AlterKeyMapBody,
  CopyTemplateBody,
  DataKeyMapping,
  DeviceFontsBody,
  DeviceSendData,
  DeviceTemplatesBody,
  PreviewBody,
  PreviewData,
  SaveTemplateBody,
  Template,
  TemplateData,
  TemplateIdBody,
  TemplateListBody,
  UpdateKeyMapBody,
} from '../api/templates';
import { DeleteBody, DeleteData, Empty } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Templates, the tenant's field mapping and label previews (issue 5). */
export const TEMPLATE_CALLS = {
  dataKeyMap: call(
    '/mgr/templ/getdatekeymap',
    'template.read',
    Empty,
    z.array(DataKeyMapping),
    "The tenant's data keys (standard product fields, then custom fields) with display names",
  ),
  alterKeyMap: call(
    '/mgr/templ/Alterkeymap',
    'template.write',
    AlterKeyMapBody,
    DataKeyMapping,
    'Rename one data key, or add a custom one',
    change,
  ),
  updateDataKeyMap: call(
    '/mgr/templ/UpdateDataKeyMap',
    'template.write',
    UpdateKeyMapBody,
    z.array(DataKeyMapping),
    'Replace the field mapping; answers the whole mapping',
    change,
  ),
  templateList: call('/mgr/templ/list', 'template.read', TemplateListBody, Template, 'List templates', list),
  templateData: call(
    '/mgr/templ/gettempledata',
    'template.read',
    TemplateIdBody,
    TemplateData,
    'A template and its document, migrated to the current version',
  ),
  addTemplate: call(
    '/mgr/templ/addtemple',
    'template.write',
    AddTemplateBody,
    Template,
    'Add a template (a model, or width × length) with an empty document',
    change,
  ),
  delTemplate: call('/mgr/templ/delete', 'template.write', DeleteBody, DeleteData, 'Delete templates', change),
  alterTemplateData: call(
    '/mgr/templ/alerttempData',
    'template.write',
    SaveTemplateBody,
    Template,
    'Save a template document (validated by the labels schema); bumps the revision',
    change,
  ),
  copyTemplate: call(
    '/mgr/templ/TemplateCopy',
    'template.write',
    CopyTemplateBody,
    Template,
    'Copy a template',
    change,
  ),
  updateDeviceTemplates: call(
    '/mgr/templ/updatedevtmpl',
    'template.write',
    DeviceTemplatesBody,
    DeviceSendData,
    'Send templates to the tags: re-render and deliver every tag whose label uses them',
    change,
  ),
  updateDeviceFonts: call(
    '/mgr/templ/updatedevfonts',
    'template.write',
    DeviceFontsBody,
    DeviceSendData,
    'The fonts changed: re-render and deliver every tag whose label draws text',
    change,
  ),
  templatePreview: call(
    '/mgr/templ/preview',
    'template.read',
    PreviewBody,
    PreviewData,
    'The quantised PNG of a template with a product of the current store or sample data',
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const TEMPLATE_CALL_NAMES = {
  dataKeyMap: { 'zh-CN': '读取数据键', en: 'Read data keys' },
  alterKeyMap: { 'zh-CN': '修改数据键', en: 'Update a data key' },
  updateDataKeyMap: { 'zh-CN': '设置数据键映射', en: 'Set the data key mapping' },
  templateList: { 'zh-CN': '查询模板', en: 'List templates' },
  templateData: { 'zh-CN': '打开模板', en: 'Open a template' },
  addTemplate: { 'zh-CN': '添加模板', en: 'Add a template' },
  delTemplate: { 'zh-CN': '删除模板', en: 'Delete templates' },
  alterTemplateData: { 'zh-CN': '保存模板', en: 'Save a template' },
  copyTemplate: { 'zh-CN': '复制模板', en: 'Copy a template' },
  updateDeviceTemplates: { 'zh-CN': '下发模板', en: 'Send templates to tags' },
  updateDeviceFonts: { 'zh-CN': '下发字体', en: 'Send fonts to tags' },
  templatePreview: { 'zh-CN': '预览模板', en: 'Preview a template' },
} as const satisfies Record<keyof typeof TEMPLATE_CALLS, Messages>;
