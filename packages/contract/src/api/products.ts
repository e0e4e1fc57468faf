import { z } from 'zod';
import { Id, Line, Paging, RequiredLine } from '../common';
import type { Messages } from '../errors';
import { LocalTime, SCHEDULE_SCOPES } from './clock';
import { SortOrder } from './tags';

/**
 * Prices cross the wire as decimal strings with at most two fraction digits ("12.5", "12.50");
 * a JSON number is accepted and read through its decimal text. The server keeps integer cents
 * and answers strings with exactly two fraction digits, so no price ever passes through a float.
 */
const PRICE_DIGITS = 10;
/** The longest price as typed: its digits, the point and two decimals (13 characters). */
export const PRICE_CHARS = PRICE_DIGITS + 3;
export const PRICE_PATTERN = new RegExp(`^\\d{1,${PRICE_DIGITS}}(\\.\\d{1,2})?$`);
export const Price = z
  .union([z.string(), z.number()], {
    error: (issue) => (issue.input === undefined || issue.input === null ? 'required' : 'invalid'),
  })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .pipe(z.string().min(1, 'required').regex(PRICE_PATTERN, 'invalid'));

/** Letters, digits and . _ - (EAN, UPC, internal codes). */
export const BARCODE_PATTERN = /^[0-9A-Za-z._-]{1,64}$/;
export const Barcode = z.string().trim().min(1, 'required').max(64).regex(BARCODE_PATTERN, 'invalid');

/** The standard product fields, in the order forms, exports and the field mapping list them. */
export const PRODUCT_FIELDS = [
  'barcode',
  'name',
  'price',
  'originalPrice',
  'unit',
  'spec',
  'origin',
  'grade',
  'qrcode',
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];
/** Fields every imported row must have. */
export const REQUIRED_PRODUCT_FIELDS: readonly ProductField[] = ['barcode', 'name', 'price'];

/** Characters of a custom field key. */
export const CUSTOM_KEY_CHARS = 32;
/** Custom fields one product may have. */
export const CUSTOM_FIELDS_MAX = 50;
/** Characters of a custom field's value. */
export const CUSTOM_VALUE_CHARS = 500;
/**
 * Custom field keys: a letter, then letters, digits or '_' (a template binds them as data keys,
 * like the standard fields); never a standard field's name; at most CUSTOM_FIELDS_MAX per product.
 */
