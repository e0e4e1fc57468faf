import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** Label templates, their thumbnails, and each tenant's data-key field mapping (issue 5). */
export function templates(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const id: Col = (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const time = pg ? 'bigint' : 'integer';
  const bytes = pg ? 'bytea' : 'blob';

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('templates')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('colour_type', 'text', (c) => c.notNull())
        .addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addUniqueConstraint('templates_tenant_name', ['tenant_id', 'name'])
        .execute();
      await db.schema
        .createIndex('templates_tenant_updated')
        .on('templates')
        .columns(['tenant_id', 'updated_at'])
        .execute();

      await db.schema
        .createTable('template_thumbs')
        .addColumn('template_id', 'integer', (c) => c.primaryKey().references('templates.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('png', bytes, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('data_keys')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('t_field', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_keys_pk', ['tenant_id', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['data_keys', 'template_thumbs', 'templates']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
