import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * PostgreSQL: drops the unique (tenant_id, hardware_id) constraint of tags. Since migration 005 a
 * hardware id is unique across the platform (`tags_hardware_unique`), which implies it, and no
 * query reads it; but every tag written to a new page (a report's row version that did not fit
 * beside the old one) added an entry to it, one of the table's eleven indexes, 77 MB at 2,000,000
 * tags competing for the shared buffers with the pages the reports write (docs/performance-log.md,
 * "PostgreSQL keeping up"). SQLite keeps it: there it is part of the table's definition (dropping
 * it means rebuilding the table), and a report there writes rows in place.
 */
export function tagsTenantHardware(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table tags drop constraint if exists tags_tenant_hardware`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table tags add constraint tags_tenant_hardware unique (tenant_id, hardware_id)`.execute(db);
    },
  };
}
