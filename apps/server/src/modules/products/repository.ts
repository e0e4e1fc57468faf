import { CompiledQuery, type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { Dialect } from '../../infra/db/database';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database, ProductTable } from '../../infra/db/schema';
import type { CurrentStore } from '../stores/service';

type Db = Kysely<Database>;

export interface ProductFilter {
  text?: string;
  bound?: boolean;
  sort: 'id' | 'barcode' | 'name' | 'price' | 'priceChanges' | 'updatedAt';
  order: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  id: 'p.id',
  barcode: 'p.barcode',
  name: 'p.name',
  price: 'p.price_cents',
  priceChanges: 'p.price_changes',
  updatedAt: 'p.updated_at',
} as const;

function filtered(db: Db, at: CurrentStore, f: Omit<ProductFilter, 'sort' | 'order'>) {
  let q = db.selectFrom('products as p').where('p.tenant_id', '=', at.tenantId).where('p.store_id', '=', at.storeId);
  if (f.text) {
    const text = f.text;
    q = q.where((eb) => eb.or([contains('p.barcode', text), contains('p.name', text)]));
  }
  if (f.bound !== undefined) {
    const bound = f.bound;
    q = q.where((eb) => {
      const tags = eb.selectFrom('tags as t').select('t.id').whereRef('t.product_id', '=', 'p.id');
      return bound ? eb.exists(tags) : eb.not(eb.exists(tags));
    });
  }
  return q;
}

/** Product rows with the number of tags showing each. */
function withTagCount<Q extends ReturnType<typeof filtered>>(q: Q) {
  return q.selectAll('p').select((eb) =>
    eb
      .selectFrom('tags as t')
      .select((c) => c.fn.countAll<number>().as('n'))
      .whereRef('t.product_id', '=', 'p.id')
      .as('tag_count'),
  );
}

export type ProductDetailRow = Awaited<ReturnType<ReturnType<typeof withTagCount>['execute']>>[number];

function sorted<Q extends ReturnType<typeof withTagCount>>(q: Q, f: ProductFilter) {
  const column = SORT_COLUMNS[f.sort];
  const out = q.orderBy(column, f.order);
  return f.sort === 'id' ? out : out.orderBy('p.id', f.order);
}

