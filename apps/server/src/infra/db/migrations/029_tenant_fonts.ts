import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * A tenant's own fonts (issue 28 item 3, docs/LABELS.md "Fonts a retailer brings"): one row per
 * family and weight, the file's bytes in the database (as avatars and firmware: any process can
 * render with them or serve them), its SHA-256 naming it to the render workers' caches. Only that
 * tenant's labels, previews and editor draw with them.
 */
export function tenantFonts(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  const bytes = pg ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tenant_fonts')
        .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('family_key', 'text', (c) => c.notNull())
        .addColumn('weight', 'integer', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addUniqueConstraint('tenant_fonts_family', ['tenant_id', 'family_key', 'weight'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('tenant_fonts').ifExists().execute();
    },
  };
}
