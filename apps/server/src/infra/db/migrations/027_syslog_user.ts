import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * `sys_logs.user_id`: the user an event is about (a sign-in: who signed in), null for the rest. A
 * store-scoped reader is given, besides the rows of their stores, their own rows of no store, so a
 * manager sees their own sign-ins as in the operation log (docs/ROLES.md "Logs").
 */
export function syslogUser(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sys_logs').addColumn('user_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sys_logs').dropColumn('user_id').execute();
    },
  };
}
