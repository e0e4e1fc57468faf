import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * A session may act as one role of its user (/user/changerole, SPEC.md §4 "role change"):
 * `sessions.role` holds it; null = all of the user's roles, as every session before.
 */
export function sessionRole(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sessions').addColumn('role', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sessions').dropColumn('role').execute();
    },
  };
}
