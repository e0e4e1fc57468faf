import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Tag models stations teach (issue 24, docs/PROTOCOL.md §5.13): `learned_models` holds, per
 * tenant, each model a bridge described in `up/models` by its key (`oepl-35`), the latest
 * description winning; a tag reported with the key takes the model. On stations, what the last
 * heartbeat said beyond its figures: `alarms` (the known alarm codes, comma-separated, '' none) and
 * `ap_state` (a bridge's access point, JSON; '' none).
 */
export function learnedModels(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('learned_models')
        .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('w', 'integer', (c) => c.notNull())
        .addColumn('h', 'integer', (c) => c.notNull())
        // The panel's colours in its index order, as JSON.
        .addColumn('colours', 'text', (c) => c.notNull())
        .addColumn('colour_type', 'text')
        .addColumn('rotate', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('led', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('button', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('nfc', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('source', 'text', (c) => c.notNull())
        // The station that taught it last (no reference: a station deleted keeps its models).
        .addColumn('station_id', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('learned_models_tenant_key', ['tenant_id', 'key'])
        .execute();
      await db.schema
        .alterTable('stations')
        .addColumn('alarms', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('stations')
        .addColumn('ap_state', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('stations').dropColumn('ap_state').execute();
      await db.schema.alterTable('stations').dropColumn('alarms').execute();
      await db.schema.dropTable('learned_models').ifExists().execute();
    },
  };
}
