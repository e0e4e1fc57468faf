import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * An index of the tags that carry the mark of a deleted product (`product_gone_at`, nearly none):
 * the problems sweep clears the mark from rebound tags at every pass (problems/repository.ts
 * clearRebound), and without it both databases read every tag to find none: at 2,000,000 tags
 * a pass read the whole 1 GB table through PostgreSQL's shared buffers, pushing out the pages the
 * tag reports were writing (docs/performance-log.md, "PostgreSQL keeping up"). Partial, so a tag
 * report (which writes no mark) leaves it alone.
 */
export function tagsProductGone(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create index tags_product_gone on tags (id) where product_gone_at is not null`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`drop index if exists tags_product_gone`.execute(db);
    },
  };
}
