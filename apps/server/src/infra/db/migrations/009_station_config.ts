import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * A base station's desired configuration (issue 12, DELIVERY.md §4.3): the console's settings as
 * JSON (`config`, WiFi password left out: it stays in `wifi_password`, which no answer carries),
 * the revision the server sends them with, and the revision the station last reported applied.
 */
export function stationConfig(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('stations')
        .addColumn('config', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('stations')
        .addColumn('cfg_rev', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('stations').addColumn('cfg_applied_rev', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const name of ['cfg_applied_rev', 'cfg_rev', 'config']) {
        await db.schema.alterTable('stations').dropColumn(name).execute();
      }
    },
  };
}
