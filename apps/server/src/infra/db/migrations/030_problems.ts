import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Problems to act on (issue 29 item 4, docs/PROBLEMS.md). On `tags`: `product_gone_at`, when the
 * tag's product was deleted from under it (kept while the tag stays unbound: a misused tag);
 * `foreign_station_id` / `foreign_seen_at`, the station of another store of the tenant that last
 * heard the tag, and when (a misused tag while newer than the tag's own `last_seen`). `problems`:
 * the problems the last sweep found, so the next one knows which started and which ended (one
 * row per tenant, kind and subject, e.g. `tag:41`, `station:3`).
 */
export function problems(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const tagColumns: Array<[string, string]> = [
    ['product_gone_at', big],
    ['foreign_station_id', 'integer'],
    ['foreign_seen_at', big],
  ];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, type] of tagColumns) {
        await db.schema
          .alterTable('tags')
          .addColumn(name, type as 'integer')
          .execute();
      }
      await db.schema
        .createTable('problems')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('started_at', big as 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('problems_pk', ['tenant_id', 'kind', 'subject'])
        .execute();
      await db.schema.createIndex('problems_store').on('problems').columns(['tenant_id', 'store_id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('problems').ifExists().execute();
      for (const [name] of [...tagColumns].reverse()) await db.schema.alterTable('tags').dropColumn(name).execute();
    },
  };
}
