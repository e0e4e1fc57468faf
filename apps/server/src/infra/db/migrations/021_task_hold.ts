import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * `device_tasks.hold_battery`: the battery (%) a tag reported when it refused its picture for a
 * low battery. The reconciler opens such a slot again only once the tag reports a battery well
 * above it (a new cell) or a day has passed, instead of at every report (docs/DELIVERY-ENGINE.md).
 */
export function taskHold(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('device_tasks').addColumn('hold_battery', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('device_tasks').dropColumn('hold_battery').execute();
    },
  };
}
