import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * PostgreSQL: tag pages filled to half (fillfactor 50), so a tag report's UPDATE can put each row's
 * new version on the same page as the old one (a HOT update: no entry in any of the table's eleven
 * indexes; the old version pruned when the page is next read). Tags filled their pages when
 * written, so nearly every report update went to another page and into every index (4,276 of
 * 1,505,000 HOT): at 1,000 stations × 2,000 tags reporting every 30 s the database fell behind,
 * storing half the tags of a period. Half, not a fifth: a report updates every row of a page (a
 * station's tags were registered together) in one transaction, whose new versions cannot be
 * pruned before it commits, so the page must hold them all (80 % gave 28 % HOT, 50 % gives 76 %;
 * docs/performance-log.md, "The gateway under 50 % of a core"). The reported columns are in no
 * index, so a report leaves the row's index entries as they are.
 *
 * A table that already has rows takes the setting for the pages written from now on; `VACUUM
 * FULL tags` (which locks the table while it rewrites it) applies it to every page at once
 * (docs/DEPLOY.md, "Upgrading the server"). SQLite writes rows in place: nothing to do.
 */
export function tagsFillfactor(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table tags set (fillfactor = 50)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table tags reset (fillfactor)`.execute(db);
    },
  };
}
