import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * What stations report once they connect (issue 12, DELIVERY.md §4.3): the connection id that
 * ties a Last Will to its connection, the runtime figures of the heartbeat beyond the CPU, memory
 * and disk columns 003 made, and on tags what their reports carry beyond signal, battery and
 * temperature. `desired_hash` is where the delivery tasks will record what a tag should show;
 * until they do it stays null, and a tag heard in time counts as up to date.
 */
export function stationRuntime(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const real = pg ? 'double precision' : 'real';
  const stationColumns: Array<[string, string, 'text' | 'null']> = [
    ['conn_id', 'text', 'text'],
    ['boot', big, 'null'],
    ['station_model', 'text', 'text'],
    ['module_firmware', 'text', 'text'],
    ['uptime_s', big, 'null'],
    ['queue_jobs', 'integer', 'null'],
    ['queue_bytes', big, 'null'],
    ['radio_busy_pct', real, 'null'],
    ['tags_heard', 'integer', 'null'],
    ['clock_skew_ms', big, 'null'],
    ['status_at', big, 'null'],
    ['secret_at', big, 'null'],
  ];
  const tagColumns: Array<[string, string, 'text' | 'null']> = [
    ['wake_s', 'integer', 'null'],
    ['shown_ver', 'text', 'null'],
    ['desired_hash', 'text', 'null'],
    ['fw', 'text', 'text'],
  ];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds one column per ALTER TABLE.
      for (const [name, type, kind] of stationColumns) {
        await db.schema
          .alterTable('stations')
          .addColumn(name, type as 'text', (c) => (kind === 'text' ? c.notNull().defaultTo('') : c))
          .execute();
      }
      await db.schema
        .alterTable('stations')
        .addColumn('heartbeat_s', 'integer', (c) => c.notNull().defaultTo(60))
        .execute();
      for (const [name, type, kind] of tagColumns) {
        await db.schema
          .alterTable('tags')
          .addColumn(name, type as 'text', (c) => (kind === 'text' ? c.notNull().defaultTo('') : c))
          .execute();
      }
      // The sweeper looks for stations that stopped beating, and tags by their last report.
      await db.schema.createIndex('stations_online').on('stations').columns(['online', 'last_heartbeat']).execute();
      await db.schema.createIndex('tags_store_seen').on('tags').columns(['store_id', 'last_seen']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tags_store_seen').execute();
      await db.schema.dropIndex('stations_online').execute();
      for (const [name] of tagColumns) await db.schema.alterTable('tags').dropColumn(name).execute();
      for (const [name] of [...stationColumns, ['heartbeat_s']]) {
        await db.schema.alterTable('stations').dropColumn(name).execute();
      }
    },
  };
}
