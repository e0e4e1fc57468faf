import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * Firmware upgrades (issue 16, docs/PROTOCOL.md §10): the platform's firmware files gain what
 * their header says (compatible station models and tag hardware, the SHA-256 of the file, which
 * is also the blob a station pulls), and `firmware_tasks` holds one upgrade slot per device and
 * kind — a station (`s:<id>`), its radio module, or a tag (`t:<id>`) — reused for each new
 * upgrade of that device, so a restart finds every upgrade where it was.
 */
export function firmware(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('firmware')
        .addColumn('hash', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('firmware')
        .addColumn('models', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('firmware')
        .addColumn('hw', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('firmware')
        .addColumn('payload_hash', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // One row per file content; rows from before this migration have no hash ('') and stay.
      await sql`create unique index firmware_hash on firmware (hash) where hash <> ''`.execute(db);

      await db.schema
        .createTable('firmware_tasks')
        .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('target_key', 'text', (c) => c.notNull())
        // apfw | modulefw | tagfw
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('station_id', 'integer')
        .addColumn('tag_id', 'integer')
        .addColumn('firmware_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('from_version', 'text', (c) => c.notNull().defaultTo(''))
        // queued → sent → accepted → installing → done | failed | cancelled
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done_bytes', big, (c) => c.notNull().defaultTo(0))
        .addColumn('not_before', big, (c) => c.notNull().defaultTo(0))
        .addColumn('deadline', big)
        .addColumn('created_by', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('sent_at', big)
        .addColumn('accepted_at', big)
        .addColumn('installing_at', big)
        .addColumn('finished_at', big)
        .execute();
      await db.schema
        .createIndex('firmware_tasks_target')
        .on('firmware_tasks')
        .columns(['tenant_id', 'target_key', 'kind'])
        .unique()
        .execute();
      await db.schema
        .createIndex('firmware_tasks_station')
        .on('firmware_tasks')
        .columns(['station_id', 'state'])
        .execute();
      await db.schema
        .createIndex('firmware_tasks_store')
        .on('firmware_tasks')
        .columns(['tenant_id', 'store_id', 'kind'])
        .execute();
      await db.schema.createIndex('firmware_tasks_state').on('firmware_tasks').columns(['state', 'deadline']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('firmware_tasks').ifExists().execute();
      await sql`drop index if exists firmware_hash`.execute(db);
      for (const column of ['payload_hash', 'hw', 'models', 'hash']) {
        await db.schema.alterTable('firmware').dropColumn(column).execute();
      }
    },
  };
}
