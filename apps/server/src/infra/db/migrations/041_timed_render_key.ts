import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database';

/**
 * `timed_labels.render_key`: the render key the tag's label will have once the planned changes
 * have taken effect (the same key the task engine's render stage works out: template and
 * revision, the values shown, model, colours, brand faces). When a change takes effect its tags
 * are relabelled; a tag whose key then equals its timed label's takes that picture instead of a
 * render of the same picture (docs/SCHEDULE.md "After T"). Null: planned before this column
 * (rendered again, as before).
 */
export function timedRenderKey(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table timed_labels add column render_key text`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`alter table timed_labels drop column render_key`.execute(db);
    },
  };
}
