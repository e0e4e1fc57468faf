import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * `tags.shown_page`: the page of its label a tag reports showing (issue 29 item 3, docs/PAGES.md;
 * `page` in a tag report entry, docs/PROTOCOL.md §5.15), 1 for page 1 or a label of one page.
 * Written with the rest of each report; the console shows it beside the picture.
 */
export function labelPages(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('tags')
        .addColumn('shown_page', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('tags').dropColumn('shown_page').execute();
    },
  };
}
