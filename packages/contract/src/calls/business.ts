import type { z } from 'zod';
import {
  AddProductBody,
  AlterProductBody,
  FindProductBody,
  ImportData,
  MapFieldBody,
  MapFieldData,
  Product,
  ProductListBody,
} from '../api/products';
import {
  AddStationBody,
  AddStationData,
  OpenCmdWindowBody,
  OpenCmdWindowData,
  Station,
  StationListBody,
} from '../api/stations';
import {
  AddTagsBody,
  AddTagsData,
  BindTagBody,
  Tag,
  TagListBody,
  TagOperationBody,
  UnbindTagsBody,
  UnbindTagsData,
} from '../api/tags';
import type { Access, TypedCallDef } from '../calls';
import { DeleteBody, DeleteData, Empty, Nothing } from '../common';

// calls.ts spreads this map into CALLS; only types come back from it, so there is no import cycle at run time.
function def<B extends z.ZodType, D extends z.ZodType, L extends boolean>(
  path: string,
  access: Access,
  body: B,
  data: D,
  summary: string,
  flags: { list: L; changes: boolean },
): TypedCallDef<B, D, L> {
  return { path, access, body, data, summary, list: flags.list, ready: SERVER_READY, changes: flags.changes };
}

/** Flipped to true when the server's handlers for these calls land. */
const SERVER_READY = true;

const read = { list: false, changes: false } as const;
const list = { list: true, changes: false } as const;
const change = { list: false, changes: true } as const;

/**
 * Base stations, tags and products (issue 4). Every call acts on the caller's current store;
 * with none set it answers STORE_NOT_SET (1008).
 */
export const BUSINESS_CALLS = {
  // Base stations
  addStation: def(
    '/mgr/ap/add',
    'station.write',
    AddStationBody,
    AddStationData,
    'Add a base station; answers its MQTT secret once',
    change,
  ),
  delStation: def('/mgr/ap/delete', 'station.write', DeleteBody, DeleteData, 'Delete base stations', change),
  stationRuntime: def(
    '/mgr/ap/runtimelist',
    'station.read',
    StationListBody,
    Station,
    'Base stations with runtime figures',
    list,
  ),
  openCmdWindow: def(
    '/mgr/ap/opencmdwindow',
    'station.operate',
    OpenCmdWindowBody,
    OpenCmdWindowData,
    'Open a command window on a base station (recorded; delivered once the delivery layer exists)',
    change,
  ),
  // Tags
  tagList: def('/mgr/tag/list', 'tag.read', TagListBody, Tag, 'List tags with filters', list),
  addTag: def('/mgr/tag/add', 'tag.write', AddTagsBody, AddTagsData, 'Add one or many tags of one model', change),
  delTag: def('/mgr/tag/delete', 'tag.write', DeleteBody, DeleteData, 'Delete tags', change),
  bindTag: def(
    '/mgr/tag/bindesl',
    'tag.bind',
    BindTagBody,
    Tag,
    'Bind a tag (hardware ID) to a product (barcode)',
    change,
  ),
  unbindTag: def('/mgr/tag/unbindesl', 'tag.bind', UnbindTagsBody, UnbindTagsData, 'Unbind tags', change),
  refreshTag: def(
    '/mgr/tag/flashesl',
    'tag.operate',
    TagOperationBody,
    Nothing,
    'Refresh tags (recorded; answers 1010 until delivery exists)',
    change,
  ),
  refreshAllTags: def(
    '/mgr/tag/flashallesl',
    'tag.operate',
    Empty,
    Nothing,
    'Refresh every tag of the store (recorded; answers 1010 until delivery exists)',
    change,
  ),
  rollCallTag: def(
    '/mgr/tag/echoesl',
    'tag.operate',
    TagOperationBody,
    Nothing,
    'Roll-call tags (recorded; answers 1010 until delivery exists)',
    change,
  ),
  rollCallAllTags: def(
    '/mgr/tag/echoallesl',
    'tag.operate',
    Empty,
    Nothing,
    'Roll-call every tag of the store (recorded; answers 1010 until delivery exists)',
    change,
  ),
  // Products
  productFieldMap: {
    ...def(
      '/mgr/product/mapfield',
      'product.read',
      MapFieldBody,
      MapFieldData,
      "Read the tenant's import field mapping, or replace it when `fields` is given (needs product.import)",
      change,
    ),
    readsOnly: (body: Record<string, unknown>) => body.fields === undefined,
  },
  findProduct: def('/mgr/product/find', 'product.read', FindProductBody, Product, 'Find a product by barcode', read),
  productList: def('/mgr/product/list', 'product.read', ProductListBody, Product, 'List products', list),
  addProduct: def('/mgr/product/add', 'product.write', AddProductBody, Product, 'Add a product', change),
  alterProduct: def('/mgr/product/alert', 'product.write', AlterProductBody, Product, 'Update a product', change),
  delProduct: def(
    '/mgr/product/delete',
    'product.write',
    DeleteBody,
    DeleteData,
    'Delete products (their tags are unbound)',
    change,
  ),
  importProducts: def(
    '/mgr/product/import',
    'product.import',
    Empty,
    ImportData,
    'Import products: multipart/form-data with one file in field `file` (CSV in UTF-8, or XLSX), ' +
      'through the field mapping; all or nothing (1013 answers `data` as the bad rows: line, field, reason)',
    change,
  ),
} as const;
