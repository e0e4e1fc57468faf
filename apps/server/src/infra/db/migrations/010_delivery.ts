import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Durable delivery (issue 13, DELIVERY.md §5.1): what a tag should show and what it last showed,
 * the progress of each user operation, and one task slot per (target, kind) that is reused for
 * ever ("latest wins": a newer change raises the slot's revision instead of adding a row).
 */
export function delivery(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const big = pg ? 'bigint' : 'integer';
  const tagColumns: Array<[string, string]> = [
    ['desired_rev', 'integer'],
    ['desired_at', big],
    ['render_key', 'text'],
    ['shown_hash', 'text'],
    ['shown_at', big],
    ['next_wake_at', big],
  ];
  const requestColumns: Array<[string, string]> = [
    ['total', 'integer'],
    ['done', 'integer'],
    ['failed', 'integer'],
  ];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, type] of tagColumns) {
        await db.schema
          .alterTable('tags')
          .addColumn(name, type as 'text')
          .execute();
      }
      for (const [name, type] of requestColumns) {
        await db.schema
          .alterTable('device_requests')
          .addColumn(name, type as 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await db.schema
        .alterTable('device_requests')
        .addColumn('params', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('device_requests').addColumn('finished_at', big).execute();

      await db.schema
        .createTable('device_tasks')
        .addColumn('id', idType, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        // 't:<tagId>' or 's:<stationId>'
        .addColumn('target_key', 'text', (c) => c.notNull())
        .addColumn('tag_id', 'integer', (c) => c.references('tags.id').onDelete('cascade'))
        // The station the task was last sent to (tag tasks follow the tag's route until sent).
        .addColumn('station_id', 'integer', (c) => c.references('stations.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('request_id', 'integer')
        // The data push (push_log) whose change this rev renders, counted there as rendered or failed.
        .addColumn('push_id', 'integer')
        .addColumn('prio', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('detail', 'text')
        .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
        // The rev the station was last sent (a result for an older one only updates the tag).
        .addColumn('sent_rev', 'integer')
        .addColumn('hash', 'text')
        .addColumn('size', 'integer')
        .addColumn('force', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('not_before', big, (c) => c.notNull().defaultTo(0))
        .addColumn('wake_at', big)
        .addColumn('ttl_s', 'integer')
        .addColumn('ack_deadline', big)
        .addColumn('done_deadline', big)
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('queued_at', big)
        .addColumn('rendered_at', big)
        .addColumn('sent_at', big)
        .addColumn('accepted_at', big)
        .addColumn('finished_at', big)
        .addUniqueConstraint('device_tasks_slot', ['tenant_id', 'target_key', 'kind'])
        .execute();
      await db.schema
        .createIndex('device_tasks_dispatch')
        .on('device_tasks')
        .columns(['station_id', 'state', 'prio', 'wake_at', 'id'])
        .execute();
      await db.schema.createIndex('device_tasks_state').on('device_tasks').columns(['state', 'ack_deadline']).execute();
      await db.schema.createIndex('device_tasks_lease').on('device_tasks').columns(['state', 'lease_until']).execute();
      await db.schema.createIndex('device_tasks_request').on('device_tasks').column('request_id').execute();
      await db.schema.createIndex('device_tasks_tag').on('device_tasks').column('tag_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('device_tasks').execute();
      for (const name of ['finished_at', 'params', ...requestColumns.map(([n]) => n)]) {
        await db.schema.alterTable('device_requests').dropColumn(name).execute();
      }
      for (const [name] of tagColumns) await db.schema.alterTable('tags').dropColumn(name).execute();
    },
  };
}
