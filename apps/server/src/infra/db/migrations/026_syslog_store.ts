import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * `sys_logs.store_id`: the store an event belongs to (a station's events: its store), null for a
 * tenant-wide or platform event. A store-scoped reader is given the rows of their stores only
 * (issue 25, item 8; docs/SERVER.md "Logs").
 */
export function syslogStore(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sys_logs').addColumn('store_id', 'integer').execute();
      await db.schema
        .createIndex('sys_logs_tenant_store')
        .on('sys_logs')
        .columns(['tenant_id', 'store_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('sys_logs_tenant_store').execute();
      await db.schema.alterTable('sys_logs').dropColumn('store_id').execute();
    },
  };
}
