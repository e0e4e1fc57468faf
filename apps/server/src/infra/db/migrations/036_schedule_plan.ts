import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * The scheduler's planner at scale (docs/SCHEDULE.md "Planning in batches"): `planned` on
 * `scheduled_changes` (0 until the planner has planned the change as it is now; every add, edit,
 * cancel and apply leaves it 0), found by `scheduled_changes_unplanned` a batch of products at a
 * time, so a planner pass reads only what changed and not every pending change; and
 * `timed_labels_active`, the labels that are not idle in id order, for the planner's sweep.
 */
export function schedulePlan(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('scheduled_changes')
        .addColumn('planned', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('scheduled_changes_unplanned')
        .on('scheduled_changes')
        .columns(['planned', 'product_id'])
        .execute();
      await sql`create index timed_labels_active on timed_labels (id) where state <> 'idle'`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('timed_labels_active').ifExists().execute();
      await db.schema.dropIndex('scheduled_changes_unplanned').ifExists().execute();
      await db.schema.alterTable('scheduled_changes').dropColumn('planned').execute();
    },
  };
}
