import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * The scheduler's dispatch at scale (docs/SCHEDULE.md "Planning in batches"): the queued timed
 * labels in time order, so a dispatch pass reads its batch from the front of this index instead of
 * sorting every queued label (375,000 of them for a chain-wide price file) each pass; and the
 * planner's unplanned changes a store at a time (`scheduled_changes_unplanned_store`), so a batch's
 * labels go to few stations.
 */
export function timedQueued(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create index timed_labels_queued on timed_labels (show_at) where state = 'queued'`.execute(db);
      await db.schema
        .createIndex('scheduled_changes_unplanned_store')
        .on('scheduled_changes')
        .columns(['planned', 'store_id', 'product_id'])
        .execute();
      // Each timed label is written four times on its way (planned, sent, acknowledged, held): on
      // PostgreSQL vacuumed after 2 % of the table is dead rows rather than the default 20 % (a
      // chain-wide file left three dead rows for each live one before autovacuum came).
      if (dialect === 'postgres')
        await sql`alter table timed_labels set (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05)`.execute(
          db,
        );
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres')
        await sql`alter table timed_labels reset (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`.execute(
          db,
        );
      await db.schema.dropIndex('scheduled_changes_unplanned_store').ifExists().execute();
      await db.schema.dropIndex('timed_labels_queued').ifExists().execute();
    },
  };
}
