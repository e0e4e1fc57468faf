import { sql } from 'kysely';
import { type Db, FINAL, int } from '../../../outbox/slots/repository';
import { BATTERY_RISE_PCT, HELD, HELD_RETRY_MS, NEVER_REOPENED } from '../policy';

/*
 * SQL of the deadlines and the reconciler (docs/DELIVERY-ENGINE.md): slots whose ack or result
 * is overdue, and image slots opened again when their tag shows another picture.
 */

/** Sent slots whose ack did not come in time. */
export function overdueAcks(db: Db, now: number, limit = 500) {
  return db
    .selectFrom('device_tasks')
    .select(['id', 'rev', 'station_id'])
    .where('state', '=', 'sent')
    .where('ack_deadline', '<', now)
    .limit(limit)
    .execute();
}

/** Accepted slots whose result did not come in time. */
export function overdueResults(db: Db, now: number, limit = 500) {
  return db
    .selectFrom('device_tasks')
    .select(['id', 'rev', 'attempt', 'station_id', 'kind'])
    .where('state', '=', 'accepted')
    .where('done_deadline', '<', now)
    .limit(limit)
    .execute();
}

/**
 * A `lowBattery` slot remembers the lowest battery its tag reported since the refusal (the report
 * before the refusal may be older than the drop that caused it): a rise is measured from there.
 */
async function lowerBatteryHolds(db: Db, tagIds?: readonly number[]) {
  let q = db
    .updateTable('device_tasks')
    .set({ hold_battery: sql<number>`(select battery from tags where tags.id = device_tasks.tag_id)` })
    .where('kind', '=', 'image')
    .where('state', '=', 'failed')
    .where('code', '=', 'lowBattery')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tags')
          .select('tags.id')
          .whereRef('tags.id', '=', 'device_tasks.tag_id')
          .where('tags.battery', 'is not', null)
          .where((eb) =>
            eb.or([
              eb('device_tasks.hold_battery', 'is', null),
              eb('tags.battery', '<', eb.ref('device_tasks.hold_battery')),
            ]),
          ),
      ),
    );
  if (tagIds) q = q.where('tag_id', 'in', tagIds);
  await q.execute();
}

/**
 * Level-triggered healing: image slots that ended, while their tag — heard since — reports
 * another picture than the one it should show, are opened again at the next rev, ready to send.
 * Not every failure: one the same picture would meet again (`NEVER_REOPENED`: it failed to
 * render, or the tag or station cannot take it) waits for a new revision; a held one (`HELD`:
 * battery low, panel error) is tried again a day after it failed, or — battery low — once the
 * tag reports a battery `BATTERY_RISE_PCT` points above the one it refused with (a new cell).
 */
export async function reopenStale(db: Db, now: number, tagIds?: readonly number[]) {
  if (tagIds && tagIds.length === 0) return [];
  await lowerBatteryHolds(db, tagIds);
  let q = db
    .selectFrom('device_tasks')
    .innerJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .select(['device_tasks.id', 'device_tasks.rev', 'device_tasks.state'])
    .where('device_tasks.kind', '=', 'image')
    .where('device_tasks.state', 'in', FINAL)
    .where((eb) =>
      eb.or([
        eb('device_tasks.code', 'is', null),
        eb('device_tasks.code', 'not in', [...NEVER_REOPENED, ...HELD]),
        eb.and([
          eb('device_tasks.code', 'in', HELD),
          eb.or([
            eb('device_tasks.finished_at', '<=', now - HELD_RETRY_MS),
            eb.and([
              eb('device_tasks.code', '=', 'lowBattery'),
              eb('device_tasks.hold_battery', 'is not', null),
              eb('tags.battery', '>=', sql<number>`device_tasks.hold_battery + ${int(BATTERY_RISE_PCT)}`),
            ]),
          ]),
        ]),
      ]),
    )
    .where('device_tasks.hash', 'is not', null)
    .whereRef('tags.desired_hash', '=', 'device_tasks.hash')
    .where(sql<boolean>`substr(device_tasks.hash, 1, 16) <> coalesce(tags.shown_ver, '')`)
    .where('tags.last_seen', 'is not', null)
    .where(sql<boolean>`tags.last_seen > coalesce(device_tasks.finished_at, 0)`);
  if (tagIds) q = q.where('tags.id', 'in', tagIds);
  const rows = await q.limit(2000).execute();
  const out: number[] = [];
  for (const r of rows) {
    const u = await db
      .updateTable('device_tasks')
      .set({
        rev: sql`rev + 1`,
        state: 'queued',
        code: null,
        detail: null,
        attempt: 0,
        not_before: 0,
        request_id: null,
        prio: 1,
        queued_at: now,
        finished_at: null,
      })
      .where('id', '=', r.id)
      .where('rev', '=', r.rev)
      .where('state', '=', r.state)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) > 0) out.push(r.id);
  }
  return out;
}
