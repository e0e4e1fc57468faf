import {
  type FieldMap,
  IMPORT_TIME_FIELD,
  IMPORT_TIME_LABEL,
  PRODUCT_FIELD_LABELS,
  PRODUCT_FIELDS,
  type ProductField,
} from '@esl/contract';

/**
 * Titles of a promotional price. Alone, such a column is the price; beside a column of the regular
 * price it is still the price and the regular one becomes the original price, drawn struck through
 * (docs/PROMOTIONS.md, "Import").
 */
const PROMOTIONAL = [
  '促销价',
  '促销价格',
  '特价',
  '活动价',
  '优惠价',
  '折后价',
  'promo price',
  'promotional price',
  'promotion price',
  'special price',
  'offer price',
] as const;

/**
 * Column titles retailers' own price lists use for each product field, in Chinese and English.
 * Titles are compared after `titleKey` (case, width, spaces, units in brackets and marks such as
 * "*" dropped), so "售价（元）", "Sale Price" and "条形码*" all match.
 */
const STRONG: Record<ProductField, readonly string[]> = {
  barcode: [
    '条码',
    '条形码',
    '商品条码',
    '商品条形码',
    '国际条码',
    '条码号',
    'barcode',
    'bar code',
    'ean',
    'ean13',
    'upc',
    'gtin',
  ],
  name: [
    '名称',
    '商品名称',
    '商品名',
    '品名',
    '产品名称',
    '货品名称',
    '商品',
    'name',
    'product name',
    'product',
    'item name',
    'item',
    'title',
  ],
  price: [
    '价格',
    '售价',
    '零售价',
    '现价',
    '销售价',
    '单价',
    '会员价',
    ...PROMOTIONAL,
    'price',
    'sale price',
    'retail price',
    'unit price',
    'selling price',
  ],
  originalPrice: [
    '原价',
    '划线价',
    '市场价',
    '吊牌价',
    '参考价',
    'original price',
    'list price',
    'regular price',
    'was price',
    'rrp',
    'msrp',
  ],
  unit: ['单位', '计量单位', '销售单位', 'unit', 'uom', 'unit of measure'],
  spec: ['规格', '规格型号', '型号', '包装规格', 'spec', 'specification', 'size'],
  origin: ['产地', '原产地', '生产地', 'origin', 'country of origin', 'made in'],
  grade: ['等级', '品级', '级别', 'grade', 'quality', 'quality grade'],
  qrcode: ['二维码', '二维码链接', '二维码内容', 'qr', 'qrcode', 'qr code', 'qr link', 'qr url'],
};

/**
 * Titles that usually name a retailer's own product code: taken for the barcode (the product's
 * key) only when no column names the barcode itself.
 */
const WEAK: Partial<Record<ProductField, readonly string[]>> = {
  barcode: [
    '编码',
    '商品编码',
    '商品编号',
    '编号',
    '货号',
    '商品货号',
    '自编码',
    'sku',
    'code',
    'item code',
    'product code',
    'plu',
  ],
};

/** Titles of the wizard's "takes effect at" column (docs/SCHEDULE.md). */
const TIME_TITLES = [
  '生效时间',
  '生效日期时间',
  '执行时间',
  '变价时间',
  '调价时间',
  'takes effect at',
  'effective at',
  'effective time',
  'effective from',
];

const PROMOTIONAL_KEYS: ReadonlySet<string> = new Set(PROMOTIONAL.map(titleKey));

/** How strongly a title names a field: the saved mapping's own title beats a synonym, a synonym a code. */
export type MatchKind = 'saved' | 'synonym' | 'weak';
const STRENGTH: Record<MatchKind, number> = { saved: 3, synonym: 2, weak: 1 };

/** A title as compared: NFKC (full-width to half-width), lower case, no brackets' contents, spaces or marks. */
export function titleKey(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[(（[【<《][^)）\]】>》]*[)）\]】>》]/g, '')
    .replace(/[\s_\-*#:：.·/\\'"]+/g, '');
}

/** The field each title key names, with its strength, for one tenant's mapping. */
export function titleIndex(map: readonly FieldMap[]): Map<string, { field: string; kind: MatchKind }> {
  const index = new Map<string, { field: string; kind: MatchKind }>();
  const put = (title: string, field: string, kind: MatchKind) => {
    const key = titleKey(title);
    const before = index.get(key);
    if (key && (!before || STRENGTH[before.kind] < STRENGTH[kind])) index.set(key, { field, kind });
  };
  for (const name of PRODUCT_FIELDS) {
    for (const title of WEAK[name] ?? []) put(title, name, 'weak');
    for (const title of [...STRONG[name], name, PRODUCT_FIELD_LABELS[name].en, PRODUCT_FIELD_LABELS[name]['zh-CN']]) {
      put(title, name, 'synonym');
    }
  }
  for (const title of [...TIME_TITLES, IMPORT_TIME_LABEL.en, IMPORT_TIME_LABEL['zh-CN']]) {
    put(title, IMPORT_TIME_FIELD, 'synonym');
  }
  for (const { name, tField } of map) put(tField, name, 'saved');
  return index;
}

/** One column of the title row and the field suggested for it (null: none). */
export interface ColumnMatch {
  index: number;
  title: string;
  field: string | null;
  kind: MatchKind | null;
}

/**
 * The field each column of a title row most likely holds: each field goes to the column naming it
 * most strongly (the leftmost of equals), each column holds at most one field; columns naming no
 * field, or a field another column names more strongly, are left without one.
 */
export function matchColumns(titles: readonly string[], index: ReturnType<typeof titleIndex>): ColumnMatch[] {
  const found = titles.map((title, i) => {
    const hit = index.get(titleKey(title));
    return { index: i, title, field: hit?.field ?? null, kind: hit?.kind ?? null };
  });
  // A promotional price beside the regular one, no original price named: the pair is price and
  // original price (titles a saved mapping names are left as it says).
  const promo = found.find(
    (c) => c.field === 'price' && c.kind === 'synonym' && PROMOTIONAL_KEYS.has(titleKey(c.title)),
  );
  const regular = found.find((c) => c.field === 'price' && c.kind === 'synonym' && c !== promo);
  if (promo && regular && !found.some((c) => c.field === 'originalPrice')) regular.field = 'originalPrice';
  const order = found
    .filter((c) => c.field !== null)
    .sort((a, b) => STRENGTH[b.kind as MatchKind] - STRENGTH[a.kind as MatchKind] || a.index - b.index);
  const taken = new Set<string>();
  const kept = new Set<number>();
  for (const c of order) {
    if (taken.has(c.field as string)) continue;
    taken.add(c.field as string);
    kept.add(c.index);
  }
  return found.map((c) => (kept.has(c.index) ? c : { ...c, field: null, kind: null }));
}

/** How well a row serves as the title row: fields matched, the required ones counting double. */
export function headerScore(matches: readonly ColumnMatch[], required: readonly string[]): number {
  let score = 0;
  for (const m of matches) if (m.field !== null) score += required.includes(m.field) ? 2 : 1;
  return score;
}
