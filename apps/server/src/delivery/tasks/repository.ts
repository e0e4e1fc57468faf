import { sql } from 'kysely';
import type { TaskKind, TaskState } from '../../infra/db/schema';
import * as proof from '../../modules/proof/repository';
import { ACTIVE, big, type Db } from '../../outbox/slots/repository';

/*
 * SQL of the task engine (DELIVERY.md §5.1–5.2) that every stage shares, and of the station
 * messages: slots moved from state to state only by conditional UPDATEs on (id, rev, state), so
 * a late or duplicate message changes nothing; what a tag showed; requests' roll calls. Each
 * stage's own SQL is in its folder: render/, dispatch/, sweeps/ (repository.ts each).
 */

export { claimRenderSpread, type RenderSlot } from './render/repository';

export function slotsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('device_tasks')
    .leftJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .select([
      'device_tasks.id',
      'device_tasks.tenant_id',
      'device_tasks.store_id',
      'device_tasks.station_id',
      'device_tasks.tag_id',
      'device_tasks.kind',
      'device_tasks.rev',
      'device_tasks.sent_rev',
      'device_tasks.state',
      'device_tasks.attempt',
      'device_tasks.hash',
      'device_tasks.request_id',
      'device_tasks.ttl_s',
      'device_tasks.code',
      'device_tasks.queued_at',
      'device_tasks.sent_at',
      'tags.hardware_id',
    ])
    .where('device_tasks.id', 'in', ids)
    .execute();
}
export type SlotRow = Awaited<ReturnType<typeof slotsByIds>>[number];

