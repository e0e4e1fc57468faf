import { z } from 'zod';
import {
  AddProductBody,
  AlterProductBody,
  FindProductBody,
  ImportData,
  ImportError,
  ImportInspection,
  MapFieldBody,
  MapFieldData,
  PRODUCT_EXPORT_PATH,
  PRODUCT_IMPORT_MAX_BYTES,
  Product,
  ProductExportBody,
  ProductListBody,
} from '../api/products';
import { DeleteBody, DeleteData, Empty, Nothing } from '../common';
import { ErrorCode, type Messages } from '../errors';
import { call, change, list, type RefusalWithData } from './define';

/** The media type of an XLSX workbook. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An import refused as a whole (all or nothing): 1013 with the bad rows. */
const importRefused: RefusalWithData = {
  name: 'ImportRefusal',
  code: ErrorCode.IMPORT_FAILED,
  data: z.array(ImportError),
  description: 'An import refused as a whole, nothing written: code 1013 and the bad rows (line, field, reason)',
};

/** Products of the current store (with none set: STORE_NOT_SET, 1008) and the tenant's import mapping. */
export const PRODUCT_CALLS = {
  productFieldMap: call(
    '/mgr/product/mapfield',
    'product.read',
    MapFieldBody,
    MapFieldData,
    "Read the tenant's import field mapping, or replace it when `fields` is given (needs product.import)",
    { changes: true, readsOnly: (body: Record<string, unknown>) => body.fields === undefined },
  ),
  findProduct: call('/mgr/product/find', 'product.read', FindProductBody, Product, 'Find a product by barcode'),
  productList: call('/mgr/product/list', 'product.read', ProductListBody, Product, 'List products', list),
  addProduct: call('/mgr/product/add', 'product.write', AddProductBody, Product, 'Add a product', change),
  alterProduct: call('/mgr/product/alert', 'product.write', AlterProductBody, Product, 'Update a product', change),
  delProduct: call(
    '/mgr/product/delete',
    'product.write',
    DeleteBody,
    DeleteData,
    'Delete products (their tags are unbound)',
    change,
  ),
  importProducts: call(
    '/mgr/product/import',
    'product.import',
    Empty,
    ImportData,
    'Import products: multipart/form-data with one file in field `file` (CSV in UTF-8, or XLSX), ' +
      'through the field mapping; all or nothing (1013 answers `data` as the bad rows: line, field, reason)',
    { ...change, refusal: importRefused, upload: PRODUCT_IMPORT_MAX_BYTES },
  ),
  inspectImport: call(
    '/mgr/product/importcheck',
    'product.import',
    Empty,
    ImportInspection,
    'Look at an import file before importing it (beyond SPEC): multipart/form-data with the file in field ' +
      '`file` and, before it, optional JSON options in field `options` (sheet, headerLine, columns). Answers the ' +
      'worksheets, the title row, each column with the field suggested (or chosen) for it, and the first rows ' +
      'with their problems; reads only the first rows of each sheet, within the import limits (a row over a ' +
      'limit: 1013 with it)',
    { refusal: importRefused, upload: PRODUCT_IMPORT_MAX_BYTES },
  ),
  importMapped: call(
    '/mgr/product/importmapped',
    'product.import',
    Empty,
    ImportData,
    'Import products with the sheet, title row and columns chosen in the import wizard (beyond SPEC): multipart ' +
      'as importcheck; `save: true` in the options saves the chosen titles as the field mapping on success. CSV ' +
      'in UTF-8 or GB18030, separated by commas, semicolons or tabs; all or nothing, as /mgr/product/import',
    { ...change, refusal: importRefused, upload: PRODUCT_IMPORT_MAX_BYTES },
  ),
  productExport: call(
    PRODUCT_EXPORT_PATH,
    'product.read',
    ProductExportBody,
    Nothing,
    'Export the products the list filters select as an XLSX file, titled with the field mapping so it imports ' +
      'back unchanged (refusals answer the envelope)',
    { file: { type: XLSX_TYPE, filename: 'products.xlsx' } },
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const PRODUCT_CALL_NAMES = {
  productFieldMap: { 'zh-CN': '导入字段映射', en: 'Import field mapping' },
  findProduct: { 'zh-CN': '查找商品', en: 'Find a product' },
  productList: { 'zh-CN': '查询商品', en: 'List products' },
  addProduct: { 'zh-CN': '添加商品', en: 'Add a product' },
  alterProduct: { 'zh-CN': '修改商品', en: 'Update a product' },
  delProduct: { 'zh-CN': '删除商品', en: 'Delete products' },
  importProducts: { 'zh-CN': '导入商品', en: 'Import products' },
  inspectImport: { 'zh-CN': '检查导入文件', en: 'Check an import file' },
  importMapped: { 'zh-CN': '按所选列导入商品', en: 'Import products by chosen columns' },
  productExport: { 'zh-CN': '导出商品', en: 'Export products' },
} as const satisfies Record<keyof typeof PRODUCT_CALLS, Messages>;
