import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * A tag's hardware ID and a base station's serial name one physical device: it belongs to one
 * tenant of the platform. Until now both were unique per tenant only, so a second tenant could
 * register a device another one holds (and the delivery layer would not know whose it is). The
 * per-tenant constraints stay (SQLite cannot drop one without rebuilding the table); these
 * indexes make the rule platform-wide. A database already holding the same ID under two tenants
 * fails here, naming the index: resolve the duplicates, then start again.
 */
export function platformUnique(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tags_hardware_unique').on('tags').column('hardware_id').unique().execute();
      await db.schema.createIndex('stations_sn_unique').on('stations').column('sn').unique().execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('stations_sn_unique').execute();
      await db.schema.dropIndex('tags_hardware_unique').execute();
    },
  };
}
