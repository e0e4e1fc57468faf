import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Promotions (issue 29 item 2, docs/PROMOTIONS.md): a promotional price and text for products of a
 * store (by barcode, or every product whose field matches a value) from a time to a time. One row
 * per store (a chain-wide promotion is a row in each store, one batch). The scheduler moves each
 * row pending → started → ended at its times (and relabels its products' tags); the labels for
 * both times are delivered ahead as timed labels. `products.promo_price_cents`: the price of the
 * promotion a product shows now, kept as they move (the price-accuracy report's "price now").
 */
export function promotions(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const id = pg ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('promotions')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('barcodes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('match_key', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('match_value', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('start_at', big, (c) => c.notNull())
        .addColumn('end_at', big, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('batch', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      // The promotional price a product's tills charge now (null: none running), kept by the
      // promotions' moves: what the price-accuracy report compares a tag's screen with.
      await db.schema
        .alterTable('products')
        .addColumn('promo_price_cents', big as 'integer')
        .execute();
      await db.schema.createIndex('promotions_state').on('promotions').columns(['state', 'start_at']).execute();
      await db.schema
        .createIndex('promotions_store')
        .on('promotions')
        .columns(['tenant_id', 'store_id', 'state', 'start_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('products').dropColumn('promo_price_cents').execute();
      await db.schema.dropTable('promotions').ifExists().execute();
    },
  };
}
