import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * The scheduler's dispatch at scale (docs/SCHEDULE.md "Planning in batches"): the queued timed
 * labels in time order, so a dispatch pass reads its batch from the front of this index instead of
 * sorting every queued label (375,000 of them for a chain-wide price file) each pass.
 */
export function timedQueued(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create index timed_labels_queued on timed_labels (show_at) where state = 'queued'`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('timed_labels_queued').ifExists().execute();
    },
  };
}
