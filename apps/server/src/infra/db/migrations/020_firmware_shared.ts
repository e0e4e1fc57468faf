import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Firmware rollout state that several server processes must agree on (docs/DEPLOY.md): how many
 * tag firmware transfers a station runs at once (its hello's `caps.fwConcurrent`, on the station's
 * row), and, on an upgrade slot, the version a station came back on when it restarted before the
 * upgrade's `ok` result got out (the result, handled by any process later, is judged by it).
 */
export function firmwareShared(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('stations').addColumn('fw_concurrent', 'integer').execute();
      await db.schema.alterTable('firmware_tasks').addColumn('came_back_on', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('firmware_tasks').dropColumn('came_back_on').execute();
      await db.schema.alterTable('stations').dropColumn('fw_concurrent').execute();
    },
  };
}
