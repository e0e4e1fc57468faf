import { sql } from 'kysely';
import { big, type Db } from '../../../outbox/slots/repository';

/*
 * SQL of the dispatcher (docs/DELIVERY-ENGINE.md): stations with due work, what each holds, its
 * queued slots in the order they go, and queued → sent.
 */

/** Online stations with queued work that is due, and how many jobs each holds already. */
export async function stationsWithWork(db: Db, now: number) {
  const rows = await db
    .selectFrom('device_tasks')
    .leftJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .innerJoin('stations', (j) =>
      j.on((eb) =>
        eb(
          'stations.id',
          '=',
          eb.fn.coalesce(
            eb.case().when('device_tasks.kind', '=', 'rollcall').then(eb.ref('device_tasks.station_id')).end(),
            eb.ref('tags.station_id'),
          ),
        ),
      ),
    )
    .select(['stations.id', 'stations.tenant_id', 'stations.sn', 'stations.store_id'])
    .where('device_tasks.state', '=', 'queued')
    .where('device_tasks.not_before', '<=', now)
    .where('stations.online', '=', 1)
    .groupBy(['stations.id', 'stations.tenant_id', 'stations.sn', 'stations.store_id'])
    .execute();
  return rows;
}

export async function inflightOf(db: Db, stationId: number): Promise<number> {
  const row = await db
    .selectFrom('device_tasks')
    .select(sql<number>`count(*)`.as('n'))
    .where('station_id', '=', stationId)
    .where('state', 'in', ['sent', 'accepted'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Time until a tag's next wake: its last reported one moved on by whole wake intervals. */
const untilNextWake = (now: number) =>
  sql`case when tags.next_wake_at is null or coalesce(tags.wake_s, 0) <= 0 then 0
    else ((tags.next_wake_at - ${big(now)}) % (tags.wake_s * 1000) + tags.wake_s * 1000) % (tags.wake_s * 1000) end`;

/** Queued slots routed to a station, most urgent first, then by the tag's predicted wake. */
export function dueForStation(db: Db, stationId: number, now: number, limit: number) {
  return db
    .selectFrom('device_tasks')
    .leftJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .select([
      'device_tasks.id',
      'device_tasks.rev',
      'device_tasks.kind',
      'device_tasks.prio',
      'device_tasks.hash',
      'device_tasks.size',
      'device_tasks.force',
      'device_tasks.payload',
      'device_tasks.attempt',
      'device_tasks.tenant_id',
      'device_tasks.tag_id',
      'device_tasks.request_id',
      'device_tasks.queued_at',
      'tags.hardware_id',
      'tags.wake_s',
    ])
    .where('device_tasks.state', '=', 'queued')
    .where('device_tasks.not_before', '<=', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('device_tasks.kind', '=', 'rollcall'), eb('device_tasks.station_id', '=', stationId)]),
        eb.and([eb('device_tasks.kind', '<>', 'rollcall'), eb('tags.station_id', '=', stationId)]),
      ]),
    )
    .orderBy('device_tasks.prio')
    .orderBy(untilNextWake(now))
    .orderBy('device_tasks.id')
    .limit(limit)
    .execute();
}
export type DueSlot = Awaited<ReturnType<typeof dueForStation>>[number];

/** queued → sent for one slot at its rev; false when it changed in between. */
export async function markSent(
  db: Db,
  s: { id: number; rev: number; stationId: number; now: number; ackDeadline: number; ttlS: number },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({
      state: 'sent',
      station_id: s.stationId,
      sent_rev: s.rev,
      attempt: sql`attempt + 1`,
      sent_at: s.now,
      ack_deadline: s.ackDeadline,
      ttl_s: s.ttlS,
    })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
