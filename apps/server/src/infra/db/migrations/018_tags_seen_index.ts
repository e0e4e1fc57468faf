import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Drops the `(store_id, last_seen)` index of tags. Every tag report moves each reported tag's
 * `last_seen`, so the index was rewritten for every tag twice a minute (1,000 stations × 2,000
 * tags: 66,000 index moves a second) while nothing read it: the status sweep reads a store by
 * `(tenant_id, store_id)` through `tags_store`, the report handler by primary key.
 */
export function tagsSeenIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tags_store_seen').ifExists().execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tags_store_seen').on('tags').columns(['store_id', 'last_seen']).execute();
    },
  };
}
