import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Several server processes on one database (issue 16 part 2, docs/DEPLOY.md): `cluster_leases`
 * holds named, time-limited leases. `process:{instance}` says a server process is alive (renewed
 * while it runs; a killed one's lapses), `sweeper` which process runs the periodic sweeps, and
 * `station:{id}` which process dispatches a station's jobs. A lease is taken or renewed by one
 * conditional upsert, so two processes never hold one at the same time, and a dead holder's lease
 * simply runs out.
 */
export function cluster(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('cluster_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('until', big, (c) => c.notNull())
        .addColumn('info', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('cluster_leases').ifExists().execute();
    },
  };
}
