import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * `tag_log.detail`: what a row of work that is not a task revision says of itself, as JSON (null
 * for the rest). A scheduled change taking effect (docs/SCHEDULE.md) writes one row per tag it
 * relabels, kind `schedule`, rev the change's id, detail `{change, changes, at, localAt, timeZone}`:
 * which change, the fields it set, and its time (Unix ms and on the store's clock).
 */
export function tagLogDetail(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('tag_log').addColumn('detail', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('tag_log').dropColumn('detail').execute();
    },
  };
}
