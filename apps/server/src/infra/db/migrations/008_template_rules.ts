import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * Which label a tag shows (issue 13 item 0, docs/TEMPLATES.md "Which template a tag shows"): one
 * table of assignment rules. A rule names a template for a tag model and colour type, and is one
 * of: a per-tag override (`tag_id`), a product-field match (`match_key` = `match_value`), the
 * default, or the label of tags without a product; `store_id` null makes it hold in every store of
 * the tenant. A deleted tenant, store, tag or template takes its rules with it.
 */
export function templateRules(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const id: Col = (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const big = pg ? 'bigint' : 'integer';
  const key = ['kind', 'model', 'colour', 'match_key', 'match_value'] as const;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('template_rules')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.references('stores.id').onDelete('cascade'))
        .addColumn('tag_id', 'integer', (c) => c.references('tags.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('colour', 'text', (c) => c.notNull())
        .addColumn('match_key', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('match_value', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('template_id', 'integer', (c) => c.notNull().references('templates.id').onDelete('cascade'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      // One rule per key and scope: partial indexes, as NULL store ids never collide in a plain one.
      await db.schema
        .createIndex('template_rules_tenant_key')
        .on('template_rules')
        .columns(['tenant_id', ...key])
        .unique()
        .where(sql.ref('store_id'), 'is', null)
        .execute();
      await db.schema
        .createIndex('template_rules_store_key')
        .on('template_rules')
        .columns(['store_id', ...key])
        .unique()
        .where(sql.ref('tag_id'), 'is', null)
        .execute();
      await db.schema
        .createIndex('template_rules_tag')
        .on('template_rules')
        .column('tag_id')
        .unique()
        .where(sql.ref('tag_id'), 'is not', null)
        .execute();
      // "Which rules use these templates" (delete refusal, re-render on save).
      await db.schema
        .createIndex('template_rules_template')
        .on('template_rules')
        .columns(['tenant_id', 'template_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('template_rules').ifExists().execute();
    },
  };
}