export const CUSTOM_KEY_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${CUSTOM_KEY_CHARS - 1}}$`);
export const isCustomKey = (key: string): boolean =>
  CUSTOM_KEY_PATTERN.test(key) && !(PRODUCT_FIELDS as readonly string[]).includes(key);
export const CustomFields = z
  .record(z.string().refine(isCustomKey, 'invalid'), Line(CUSTOM_VALUE_CHARS))
  .refine((r) => Object.keys(r).length <= CUSTOM_FIELDS_MAX, 'tooBig');

export const PRODUCT_FIELD_LABELS: Record<ProductField, Messages> = {
  barcode: { 'zh-CN': '条码', en: 'barcode' },
  name: { 'zh-CN': '名称', en: 'name' },
  price: { 'zh-CN': '价格', en: 'price' },
  originalPrice: { 'zh-CN': '原价', en: 'original price' },
  unit: { 'zh-CN': '单位', en: 'unit' },
  spec: { 'zh-CN': '规格', en: 'spec' },
  origin: { 'zh-CN': '产地', en: 'origin' },
  grade: { 'zh-CN': '等级', en: 'grade' },
  qrcode: { 'zh-CN': '二维码', en: 'QR code' },
};

export const Product = z.object({
  id: z.number().int(),
  barcode: z.string(),
  qrcode: z.string(),
  name: z.string(),
  /** Decimal string with two fraction digits, e.g. "12.50". */
  price: z.string(),
  originalPrice: z.string().nullable(),
  unit: z.string(),
  spec: z.string(),
  origin: z.string(),
  grade: z.string(),
  custom: z.record(z.string(), z.string()),
  /** How many times the price changed since the product was created. */
  priceChanges: z.number().int(),
  /** How many tags show this product. */
  tags: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Product = z.infer<typeof Product>;

/**
 * What a product supplies to a label (server renders and the editor's preview alike): the
 * standard fields under their data keys, prices as the product's decimal strings ("12.50"), and
 * the custom fields under their own keys (a custom field never hides a standard one).
 */
export function productLabelData(product: Product): Readonly<Record<string, string | null>> {
  return {
    ...product.custom,
    name: product.name,
    price: product.price,
    originalPrice: product.originalPrice,
    barcode: product.barcode,
    qrcode: product.qrcode,
    unit: product.unit,
    spec: product.spec,
    origin: product.origin,
    grade: product.grade,
  };
}

/**
 * Each product field as every call that writes products spells it (the console's add and alter,
 * the import, the integration API's upsert): the calls differ only in which are required and what
 * an absent one means.
 */
export const ProductFieldTypes = z.object({
  barcode: Barcode,
  name: Line(200),
  price: Price,
  /** null clears it. */
  originalPrice: Price.nullable(),
  unit: Line(20),
  spec: Line(64),
  origin: Line(64),
  grade: Line(32),
  qrcode: Line(500),
  custom: CustomFields,
});

const t = ProductFieldTypes.shape;
const ProductFields = {
  barcode: t.barcode,
  name: RequiredLine(200),
  price: t.price,
  /** Empty or null clears it. */
  originalPrice: t.originalPrice.optional(),
  unit: t.unit.default(''),
  spec: t.spec.default(''),
  origin: t.origin.default(''),
  grade: t.grade.default(''),
  qrcode: t.qrcode.default(''),
  custom: t.custom.default({}),
};

export const AddProductBody = z.object(ProductFields);

/** Only the fields given change; `custom`, when given, replaces the whole set. */
export const AlterProductBody = z.object({
  id: Id,
  barcode: Barcode.optional(),
  name: RequiredLine(200).optional(),
  price: Price.optional(),
  originalPrice: Price.nullable().optional(),
  unit: Line(20).optional(),
  spec: Line(64).optional(),
  origin: Line(64).optional(),
  grade: Line(32).optional(),
  qrcode: Line(500).optional(),
  custom: CustomFields.optional(),
});

export const FindProductBody = z.object({ barcode: Barcode });

export const PRODUCT_SORTS = ['id', 'barcode', 'name', 'price', 'priceChanges', 'updatedAt'] as const;

/** The filters of the product list; export takes the same ones without paging. */
export const ProductFilter = z.object({
  /** Contained in the barcode or the name, case-insensitive. */
  text: Line(64).optional(),
  /** true: only products shown on at least one tag; false: only products on no tag. */
  bound: z.boolean().optional(),
  /** Default: newest first (id desc). */
  sort: z.enum(PRODUCT_SORTS).default('id'),
  order: SortOrder.default('desc'),
});
export const ProductListBody = Paging.extend(ProductFilter.shape);
export const ProductExportBody = ProductFilter;

/**
 * The tenant's import field mapping: each entry maps the file column titled `tField` to the
 * product field `name` — a standard field (PRODUCT_FIELDS) or a custom field key. Titles match
 * trimmed and case-insensitively; a standard field with no entry also matches a column titled
 * with its own name (e.g. "barcode").
 */
export const FieldMapName = z
  .string()
  .trim()
  .refine((s) => (PRODUCT_FIELDS as readonly string[]).includes(s) || isCustomKey(s), 'invalid');
export const FieldMap = z.object({ name: FieldMapName, tField: RequiredLine(64) });
export type FieldMap = z.infer<typeof FieldMap>;

/** Without `fields`: read the mapping. With `fields`: replace it (needs product.import). */
export const MapFieldBody = z.object({
  fields: z
    .array(FieldMap)
    .max(100)
    .refine((a) => new Set(a.map((f) => f.name)).size === a.length, 'invalid')
    .refine((a) => new Set(a.map((f) => f.tField.toLowerCase())).size === a.length, 'invalid')
    .optional(),
});
/** The mapping in effect: every standard field (with its default title when never set), then custom ones. */
export const MapFieldData = z.object({ fields: z.array(FieldMap) });

/** The titles a new tenant's mapping starts with. */
export const DEFAULT_FIELD_TITLES: Record<ProductField, string> = {
  barcode: '条码',
  name: '名称',
  price: '价格',
  originalPrice: '原价',
  unit: '单位',
  spec: '规格',
  origin: '产地',
  grade: '等级',
  qrcode: '二维码',
};

// Import and export: POST multipart (field `file`) to /api/mgr/product/import (the importProducts
// call); POST the list filters as JSON to /api/mgr/product/export (the productExport call, which
// answers an XLSX file, or the envelope on a refusal).
export const PRODUCT_EXPORT_PATH = '/mgr/product/export';
export const PRODUCT_IMPORT_MAX_BYTES = 64 * 1024 * 1024;
export const PRODUCT_IMPORT_MAX_ROWS = 200_000;

export const ImportData = z.object({
  /** Product rows in the file. */
  total: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  /** Rows naming an existing product with the values it already has: nothing written. */
  unchanged: z.number().int(),
  /** Wizard imports with times: rows that became scheduled changes, and the changes (one per store). */
  scheduled: z.number().int().optional(),
  scheduledChanges: z.number().int().optional(),
});
export type ImportData = z.infer<typeof ImportData>;

// The import wizard (beyond SPEC): POST multipart to /api/mgr/product/importcheck to look at a
// file before importing it, then to /api/mgr/product/importmapped to import it with the columns
// chosen. Both take the file in field `file` and these options, as JSON, in field `options`
// (sent before the file).
export const IMPORT_PREVIEW_ROWS = 10;
/** Worksheets whose first rows are looked at; later ones are listed but not offered. */
export const IMPORT_SHEETS_INSPECTED = 32;
/** The first rows where the title row is looked for. */
export const IMPORT_HEADER_SEARCH_ROWS = 10;

/**
 * The import wizard's column "takes effect at" (issue 29, docs/SCHEDULE.md): not a product field,
 * so its name can be neither a standard field nor a custom key. A row with a time there becomes a
 * scheduled change of its product instead of being written now.
 */
export const IMPORT_TIME_FIELD = '@effectiveAt';
export const IMPORT_TIME_LABEL: Messages = { 'zh-CN': '生效时间', en: 'takes effect at' };

export const ImportOptions = z.object({
  /** The worksheet, in the workbook's order (0: the first); a CSV file has one, 0. */
  sheet: z.number().int().min(0).max(10_000).optional(),
  /** The line of the title row; the rows below it are products. Unset: the row that maps best. */
  headerLine: z.number().int().min(1).max(1_048_576).optional(),
  /**
   * The product field each column fills, by column position ('' for none): a standard field or a
   * custom key of the mapping. Unset: the suggested columns.
   */
  columns: z
    .array(z.union([z.literal(''), z.literal(IMPORT_TIME_FIELD), FieldMapName]))
    .max(256)
    .optional(),
  /** Import only: on success, save the titles of the chosen columns as the tenant's field mapping. */
  save: z.boolean().optional(),
  /**
   * One time for the whole file (docs/SCHEDULE.md): every row becomes a scheduled change at this
   * wall-clock time of each store, except a row whose "takes effect at" cell gives its own.
   */
  at: LocalTime.optional(),
  /** Whom the scheduled rows change: this store's product, or every visible store's with the barcode. */
  scope: z.enum(SCHEDULE_SCOPES).optional(),
});
export type ImportOptions = z.infer<typeof ImportOptions>;

/** How a column came to its field: the mapping's title, a synonym, a product code, the caller's choice. */
export const ImportColumnMatch = z.enum(['saved', 'synonym', 'weak', 'chosen']);
export type ImportColumnMatch = z.infer<typeof ImportColumnMatch>;

export const ImportColumn = z.object({
  index: z.number().int(),
  /** The column's title in the file. */
  title: z.string(),
  /** The field it fills, or null: not imported. */
  field: z.string().nullable(),
  match: ImportColumnMatch.nullable(),
});
export type ImportColumn = z.infer<typeof ImportColumn>;

export const ImportSheet = z.object({
  index: z.number().int(),
  name: z.string(),
  /** The line of the row that maps best (0: the sheet was not looked at or holds no rows). */
  headerLine: z.number().int(),
  /** Product fields that row maps. */
  matched: z.number().int(),
});
export type ImportSheet = z.infer<typeof ImportSheet>;

export const ImportPreviewRow = z.object({
  line: z.number().int(),
  cells: z.array(z.string()),
  /** What the import would refuse in this row (field, reason in the caller's language). */
  problems: z.array(z.object({ field: z.string(), reason: z.string() })),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRow>;

export const ImportInspection = z.object({
  kind: z.enum(['xlsx', 'csv']),
  /** CSV only: the encoding and separator found. */
  encoding: z.enum(['utf-8', 'utf-8-bom', 'gb18030']).nullable(),
  delimiter: z.enum([',', ';', '\t']).nullable(),
  sheets: z.array(ImportSheet),
  /** The worksheet shown: the one asked for, else the one whose title row maps best. */
  sheet: z.number().int(),
  headerLine: z.number().int(),
  /** The first rows of the sheet, any of which may be chosen as the title row: line and a glimpse of its cells. */
  lines: z.array(z.object({ line: z.number().int(), text: z.string() })),
  columns: z.array(ImportColumn),
  /** Required fields no column fills. */
  missing: z.array(z.string()),
  /** The fields a column may be given: the standard ones, then the mapping's custom ones. */
  fields: z.array(FieldMap),
  /** The first product rows under the title row. */
  preview: z.array(ImportPreviewRow),
});
export type ImportInspection = z.infer<typeof ImportInspection>;

/** One bad row of a refused import (code 1013 answers `data` as an array of these). */
export const ImportError = z.object({
  /** Line number in the file: the title row is line 1 (a CSV record spanning lines counts from its first). */
  line: z.number().int(),
  /** The product field or custom key, or '' for a problem of the whole row or file. */
  field: z.string(),
  /** Why, in the caller's language. */
  reason: z.string(),
});
export type ImportError = z.infer<typeof ImportError>;

/** Reasons an import row is refused; `{detail}` is filled in (a line number, a column title). */
export const IMPORT_REASONS = {
  required: { 'zh-CN': '{field}不能为空', en: '{field} cannot be empty' },
  invalid: { 'zh-CN': '{field}格式不正确', en: '{field} has the wrong format' },
  tooLong: { 'zh-CN': '{field}过长', en: '{field} is too long' },
  lineBreak: { 'zh-CN': '{field}不允许换行', en: '{field}: no line breaks allowed' },
  duplicate: {
    'zh-CN': '条码与第 {detail} 行重复',
    en: 'the barcode repeats the one on line {detail}',
  },
  missingColumn: { 'zh-CN': '缺少列：{detail}', en: 'missing column: {detail}' },
  // The import wizard's choices (beyond SPEC).
  missingField: { 'zh-CN': '没有列对应“{detail}”', en: 'no column is chosen for “{detail}”' },
  columnTwice: { 'zh-CN': '“{detail}”对应了多个列', en: '“{detail}” is chosen for more than one column' },
  noHeader: {
    'zh-CN': '第 {detail} 行不能作为标题行：请从前 10 个有内容的行中选择',
    en: 'line {detail} cannot be the title row: choose one of the first 10 rows that hold text',
  },
  noRows: { 'zh-CN': '文件中没有商品行', en: 'the file has no product rows' },
  // A row with a time (docs/SCHEDULE.md): a date and minute, and a product the store has.
  badTime: {
    'zh-CN': '{field}格式不正确，应为“年-月-日 时:分”，例如 2026-12-01 08:00',
    en: '{field} has the wrong format: write the date and minute, e.g. 2026-12-01 08:00',
  },
  notInStore: {
    'zh-CN': '本门店还没有条码为 {detail} 的商品：定时变更只能修改已有商品，请先不填生效时间导入它',
    en: 'this store has no product with barcode {detail} yet: a scheduled change only changes an existing product, import it without a time first',
  },
  tooManyRows: { 'zh-CN': '行数超过上限 {detail}', en: 'more rows than the limit of {detail}' },
  columns: { 'zh-CN': '列数与标题行不一致', en: 'the number of columns differs from the title row' },
  // Limits met while the file is read (the read stops on that line).
  tooManyColumns: { 'zh-CN': '列数超过上限 {detail}', en: 'more columns than the limit of {detail}' },
  cellTooLong: { 'zh-CN': '单元格内容超过 {detail} 个字符', en: 'a cell holds more than {detail} characters' },
  rowTooLong: { 'zh-CN': '一行的内容超过 {detail} 个字符', en: 'a row holds more than {detail} characters' },
  tooManyCells: {
    'zh-CN': '单元格总数超过上限 {detail}，请拆分文件',
    en: 'more cells than the limit of {detail}: split the file',
  },
} as const satisfies Record<string, Messages>;
export type ImportReason = keyof typeof IMPORT_REASONS;

/**
 * Why a file is refused as a whole (code 1009, in `{detail}`): before its rows are read, or on a
 * limit of the zip container met while unpacking it. `{limit}` and `{part}` are filled in.
 */
export const IMPORT_FILE_PROBLEMS = {
  type: { 'zh-CN': '只能导入 CSV 或 XLSX 文件', en: 'only CSV or XLSX files can be imported' },
  encoding: { 'zh-CN': 'CSV 文件必须是 UTF-8 编码', en: 'a CSV file must be UTF-8 text' },
  encodings: {
    'zh-CN': 'CSV 文件必须是 UTF-8 或 GB18030（GBK）编码',
    en: 'a CSV file must be UTF-8 or GB18030 (GBK) text',
  },
  sheet: { 'zh-CN': '工作簿中没有这个工作表', en: 'the workbook has no such sheet' },
  options: { 'zh-CN': '导入选项无效', en: 'the import options are not valid' },
  size: { 'zh-CN': '文件过大', en: 'the file is too large' },
  unreadable: { 'zh-CN': '无法读取文件', en: 'the file cannot be read' },
  entries: { 'zh-CN': '压缩包中的文件超过 {limit} 个', en: 'the archive holds more than {limit} files' },
  partTooLarge: { 'zh-CN': '{part} 解压后超过 {limit}', en: '{part} unpacks to more than {limit}' },
  totalTooLarge: { 'zh-CN': '解压后的内容共超过 {limit}', en: 'the contents unpack to more than {limit} in all' },
  ratio: {
    'zh-CN': '{part} 的压缩比超过 {limit}（疑似压缩炸弹）',
    en: '{part} is packed tighter than {limit} (a zip bomb?)',
  },
  sharedStrings: { 'zh-CN': '共享字符串超过 {limit} 个', en: 'more than {limit} shared strings' },
  cellTooLong: { 'zh-CN': '单元格内容超过 {limit} 个字符', en: 'a cell holds more than {limit} characters' },
  rowTooLong: { 'zh-CN': '一行的内容超过 {limit} 个字符', en: 'a row holds more than {limit} characters' },
} as const satisfies Record<string, Messages>;
