import { sql } from 'kysely';
import { dialectOfDb } from '../../infra/db/database';
import type { TaskKind, TaskState } from '../../infra/db/schema';
import { BATTERY_RISE_PCT, HELD, HELD_RETRY_MS, NEVER_REOPENED } from './policy';

/*
 * SQL of the task engine (DELIVERY.md §5.1–5.2): slots one per (tenant, target, kind), moved
 * from state to state only by conditional UPDATEs on (id, rev, state), so a late or duplicate
 * message changes nothing; request progress counters; what a tag should show and showed.
 */

import { ACTIVE, big, type Db, FINAL, int } from '../../outbox/slots/repository';

export type RenderSlot = Awaited<ReturnType<typeof claimRenderSpread>>[number];

export function tagsForRender(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select([
      'id',
      'tenant_id',
      'store_id',
      'model',
      'colour',
      'product_id',
      'shown_ver',
      'hardware_id',
      'desired_hash',
      'render_key',
    ])
    .where('id', 'in', ids)
    .execute();
}

/** A rendered slot: the tag desires `hash`; the slot waits for dispatch (or is done when the tag shows it already). */
export async function slotRendered(
  db: Db,
  s: {
    id: number;
    rev: number;
    tagId: number;
    hash: string;
    size: number;
    skip: boolean;
    now: number;
    renderKey: string | null;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({
      state: s.skip ? 'done' : 'queued',
      code: s.skip ? 'skipped' : null,
      hash: s.hash,
      size: s.size,
      rendered_at: s.now,
      finished_at: s.skip ? s.now : null,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', '=', 'render')
    .executeTakeFirst();
  // A newer rev arrived while this one rendered: it will set what the tag desires.
  if (Number(r.numUpdatedRows) === 0) return false;
  await db
    .updateTable('tags')
    .set({ desired_hash: s.hash, desired_rev: s.rev, desired_at: s.now, render_key: s.renderKey })
    .where('id', '=', s.tagId)
    .execute();
  return true;
}

/** A slot that could not be rendered: final until its data changes. */
export async function slotFailed(
  db: Db,
  s: { id: number; rev: number; state: TaskState; code: string; detail: string | null; now: number },
): Promise<boolean> {
  const r = await db
    .updateTable('device_tasks')
    .set({ state: 'failed', code: s.code, detail: s.detail, finished_at: s.now, lease_owner: null, lease_until: null })
    .where('id', '=', s.id)
    .where('rev', '=', s.rev)
    .where('state', '=', s.state)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// -------------------------------------------------------------------------------------------
// Dispatch

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

// -------------------------------------------------------------------------------------------
// Acks, results, resync

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
  await db
    .updateTable('tags')
    .set({
      shown_ver: s.ver,
      shown_hash: s.hash,
      shown_at: s.now,
      status: sql`case when desired_hash is null or substr(desired_hash, 1, 16) = ${s.ver} then 'normal' else 'online' end`,
      last_seen: sql`case when last_seen is null or last_seen < ${big(s.seenAt)} then ${big(s.seenAt)} else last_seen end`,
    })
    .where('id', '=', s.tagId)
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

// -------------------------------------------------------------------------------------------
// Sweeper and reconciler

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

/**
 * Leases up to `limit` slots waiting for a render (or whose render lease ran out), spread over
 * the stations their tags are routed to: each station's first slot before any station's second
 * (by priority, then slot id), so a full-store refresh feeds every station from its first batch
 * instead of rendering one station's tags after another's. A process that dies leaves its slots
 * leased until `leaseMs` has passed; then any process claims them. A slot held by coalescing
 * (`not_before` in the future) waits.
 */
export async function claimRenderSpread(db: Db, owner: string, now: number, leaseMs: number, limit: number) {
  const ranked = db
    .selectFrom('device_tasks as d')
    .leftJoin('tags as t', 't.id', 'd.tag_id')
    .select([
      'd.id',
      'd.prio',
      sql<number>`row_number() over (partition by d.prio, t.station_id order by d.id)`.as('k'),
    ])
    .where('d.state', '=', 'render')
    .where('d.not_before', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .as('r');
  const returned = [
    'id',
    'rev',
    'tenant_id',
    'store_id',
    'tag_id',
    'force',
    'request_id',
    'push_id',
    'hash',
    'size',
  ] as const;
  if (dialectOfDb(db) === 'postgres') {
    // Several processes claim at once (scale-out): the spread order picks candidates, and the rows
    // are then locked FOR UPDATE SKIP LOCKED in a materialized CTE, so a row another process is
    // claiming is passed over instead of waited for, and no more than `limit` rows are claimed.
    const candidates = db
      .selectFrom(ranked)
      .select(['r.id', 'r.prio', 'r.k'])
      .orderBy('r.prio')
      .orderBy('r.k')
      .orderBy('r.id')
      .limit(limit * 4);
    return db
      .with('cand', () => candidates)
      .with(
        (cte) => cte('due').materialized(),
        (q) =>
          q
            .selectFrom('device_tasks as d')
            .innerJoin('cand', 'cand.id', 'd.id')
            .select('d.id')
            .where('d.state', '=', 'render')
            .where('d.not_before', '<=', now)
            .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
            .orderBy('cand.prio')
            .orderBy('cand.k')
            .orderBy('cand.id')
            .limit(limit)
            .forUpdate(['d'])
            .skipLocked(),
      )
      .updateTable('device_tasks')
      .from('due')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .whereRef('device_tasks.id', '=', 'due.id')
      .returning(returned.map((c) => `device_tasks.${c}` as const))
      .execute();
  }
  const due = await db
    .selectFrom(ranked)
    .select('r.id')
    .orderBy('r.prio')
    .orderBy('r.k')
    .orderBy('r.id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('device_tasks')
    .set({ lease_owner: owner, lease_until: now + leaseMs })
    .where(
      'id',
      'in',
      due.map((d) => d.id),
    )
    .where('state', '=', 'render')
    .where('not_before', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(returned)
    .execute();
}
