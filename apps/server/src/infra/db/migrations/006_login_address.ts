import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/** Sign-in throttling also counts the failures of one address for every username (session/throttle.ts). */
export function loginAddress(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('login_attempts_ip').on('login_attempts').columns(['ip', 'time']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('login_attempts_ip').execute();
    },
  };
}
