import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Prices on a schedule (issue 29 item 1, docs/SCHEDULE.md): `scheduled_changes`, product changes
 * that take effect at a time (found by the scheduler by status and time), and `timed_labels`, each
 * tag's next timed image, delivered ahead and shown by the tag at its time.
 */
export function schedule(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const id = pg ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('scheduled_changes')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('effective_at', big, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('batch', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('applied_at', big)
        .execute();
      await db.schema
        .createIndex('scheduled_changes_due')
        .on('scheduled_changes')
        .columns(['status', 'effective_at'])
        .execute();
      await db.schema
        .createIndex('scheduled_changes_product')
        .on('scheduled_changes')
        .columns(['product_id', 'status', 'effective_at'])
        .execute();
      await db.schema
        .createIndex('scheduled_changes_store')
        .on('scheduled_changes')
        .columns(['tenant_id', 'store_id', 'status', 'effective_at'])
        .execute();
      await db.schema
        .createTable('timed_labels')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('tag_id', 'integer', (c) => c.notNull().unique().references('tags.id').onDelete('cascade'))
        .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('plan_key', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('show_at', big)
        .addColumn('hash', 'text')
        .addColumn('size', 'integer')
        .addColumn('station_id', 'integer')
        .addColumn('sent_rev', 'integer')
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('due_at', big, (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('timed_labels_state').on('timed_labels').columns(['state', 'due_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('timed_labels').ifExists().execute();
      await db.schema.dropTable('scheduled_changes').ifExists().execute();
    },
  };
}
