import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Callbacks to a tenant's own server (issue 15, docs/INTEGRATION.md): `callback_settings` holds
 * the tenant's callback URL; `callback_outbox` is the durable outbox the sender works through.
 * An event row is written in the same transaction as the state change it reports (a tag's task
 * revision ending, a request completing), so none is lost to a crash; the sender leases a row
 * (`lease_owner`, `lease_until`) so two server processes never send it both, and sends the rows
 * of one `order_key` (a tag, a request) one after the other in id order.
 */
export function callbacks(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('callback_settings')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('callback_outbox')
        .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer')
        .addColumn('event_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('order_key', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // pending → sent | failed (gave up) | dropped (no URL any more)
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', big, (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('finished_at', big)
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('callback_outbox_due').on('callback_outbox').columns(['state', 'next_at']).execute();
      await db.schema
        .createIndex('callback_outbox_order')
        .on('callback_outbox')
        .columns(['tenant_id', 'order_key', 'id'])
        .execute();
      await db.schema
        .createIndex('callback_outbox_recent')
        .on('callback_outbox')
        .columns(['tenant_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('callback_outbox').ifExists().execute();
      await db.schema.dropTable('callback_settings').ifExists().execute();
    },
  };
}
