import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * The rendered labels (DELIVERY.md §5.3): one row per tenant and content hash, the bytes the
 * station receives (`encodeTagImage` output). Tags name what they should show and what they show
 * by hash; the same picture on many tags (or rendered again) is stored once. `last_used_at` is
 * moved whenever the image is stored again, and the collector drops images no tag wants or shows
 * once they have been unused for a week.
 */
export function tagImages(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const bytes = pg ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tag_images')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('colour', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_used_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('tag_images_pk', ['tenant_id', 'hash'])
        .execute();
      // The collector looks at old images first.
      await db.schema.createIndex('tag_images_used').on('tag_images').column('last_used_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('tag_images').ifExists().execute();
    },
  };
}
