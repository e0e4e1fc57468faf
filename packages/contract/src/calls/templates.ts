import { z } from 'zod';
import {
  AddTemplateBody,
  AlterKeyMapBody,
  CopyTemplateBody,
  DataKeyMapping,
  DeviceFontsBody,
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
import type { Access, TypedCallDef } from '../calls';
import { DeleteBody, DeleteData, Empty, Nothing } from '../common';

// calls.ts spreads this map into CALLS, so this file cannot import calls.ts's helper at run time
// (a cycle); it builds its definitions with this small twin of it instead.
function def<B extends z.ZodType, D extends z.ZodType, L extends boolean = false>(
  path: string,
  access: Access,
  body: B,
  data: D,
  summary: string,
  opts: { list?: L; changes?: boolean } = {},
): TypedCallDef<B, D, L> {
  return {
    path,
    access,
    body,
    data,
    summary,
    list: (opts.list ?? false) as L,
    ready: true,
    changes: opts.changes ?? false,
  };
}

const change = { changes: true } as const;

/** Templates, the tenant's field mapping and label previews (issue 5). */
export const TEMPLATE_CALLS = {
  dataKeyMap: def(
    '/mgr/templ/getdatekeymap',
    'template.read',
    Empty,
    z.array(DataKeyMapping),
    "The tenant's data keys (standard product fields, then custom fields) with display names",
  ),
  alterKeyMap: def(
    '/mgr/templ/Alterkeymap',
    'template.write',
    AlterKeyMapBody,
    DataKeyMapping,
    'Rename one data key, or add a custom one',
    change,
  ),
  updateDataKeyMap: def(
    '/mgr/templ/UpdateDataKeyMap',
    'template.write',
    UpdateKeyMapBody,
    z.array(DataKeyMapping),
    'Replace the field mapping; answers the whole mapping',
    change,
  ),
  templateList: def('/mgr/templ/list', 'template.read', TemplateListBody, Template, 'List templates', { list: true }),
  templateData: def(
    '/mgr/templ/gettempledata',
    'template.read',
    TemplateIdBody,
    TemplateData,
    'A template and its document, migrated to the current version',
  ),
  addTemplate: def(
    '/mgr/templ/addtemple',
    'template.write',
    AddTemplateBody,
    Template,
    'Add a template (a model, or width × length) with an empty document',
    change,
  ),
  delTemplate: def('/mgr/templ/delete', 'template.write', DeleteBody, DeleteData, 'Delete templates', change),
  alterTemplateData: def(
    '/mgr/templ/alerttempData',
    'template.write',
    SaveTemplateBody,
    Template,
    'Save a template document (validated by the labels schema); bumps the revision',
    change,
  ),
  copyTemplate: def('/mgr/templ/TemplateCopy', 'template.write', CopyTemplateBody, Template, 'Copy a template', change),
  updateDeviceTemplates: def(
    '/mgr/templ/updatedevtmpl',
    'template.write',
    DeviceTemplatesBody,
    Nothing,
    'Send templates to devices: recorded, answers 1010 until delivery exists',
    change,
  ),
  updateDeviceFonts: def(
    '/mgr/templ/updatedevfonts',
    'template.write',
    DeviceFontsBody,
    Nothing,
    'Send fonts to devices: recorded, answers 1010 until delivery exists',
    change,
  ),
  templatePreview: def(
    '/mgr/templ/preview',
    'template.read',
    PreviewBody,
    PreviewData,
    'The quantised PNG of a template with a product of the current store or sample data',
  ),
};