/** sent → accepted (the station holds the job). */
export async function markAccepted(db: Db, id: number, rev: number, now: number, doneDeadline: number) {
  const r = await db
    .updateTable('device_tasks')
    .set({ state: 'accepted', accepted_at: now, done_deadline: doneDeadline, ack_deadline: null })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('state', '=', 'sent')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Back to queued (resend, retry after backoff) from one of `from`, at the same rev. */
export async function requeue(
  db: Db,
  s: { id: number; rev: number; from: readonly TaskState[]; notBefore: number; code?: string | null },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({
      state: 'queued',
      not_before: s.notBefore,
      ack_deadline: null,
      done_deadline: null,
      ...(s.code === undefined ? {} : { code: s.code }),
    })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', 'in', s.from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Slots of these tags held by a station the tag is no longer routed to (sent or accepted there,
 * the tag now routed elsewhere), with that station's serial.
 */
export function reroutedSlots(db: Db, tagIds: readonly number[]) {
  return db
    .selectFrom('device_tasks')
    .innerJoin('tags', 'tags.id', 'device_tasks.tag_id')
    .innerJoin('stations', 'stations.id', 'device_tasks.station_id')
    .select(['device_tasks.id', 'device_tasks.rev', 'device_tasks.tenant_id', 'device_tasks.station_id', 'stations.sn'])
    .where('device_tasks.tag_id', 'in', tagIds)
    .where('device_tasks.state', 'in', ['sent', 'accepted'])
    .where('tags.station_id', 'is not', null)
    .whereRef('tags.station_id', '!=', 'device_tasks.station_id')
    .execute();
}

/** A final state for one rev, from one of `from`. */
export async function finish(
  db: Db,
  s: {
    id: number;
    rev: number;
    from: readonly TaskState[];
    state: 'done' | 'failed' | 'cancelled';
    code: string;
    detail?: string | null;
    now: number;
    /** Keep the battery (%) the tag last reported (a `lowBattery` refusal: see reopenStale). */
    holdBattery?: boolean;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({
      state: s.state,
      code: s.code,
      detail: s.detail ?? null,
      ...(s.holdBattery
        ? { hold_battery: sql<number | null>`(select battery from tags where tags.id = device_tasks.tag_id)` }
        : {}),
      finished_at: s.now,
      ack_deadline: null,
      done_deadline: null,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', 'in', s.from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The tag confirmed it shows `ver` (of `hash`, when known). It was heard just now, so its status
 * follows at once (the gateway's rule for a tag heard within its wakes): normal when it shows what
 * it should, online while another label is still to come — not only at the next report.
 */
export async function setShown(
  db: Db,
  s: { tagId: number; ver: string; hash: string | null; now: number; seenAt: number },
): Promise<void> {
  // The confirmed picture is the desired one (its hash is the slot's): it was drawn from the desired
  // product and price (docs/PROOF.md). Another, or one of unknown hash, was drawn from what is not known.
  const isDesired = sql<boolean>`(desired_hash = ${proof.text(s.hash)})`;
  const from = <T>(name: string) => sql<T | null>`case when ${isDesired} then ${sql.ref(name)} end`;
  // The screen once this is written, against the product's price now.
  const screen = proof.screenOf('', {
    ver: proof.text(s.ver),
    shownHash: proof.text(s.hash),
    shownPrice: from<number>('desired_price_cents'),
    shownProduct: from<number>('desired_product_id'),
    shownAt: from<number>('desired_at'),
  });
  // The till's price now: a running promotion's, else the product's (docs/PROMOTIONS.md).
  const priceNow = sql<number | null>`(select coalesce(p.promo_price_cents, p.price_cents) from products p
    where p.id = tags.product_id)`;
  await db
    .updateTable('tags')
    .set({
      shown_ver: s.ver,
      shown_hash: s.hash,
      shown_at: s.now,
      shown_price_cents: from<number>('desired_price_cents'),
      shown_product_id: from<number>('desired_product_id'),
      shown_priced_at: from<number>('desired_at'),
      ...proof.wrongSince(proof.agrees(screen, sql.ref('product_id'), priceNow), s.now),
      status: sql`case when desired_hash is null or substr(desired_hash, 1, 16) = ${s.ver} then 'normal' else 'online' end`,
      last_seen: sql`case when last_seen is null or last_seen < ${big(s.seenAt)} then ${big(s.seenAt)} else last_seen end`,
    })
    .where('id', '=', s.tagId)
    .execute();
}

/** A tag answered a roll call at `at`: it was heard then (the absentees are the tags not heard since). */
export async function markHeard(db: Db, tagId: number, at: number): Promise<void> {
  await db
    .updateTable('tags')
    .set({ last_seen: sql`case when last_seen is null or last_seen < ${big(at)} then ${big(at)} else last_seen end` })
    .where('id', '=', tagId)
    .execute();
}

/** Tag ids of a tenant by hardware id (roll-call results). */
export function tagsByHardware(db: Db, tenantId: number, hardwareIds: readonly string[]) {
  if (hardwareIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select(['id', 'hardware_id', 'store_id'])
    .where('tenant_id', '=', tenantId)
    .where('hardware_id', 'in', hardwareIds)
    .execute();
}

/** Every unfinished slot sent to a station (for its hello). */
export function sentToStation(db: Db, stationId: number) {
  return db
    .selectFrom('device_tasks')
    .select(['id', 'rev', 'state', 'sent_rev', 'ttl_s'])
    .where('station_id', '=', stationId)
    .where('state', 'in', ['sent', 'accepted'])
    .execute();
}

/** Slots (any state) by id, for telling which held jobs a station may keep. */
export function slotRevs(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('device_tasks')
    .select(['id', 'rev', 'state', 'station_id', 'tenant_id'])
    .where('id', 'in', ids)
    .execute();
}

/** Whether this station has an unfinished task that needs the image `hash` (the blob guard). */
export async function stationNeedsHash(db: Db, stationId: number, tenantId: number, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('device_tasks')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('station_id', '=', stationId)
    .where('hash', '=', hash)
    .where('state', 'in', ['sent', 'accepted'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Figures of the engine (tests and the dashboard). */
export async function slotCounts(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('device_tasks')
    .select(['state', sql<number>`count(*)`.as('n')])
    .where('tenant_id', '=', tenantId)
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])) as Partial<Record<TaskState, number>>;
}

export function slotOfTag(db: Db, tagId: number, kind: TaskKind) {
  return db
    .selectFrom('device_tasks')
    .selectAll()
    .where('tag_id', '=', tagId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** Roll-call slots of a request still waiting for their station. */
export async function activeRollCalls(db: Db, requestId: number): Promise<number> {
  const row = await db
    .selectFrom('device_tasks')
    .select(sql<number>`count(*)`.as('n'))
    .where('request_id', '=', requestId)
    .where('kind', '=', 'rollcall')
    .where('state', 'in', ACTIVE)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findRequestById(db: Db, id: number) {
  return db
    .selectFrom('device_requests')
    .select(['id', 'tenant_id', 'store_id', 'kind', 'status', 'total', 'done', 'failed', 'created_at', 'finished_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
