import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Nonces of signed integration calls (issue 15, docs/INTEGRATION.md): one row per accepted call,
 * kept for the timestamp window so a replay is refused across restarts and, on PostgreSQL, across
 * server processes (the primary key decides which of two racing copies wins). The rows of the
 * last minute also count a key's calls for its rate limit.
 */
export function openApi(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('open_nonces')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('time', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('open_nonces_pk', ['tenant_id', 'nonce'])
        .execute();
      await db.schema.createIndex('open_nonces_tenant_time').on('open_nonces').columns(['tenant_id', 'time']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('open_nonces').ifExists().execute();
    },
  };
}
