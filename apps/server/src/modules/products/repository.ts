import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import { contains, offsetOf } from '../../db/query';
import type { Database, ProductTable } from '../../db/schema';
import type { CurrentStore } from '../stores/current';

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

/** Every product the filter selects (export), at most `max`. */
export function allProducts(db: Db, at: CurrentStore, f: ProductFilter, max: number) {
  return sorted(withTagCount(filtered(db, at, f)), f)
    .limit(max)
    .execute();
}

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

/** Barcode → id and custom fields of every product of the store (one query, for an import). */
export async function productsByBarcode(db: Db, at: CurrentStore) {
  const rows = await filtered(db, at, {}).select(['p.id', 'p.barcode', 'p.custom']).execute();
  return new Map(rows.map((r) => [r.barcode, r]));
}

/** The columns an import writes; the others of an existing product stay as they are. */
export type ImportColumn = Exclude<
  keyof ProductTable,
  'id' | 'tenant_id' | 'store_id' | 'created_at' | 'price_changes'
>;

/**
 * Inserts new products and updates existing ones (by store and barcode) in batches, one
 * statement per batch. Only `columns` are written on existing rows; the price-change count
 * rises where the price really changes.
 */
export async function upsertProducts(
  db: Db,
  rows: Insertable<ProductTable>[],
  columns: readonly ImportColumn[],
  batch: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    await db
      .insertInto('products')
      .values(rows.slice(i, i + batch))
      .onConflict((oc) =>
        oc.columns(['store_id', 'barcode']).doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const c of columns) set[c] = eb.ref(`excluded.${c}`);
          if (columns.includes('price_cents')) {
            set.price_changes = sql`case when ${sql.ref('products.price_cents')} <> ${sql.ref('excluded.price_cents')} then ${sql.ref('products.price_changes')} + 1 else ${sql.ref('products.price_changes')} end`;
          }
          return set as Updateable<ProductTable>;
        }),
      )
      .execute();
  }
}
