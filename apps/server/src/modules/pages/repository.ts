import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, PageScheduleTable } from '../../infra/db/schema';

/* SQL of page schedules (docs/PAGES.md "Page schedules"): the console's calls and the runner's steps. */

type Db = Kysely<Database> | Transaction<Database>;
type At = { tenantId: number; storeId: number };

const COLUMNS = [
  'page_schedules.id',
  'page_schedules.tenant_id',
  'page_schedules.store_id',
  'page_schedules.template_id',
  'page_schedules.name',
  'page_schedules.page',
  'page_schedules.weekdays',
  'page_schedules.from_time',
  'page_schedules.to_time',
  'page_schedules.enabled',
  'page_schedules.armed_start',
  'page_schedules.armed_end',
  'page_schedules.ended_start',
  'page_schedules.created_at',
  'page_schedules.updated_at',
] as const;

export type PageScheduleRow = Awaited<ReturnType<typeof findSchedule>> & object;

export async function insertSchedule(db: Db, row: Insertable<PageScheduleTable>): Promise<number> {
  const r = await db.insertInto('page_schedules').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export function findSchedule(db: Db, at: At, id: number) {
  return db
    .selectFrom('page_schedules')
    .innerJoin('templates', 'templates.id', 'page_schedules.template_id')
    .select([...COLUMNS, 'templates.name as template_name'])
    .where('page_schedules.tenant_id', '=', at.tenantId)
    .where('page_schedules.store_id', '=', at.storeId)
    .where('page_schedules.id', '=', id)
    .executeTakeFirst();
}

/** A store's schedules, in the order they were added (a page of them) and how many there are. */
export async function listSchedules(db: Db, at: At, f: { templateId?: number; page: number; limit: number }) {
  let q = db
    .selectFrom('page_schedules')
    .where('page_schedules.tenant_id', '=', at.tenantId)
    .where('page_schedules.store_id', '=', at.storeId);
  if (f.templateId !== undefined) q = q.where('page_schedules.template_id', '=', f.templateId);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .innerJoin('templates', 'templates.id', 'page_schedules.template_id')
    .select([...COLUMNS, 'templates.name as template_name'])
    .orderBy('page_schedules.id')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, count: Number(n) };
}

export async function updateSchedule(db: Db, at: At, id: number, set: Updateable<PageScheduleTable>) {
  const r = await db
    .updateTable('page_schedules')
    .set(set)
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function schedulesIn(db: Db, at: At, ids: readonly number[]) {
  return db
    .selectFrom('page_schedules')
    .select(COLUMNS)
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids)
    .execute();
}

export async function deleteSchedules(db: Db, at: At, ids: readonly number[]) {
  const r = await db
    .deleteFrom('page_schedules')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Does the tenant have this template (its document, to count its pages)? */
export function findTemplate(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('templates')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every enabled schedule (the runner). */
export function enabledSchedules(db: Db) {
  return db.selectFrom('page_schedules').select(COLUMNS).where('enabled', '=', 1).orderBy('id').execute();
}

/** Schedules whose last window's end has not been checked yet (enabled or not). */
export function unendedSchedules(db: Db) {
  return db
    .selectFrom('page_schedules')
    .select(COLUMNS)
    .where('armed_start', 'is not', null)
    .where((eb) => eb.or([eb('ended_start', 'is', null), eb('ended_start', '!=', eb.ref('armed_start'))]))
    .orderBy('id')
    .execute();
}

/** Marks window `start` sent ahead, unless another process (or an earlier run) did. */
export async function arm(db: Db, id: number, was: number | null, start: number, end: number): Promise<boolean> {
  let q = db.updateTable('page_schedules').set({ armed_start: start, armed_end: end }).where('id', '=', id);
  q = was === null ? q.where('armed_start', 'is', null) : q.where('armed_start', '=', was);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks window `start` closed, once. */
export async function close(db: Db, id: number, start: number): Promise<boolean> {
  const r = await db
    .updateTable('page_schedules')
    .set({ ended_start: start })
    .where('id', '=', id)
    .where('armed_start', '=', start)
    .where((eb) => eb.or([eb('ended_start', 'is', null), eb('ended_start', '!=', start)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The store's tags the runner looks at: what they are, and the picture they show and should. */
export function storeTags(db: Db, at: At) {
  return db
    .selectFrom('tags')
    .select(['id', 'model', 'colour', 'product_id', 'shown_hash', 'desired_hash', 'shown_page'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('station_id', 'is not', null)
    .execute();
}

/** The tags a schedule's window was sent to, with the picture each was sent for. */
export function switchedTags(db: Db, scheduleId: number, start: number) {
  return db
    .selectFrom('page_schedule_tags')
    .innerJoin('tags', 'tags.id', 'page_schedule_tags.tag_id')
    .select(['page_schedule_tags.tag_id', 'page_schedule_tags.hash', 'tags.shown_page'])
    .where('page_schedule_tags.schedule_id', '=', scheduleId)
    .where('page_schedule_tags.start_at', '=', start)
    .execute();
}

/** Records tags switched for window `start` (one row per tag and schedule: the latest window). */
export async function recordSwitched(
  db: Db,
  scheduleId: number,
  start: number,
  tags: ReadonlyArray<{ id: number; hash: string }>,
) {
  if (tags.length === 0) return;
  for (let i = 0; i < tags.length; i += 500) {
    const part = tags.slice(i, i + 500);
    await db
      .deleteFrom('page_schedule_tags')
      .where('schedule_id', '=', scheduleId)
      .where(
        'tag_id',
        'in',
        part.map((t) => t.id),
      )
      .execute();
    await db
      .insertInto('page_schedule_tags')
      .values(part.map((t) => ({ schedule_id: scheduleId, tag_id: t.id, start_at: start, hash: t.hash })))
      .execute();
  }
}

/** Forgets a schedule's switches and windows (after an edit: it starts again as changed). */
export async function reset(db: Db, id: number) {
  await db.deleteFrom('page_schedule_tags').where('schedule_id', '=', id).execute();
  await db
    .updateTable('page_schedules')
    .set({ armed_start: null, armed_end: null, ended_start: null })
    .where('id', '=', id)
    .execute();
}
