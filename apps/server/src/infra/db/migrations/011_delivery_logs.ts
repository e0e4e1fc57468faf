import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * The delivery layer's two logs (issue 13, DELIVERY.md §5.1): `tag_log`, one row per finished (or
 * superseded) task revision of a tag, and `push_log`, one row per data push (console edit, import,
 * API batch, schedule). Both are append-only history; the live task state is `device_tasks` (010).
 *
 * `tag_log` keeps the tag's hardware ID and the station's serial as text, not as references: the
 * log outlives a deleted tag or station. Unique `(tenant_id, tag_id, kind, rev)`: a revision ends
 * once, so a result delivered twice (a station resending after a restart) writes one row.
 */
export function deliveryLogs(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const id: Col = (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const big = pg ? 'bigint' : 'integer';
  const text: Col = (c) => c.notNull().defaultTo('');
  const zero: Col = (c) => c.notNull().defaultTo(0);
  const tenant: Col = (c) => c.notNull().references('tenants.id').onDelete('cascade');
  const store: Col = (c) => c.notNull().references('stores.id').onDelete('cascade');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tag_log')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('tag_id', 'integer', (c) => c.notNull())
        .addColumn('hardware_id', 'text', (c) => c.notNull())
        .addColumn('request_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('code', 'text', text)
        .addColumn('hash', 'text')
        .addColumn('station_sn', 'text', text)
        .addColumn('attempts', 'integer', zero)
        .addColumn('queued_at', big)
        .addColumn('sent_at', big)
        .addColumn('finished_at', big, (c) => c.notNull())
        .addColumn('air_ms', 'integer')
        .addColumn('rssi', 'integer')
        .execute();
      await db.schema
        .createIndex('tag_log_revision')
        .on('tag_log')
        .columns(['tenant_id', 'tag_id', 'kind', 'rev'])
        .unique()
        .execute();
      // The list pages newest first within a store, optionally by one filter; the tenant leads
      // so every count reads the index alone. Retention deletes by (tenant, store, time) too.
      await db.schema
        .createIndex('tag_log_store_time')
        .on('tag_log')
        .columns(['tenant_id', 'store_id', 'finished_at'])
        .execute();
      await db.schema
        .createIndex('tag_log_store_hardware')
        .on('tag_log')
        .columns(['tenant_id', 'store_id', 'hardware_id', 'finished_at'])
        .execute();
      await db.schema
        .createIndex('tag_log_store_result')
        .on('tag_log')
        .columns(['tenant_id', 'store_id', 'result', 'finished_at'])
        .execute();
      await db.schema
        .createIndex('tag_log_store_station')
        .on('tag_log')
        .columns(['tenant_id', 'store_id', 'station_sn', 'finished_at'])
        .execute();
      await db.schema.createIndex('tag_log_request').on('tag_log').column('request_id').execute();

      await db.schema
        .createTable('push_log')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('products', 'integer', zero)
        .addColumn('tags_affected', 'integer', zero)
        .addColumn('rendered', 'integer', zero)
        .addColumn('failed', 'integer', zero)
        // JSON array of the first exceptions (messages); `exception_count` counts them all.
        .addColumn('exceptions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('exception_count', 'integer', zero)
        .addColumn('started_at', big, (c) => c.notNull())
        .addColumn('finished_at', big)
        .execute();
      await db.schema
        .createIndex('push_log_store_time')
        .on('push_log')
        .columns(['tenant_id', 'store_id', 'started_at'])
        .execute();
      await db.schema
        .createIndex('push_log_store_source')
        .on('push_log')
        .columns(['tenant_id', 'store_id', 'source', 'started_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('push_log').ifExists().execute();
      await db.schema.dropTable('tag_log').ifExists().execute();
    },
  };
}