export async function listProducts(db: Db, at: CurrentStore, f: ProductFilter & { page: number; limit: number }) {
  const q = filtered(db, at, f);
  const [rows, total] = await Promise.all([
    sorted(withTagCount(q), f).limit(f.limit).offset(offsetOf(f)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Where an export page ends: the last row's sort value and id (keyset paging). */
export interface ExportCursor {
  value: string | number;
  id: number;
}

/**
 * One page of the export: the filter's products after `after` in the filter's order (sort column,
 * then id), without tag counts. Keyset paging, so each page costs its own rows (by id: an index
 * range) and a large store is read in bounded queries rather than one that holds the event loop.
 */
export function exportPage(db: Db, at: CurrentStore, f: ProductFilter, after: ExportCursor | null, limit: number) {
  const column = SORT_COLUMNS[f.sort];
  const cmp = f.order === 'asc' ? '>' : '<';
  let q = filtered(db, at, f).selectAll('p');
  if (after) {
    q =
      f.sort === 'id'
        ? q.where('p.id', cmp, after.id)
        : q.where((eb) =>
            eb.or([eb(column, cmp, after.value), eb.and([eb(column, '=', after.value), eb('p.id', cmp, after.id)])]),
          );
  }
  const ordered = f.sort === 'id' ? q.orderBy('p.id', f.order) : q.orderBy(column, f.order).orderBy('p.id', f.order);
  return ordered.limit(limit).execute();
}

/** The sort value of a row for `exportPage`'s cursor. */
export function exportCursor(row: ProductRow, f: ProductFilter): ExportCursor {
  const key = SORT_COLUMNS[f.sort].slice(2) as keyof ProductRow;
  return { value: row[key] as string | number, id: row.id };
}

export type ProductRow = Awaited<ReturnType<typeof exportPage>>[number];

export function findProduct(db: Db, at: CurrentStore, id: number) {
  return withTagCount(filtered(db, at, {}))
    .where('p.id', '=', id)
    .executeTakeFirst();
}

export function findProductByBarcode(db: Db, at: CurrentStore, barcode: string) {
  return withTagCount(filtered(db, at, {}))
    .where('p.barcode', '=', barcode)
    .executeTakeFirst();
}

export async function barcodeTaken(db: Db, at: CurrentStore, barcode: string, exceptId = 0): Promise<boolean> {
  const row = await filtered(db, at, {})
    .select('p.id')
    .where('p.barcode', '=', barcode)
    .where('p.id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertProduct(db: Db, row: Insertable<ProductTable>): Promise<number> {
  const out = await db.insertInto('products').values(row).returning('id').executeTakeFirstOrThrow();
  return out.id;
}

export type ProductPatch = Omit<Updateable<ProductTable>, 'id' | 'tenant_id' | 'store_id' | 'created_at'>;

/** Updates a product; the price-change count rises by one when the price really changes. */
export async function updateProduct(db: Db, at: CurrentStore, id: number, patch: ProductPatch): Promise<number> {
  let q = db
    .updateTable('products')
    .set(patch)
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id);
  if (patch.price_cents !== undefined) {
    const cents = patch.price_cents;
    q = q.set((eb) => ({
      price_changes: eb
        .case()
        .when('price_cents', '!=', cents)
        .then(eb('price_changes', '+', 1))
        .else(eb.ref('price_changes'))
        .end(),
    }));
  }
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The ids among `ids` that are products of the store. */
export async function productIdsIn(db: Db, at: CurrentStore, ids: readonly number[]): Promise<Set<number>> {
  const rows = await filtered(db, at, {}).select('p.id').where('p.id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Deletes products; their tags are unbound by the foreign key (ON DELETE SET NULL). */
export async function deleteProducts(db: Db, at: CurrentStore, ids: readonly number[]): Promise<number> {
  const result = await db
    .deleteFrom('products')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids)
    .execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function findFieldMap(db: Db, tenantId: number): Promise<string | undefined> {
  const row = await db.selectFrom('field_maps').select('fields').where('tenant_id', '=', tenantId).executeTakeFirst();
  return row?.fields;
}

export async function saveFieldMap(db: Db, tenantId: number, fields: string, now: number): Promise<void> {
  await db
    .insertInto('field_maps')
    .values({ tenant_id: tenantId, fields, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ fields, updated_at: now }))
    .execute();
}

/** Barcode → saved custom fields (JSON) of every product of the store, for an import that merges them. */
export async function customByBarcode(db: Db, at: CurrentStore): Promise<Map<string, string>> {
  const rows = await filtered(db, at, {}).select(['p.barcode', 'p.custom']).execute();
  return new Map(rows.map((r) => [r.barcode, r.custom]));
}

/** The text fields and custom fields (JSON) of products of the store, for the template rules that match them. */
/** A store's products (or those of `ids`) with the fields a promotion matches on (docs/PROMOTIONS.md). */
export async function matchRows(db: Db, at: { tenantId: number; storeId: number }, ids?: readonly number[]) {
  const q = () =>
    db
      .selectFrom('products')
      .select(['id', 'barcode', 'name', 'unit', 'spec', 'origin', 'grade', 'custom'])
      .where('tenant_id', '=', at.tenantId)
      .where('store_id', '=', at.storeId);
  if (!ids) return q().execute();
  const rows = [];
  for (let i = 0; i < ids.length; i += 1000)
    rows.push(
      ...(await q()
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute()),
    );
  return rows;
}

export async function ruleFields(db: Db, at: { tenantId: number; storeId: number }, ids: readonly number[]) {
  const rows = [];
  for (let i = 0; i < ids.length; i += 1000) {
    rows.push(
      ...(await db
        .selectFrom('products')
        .select(['id', 'name', 'unit', 'spec', 'origin', 'grade', 'custom'])
        .where('tenant_id', '=', at.tenantId)
        .where('store_id', '=', at.storeId)
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute()),
    );
  }
  return rows;
}

export async function countProducts(db: Db, at: CurrentStore): Promise<number> {
  const row = await filtered(db, at, {})
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The columns of an imported row, in the order `upsertProducts` takes its values, with their SQL types. */
const IMPORT_COLUMN_TYPES = {
  tenant_id: 'integer',
  store_id: 'integer',
  barcode: 'text',
  qrcode: 'text',
  name: 'text',
  price_cents: 'bigint',
  original_price_cents: 'bigint',
  unit: 'text',
  spec: 'text',
  origin: 'text',
  grade: 'text',
  custom: 'text',
  price_changes: 'integer',
  created_at: 'bigint',
  updated_at: 'bigint',
} as const;
export const IMPORT_COLUMNS = Object.keys(IMPORT_COLUMN_TYPES) as (keyof typeof IMPORT_COLUMN_TYPES)[];

/** The columns an import writes on an existing product; the others stay as they are. */
export type ImportColumn = Exclude<
  (typeof IMPORT_COLUMNS)[number],
  'tenant_id' | 'store_id' | 'barcode' | 'created_at' | 'price_changes'
>;

/**
 * Rows per statement: SQLite binds every value (15 a row, under its 32,766 limit); PostgreSQL one
 * array per column, which `pg` turns into text on the event loop before sending: 10,000 rows took
 * ~60–200 ms in one go (bench/console-stall.bench.ts), 2,000 a fifth of that.
 */
const BATCH: Record<Dialect, number> = { sqlite: 1000, postgres: 2000 };

const upsertTexts = new Map<string, string>();

/**
 * The text of one batched upsert. Built by hand rather than through the query builder: a batch is
 * tens of thousands of values, and the text is the same for every full batch, so it is built
 * once (and SQLite's statement cache prepares it once). PostgreSQL takes one array per column
 * through unnest(), so a batch is 15 parameters whatever its size.
 */
function upsertText(dialect: Dialect, rows: number, update: readonly ImportColumn[]): string {
  const key = `${dialect}|${rows}|${update.join(',')}`;
  let text = upsertTexts.get(key);
  if (text) return text;
  const columns = IMPORT_COLUMNS.map((c) => `"${c}"`).join(', ');
  const source =
    dialect === 'postgres'
      ? `select * from unnest(${IMPORT_COLUMNS.map((c, i) => `$${i + 1}::${IMPORT_COLUMN_TYPES[c]}[]`).join(', ')})`
      : `values ${Array.from({ length: rows }, () => `(${IMPORT_COLUMNS.map(() => '?').join(',')})`).join(', ')}`;
  const sets = update.map((c) => `"${c}" = excluded."${c}"`);
  if (update.includes('price_cents')) {
    sets.push(
      '"price_changes" = case when "products"."price_cents" <> excluded."price_cents" ' +
        'then "products"."price_changes" + 1 else "products"."price_changes" end',
    );
  }
  // A product given exactly as it is stays untouched (its update time too) and is not counted as
  // written, so importing the same file again reports its rows unchanged.
  const distinct = dialect === 'postgres' ? 'is distinct from' : 'is not';
  const compared = update.filter((c) => c !== 'updated_at').map((c) => `"products"."${c}" ${distinct} excluded."${c}"`);
  const action = compared.length ? `do update set ${sets.join(', ')} where ${compared.join(' or ')}` : 'do nothing';
  text = `insert into "products" (${columns}) ${source} on conflict ("store_id", "barcode") ${action} returning "barcode"`;
  if (upsertTexts.size > 100) upsertTexts.clear();
  upsertTexts.set(key, text);
  return text;
}

/**
 * Inserts new products and updates existing ones (by store and barcode), one statement per batch.
 * Each row is its values in IMPORT_COLUMNS order. Only `update` columns are written on existing
 * rows, only where one of them differs, and the price-change count rises where the price really
 * changes. Answers the barcodes written: inserted or updated (not those given as they are).
 */
export async function upsertProducts(
  db: Db,
  dialect: Dialect,
  rows: readonly (readonly unknown[])[],
  update: readonly ImportColumn[],
  /** Awaited between statements: SQLite runs each one synchronously, so a large import gives other requests a turn. */
  pause: () => Promise<void> = async () => {},
): Promise<string[]> {
  const batch = BATCH[dialect];
  const written: string[] = [];
  for (let i = 0; i < rows.length; i += batch) {
    if (i > 0) await pause();
    const chunk = rows.slice(i, i + batch);
    const params: unknown[] = [];
    if (dialect === 'postgres') {
      for (let c = 0; c < IMPORT_COLUMNS.length; c++) params.push(chunk.map((row) => row[c]));
    } else {
      for (const row of chunk) for (const v of row) params.push(v);
    }
    const result = await db.executeQuery<{ barcode: string }>(
      CompiledQuery.raw(upsertText(dialect, chunk.length, update), params),
    );
    for (const row of result.rows) written.push(row.barcode);
  }
  return written;
}

/** The store's products among `barcodes`, every column (integration bulk calls). */
export function productsByBarcodes(db: Db, at: CurrentStore, barcodes: readonly string[], dialect: Dialect) {
  if (barcodes.length === 0) return Promise.resolve([]);
  return byBarcodes(db, at, barcodes, dialect).execute();
}

/**
 * Products of the store with these barcodes, through the (store, barcode) unique index: one seek
 * per barcode, whatever the planner knows of the table. Written plainly (`tenant_id = ? and
 * store_id = ? and barcode in (…)`) both databases may read every product of the store instead:
 * SQLite prefers the (tenant, store, id) index, and PostgreSQL without fresh statistics (a store
 * just loaded) filters a long IN list row by row — 20 ms to 1.5 s per 1,000 barcodes in a store of
 * 100,000. So the tenant condition names no index (unary +), and on PostgreSQL the list is one
 * array parameter behind a sub-select, which the planner takes as an index condition.
 */
export function byBarcodes(db: Db, at: CurrentStore, barcodes: readonly string[], dialect: Dialect) {
  const q = db
    .selectFrom('products as p')
    .selectAll('p')
    .where('p.store_id', '=', at.storeId)
    .where(sql<number>`+${sql.ref('p.tenant_id')}`, '=', at.tenantId);
  return dialect === 'postgres'
    ? q.where(sql<boolean>`${sql.ref('p.barcode')} = any(array(select unnest(${[...barcodes]}::text[])))`)
    : q.where('p.barcode', 'in', barcodes);
}

/** Names of the first few of `ids` (for the operation log's target), in id order. */
export async function productNamesOf(db: Db, at: CurrentStore, ids: readonly number[], max: number) {
  const rows = await filtered(db, at, {})
    .select('p.name')
    .where('p.id', 'in', ids)
    .orderBy('p.id')
    .limit(max)
    .execute();
  return rows.map((r) => r.name);
}

/** Products of a store by id (delivery renders their labels). */
export function productsByIds(db: Db, at: { tenantId: number; storeId: number }, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return withTagCount(filtered(db, at as CurrentStore, {}))
    .where('p.id', 'in', ids)
    .execute();
}

/** Tags of a store showing any of these products, or the products with these barcodes. */
export async function tagIdsShowing(
  db: Db,
  at: { tenantId: number; storeId: number },
  by: { productIds?: readonly number[]; barcodes?: readonly string[] },
  dialect?: Dialect,
): Promise<number[]> {
  // The bulk upsert's case on PostgreSQL: by product id straight on the tags' product index, the
  // ids as one array parameter (see byBarcodes: a long IN list on a table without statistics is
  // compared row by row; 350 ms a call in the bench).
  if (dialect === 'postgres' && by.productIds) {
    if (by.productIds.length === 0) return [];
    const rows = await db
      .selectFrom('tags as t')
      .select('t.id')
      .where(sql<boolean>`${sql.ref('t.product_id')} = any(array(select unnest(${[...by.productIds]}::bigint[])))`)
      .where('t.store_id', '=', at.storeId)
      .where('t.tenant_id', '=', at.tenantId)
      .execute();
    return rows.map((r) => r.id);
  }
  const out: number[] = [];
  const ids = by.productIds ?? [];
  const codes = by.barcodes ?? [];
  for (let i = 0; i < Math.max(ids.length, codes.length); i += 1000) {
    let q = db
      .selectFrom('tags as t')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .select('t.id')
      .where('t.tenant_id', '=', at.tenantId)
      .where('t.store_id', '=', at.storeId);
    q = by.productIds
      ? q.where('p.id', 'in', ids.slice(i, i + 1000))
      : q.where('p.barcode', 'in', codes.slice(i, i + 1000));
    for (const r of await q.execute()) out.push(r.id);
  }
  return out;
}

/** Tags read a page at a time when an import's tags are found from the store's side. */
const TAG_PAGE = 2000;

/**
 * Tags of a store showing a product with one of `barcodes` (the rows an import wrote). When the
 * store has no more bound tags than there are barcodes, its bound tags are read a page at a time
 * (keyset by id) and those showing a written barcode kept: 100,000 barcodes looked up a thousand
 * at a time cost ~100 statements of 2–4 ms on SQLite, a store of 600 tags one. Otherwise the
 * barcodes are looked up a thousand at a time. `pause` is awaited between statements: SQLite
 * runs each one synchronously, so a large import gives other requests a turn.
 */
export async function tagIdsShowingBarcodes(
  db: Db,
  at: { tenantId: number; storeId: number },
  barcodes: readonly string[],
  pause: () => Promise<void> = async () => {},
  pageSize = TAG_PAGE,
): Promise<number[]> {
  if (barcodes.length === 0) return [];
  const bound = await db
    .selectFrom('tags')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('product_id', 'is not', null)
    .executeTakeFirstOrThrow();
  const out: number[] = [];
  if (Number(bound.n) > barcodes.length) {
    for (let i = 0; i < barcodes.length; i += 1000) {
      if (i > 0) await pause();
      out.push(...(await tagIdsShowing(db, at, { barcodes: barcodes.slice(i, i + 1000) })));
    }
    return out;
  }
  const wanted = new Set(barcodes);
  for (let after = 0; ; ) {
    const page = await db
      .selectFrom('tags as t')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .select(['t.id', 'p.barcode'])
      .where('t.tenant_id', '=', at.tenantId)
      .where('t.store_id', '=', at.storeId)
      .where('t.id', '>', after)
      .orderBy('t.id')
      .limit(pageSize)
      .execute();
    for (const r of page) if (wanted.has(r.barcode)) out.push(r.id);
    const last = page.at(-1);
    if (page.length < pageSize || !last) return out;
    after = last.id;
    await pause();
  }
}

/** Products with this barcode in the given stores of a tenant (a chain-wide scheduled change). */
export function productsWithBarcode(db: Db, tenantId: number, storeIds: readonly number[], barcode: string) {
  if (storeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('products')
    .select(['id', 'store_id'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', 'in', storeIds)
    .where('barcode', '=', barcode)
    .execute();
}

/**
 * The running promotion's price of each product (null: none runs), what the price-accuracy report
 * compares screens with (docs/PROMOTIONS.md). `prices`: product id → price in cents or null.
 */
export async function setPromoPrices(db: Db, tenantId: number, prices: ReadonlyMap<number, number | null>) {
  const byPrice = new Map<number | null, number[]>();
  for (const [id, price] of prices) byPrice.set(price, [...(byPrice.get(price) ?? []), id]);
  for (const [price, ids] of byPrice) {
    for (let i = 0; i < ids.length; i += 1000) {
      await db
        .updateTable('products')
        .set({ promo_price_cents: price })
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
    }
  }
}
