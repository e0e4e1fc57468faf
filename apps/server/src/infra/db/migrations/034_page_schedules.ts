import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Page schedules (issue 29 item 3, docs/PAGES.md "Page schedules"): on chosen weekdays, from a time
 * of day to another on the store's clock, the store's tags drawn with a template show another
 * page. `page_schedules`: what and when, and the window the server last sent ahead (`armed_*`)
 * and last closed (`ended_start`), so a restart neither misses nor repeats a switch.
 * `page_schedule_tags`: each tag's switch for a window and the picture it was sent for (a tag
 * bound later, or given a new picture, which shows page 1, gets the switch again).
 */
export function pageSchedules(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const id = pg ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('page_schedules')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        .addColumn('template_id', 'integer', (c) => c.notNull().references('templates.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('weekdays', 'text', (c) => c.notNull())
        .addColumn('from_time', 'text', (c) => c.notNull())
        .addColumn('to_time', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('armed_start', big)
        .addColumn('armed_end', big)
        .addColumn('ended_start', big)
        .addColumn('created_by', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('page_schedules_store')
        .on('page_schedules')
        .columns(['tenant_id', 'store_id'])
        .execute();
      await db.schema
        .createTable('page_schedule_tags')
        .addColumn('schedule_id', 'integer', (c) => c.notNull().references('page_schedules.id').onDelete('cascade'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addColumn('start_at', big, (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().defaultTo(''))
        .addPrimaryKeyConstraint('page_schedule_tags_pk', ['schedule_id', 'tag_id'])
        .execute();
      await db.schema.createIndex('page_schedule_tags_tag').on('page_schedule_tags').column('tag_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('page_schedule_tags').ifExists().execute();
      await db.schema.dropTable('page_schedules').ifExists().execute();
    },
  };
}
