import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOfDb } from '../../infra/db/database';
import type { Database, DeviceRequestKind, TaskKind, TaskState } from '../../infra/db/schema';
import { requestCallback } from '../results/repository';

/*
 * SQL of the delivery outbox (DELIVERY.md §5.1–5.2): what a module writes inside its own
 * transaction for the task engine to carry out — requests and their counters, and the slots,
 * one per (tenant, target, kind), that say what a tag should show or do next.
 */

/**
 * Coalescing: a slot changed again within this long of its previous change waits this long
 * (from the change that found it recent) before its render, and later changes in that wait join
 * it. A lone change renders at once; a burst renders its first change at once and its last one
 * after the wait — at most one render (and one job) per tag a second while changes keep coming.
 */
export const BURST_MS = 1000;

export type Db = Kysely<Database> | Transaction<Database>;

export const ACTIVE: readonly TaskState[] = ['render', 'queued', 'sent', 'accepted'];
export const FINAL: readonly TaskState[] = ['done', 'failed', 'cancelled'];
export const finalList = sql.raw(FINAL.map((s) => `'${s}'`).join(', '));

export const int = (v: number | null) => sql<number>`cast(${v} as integer)`;
export const big = (v: number | null) => sql<number>`cast(${v} as bigint)`;

export async function insertRequest(
  db: Db,
  row: {
    tenantId: number;
    storeId: number;
    kind: DeviceRequestKind;
    tagId: number | null;
    userId: number | null;
    params: unknown;
    now: number;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('device_requests')
    .values({
      tenant_id: row.tenantId,
      store_id: row.storeId,
      kind: row.kind,
      tag_id: row.tagId,
      station_id: null,
      status: 'running',
      user_id: row.userId,
      created_at: row.now,
      params: row.params === undefined ? '' : JSON.stringify(row.params),
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function setRequestTotal(db: Db, id: number, total: number, now: number): Promise<void> {
  await db
    .updateTable('device_requests')
    .set({
      total,
      status: sql`case when done + failed >= ${int(total)} then 'done' else 'running' end`,
      finished_at: sql`case when done + failed >= ${int(total)} then ${big(now)} else null end`,
    })
    .where('id', '=', id)
    .execute();
}

export function findRequest(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('device_requests')
    .select(['id', 'tenant_id', 'store_id', 'kind', 'status', 'total', 'done', 'failed', 'created_at', 'finished_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}
export type RequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

/** Adds to a request's counters; it is done once they reach its total. Answers the row. */
export async function countRequest(db: Db, id: number, done: number, failed: number, now: number) {
  const row = await db
    .updateTable('device_requests')
    .set({
      done: sql`done + ${int(done)}`,
      failed: sql`failed + ${int(failed)}`,
      status: sql`case when total > 0 and done + failed + ${int(done + failed)} >= total then 'done' else status end`,
      finished_at: sql`case when total > 0 and done + failed + ${int(done + failed)} >= total and finished_at is null then ${big(now)} else finished_at end`,
    })
    .where('id', '=', id)
    .returning([
      'id',
      'tenant_id',
      'store_id',
      'kind',
      'status',
      'total',
      'done',
      'failed',
      'created_at',
      'finished_at',
    ])
    .executeTakeFirst();
  // The tenant's "request done" callback, in the caller's transaction (callbacks/outbox.ts).
  if (row) await requestCallback(db, row, done + failed, now);
  return row;
}

/**
 * The unfinished slots of other requests that a new change takes over, by request: they count as
 * done for the request that loses them (the tag gets a newer picture of the same thing).
 */
export async function takenOver(
  db: Db,
  where: { tenantId: number; kind: TaskKind; tagIds: readonly number[] | null; storeId: number },
  requestId: number | null,
): Promise<Array<{ request_id: number; n: number }>> {
  if (where.tagIds && where.tagIds.length === 0) return [];
  let q = db
    .selectFrom('device_tasks')
    .select(['request_id', sql<number>`count(*)`.as('n')])
    .where('tenant_id', '=', where.tenantId)
    .where('kind', '=', where.kind)
    .where('state', 'in', ACTIVE)
    .where('request_id', 'is not', null)
    .groupBy('request_id')
    // Counted (countRequest locks each request's row) in ascending id order, as every writer does.
    .orderBy('request_id');
  if (requestId !== null) q = q.where('request_id', '<>', requestId);
  q = where.tagIds ? q.where('tag_id', 'in', where.tagIds) : q.where('store_id', '=', where.storeId);
  const rows = await q.execute();
  return rows.map((r) => ({ request_id: Number(r.request_id), n: Number(r.n) }));
}

// -------------------------------------------------------------------------------------------
// Enqueue (in the caller's transaction)

export interface SlotChange {
  tenantId: number;
  storeId: number;
  /** Tags of the store; null: every tag of the store. */
  tagIds: readonly number[] | null;
  prio: number;
  force: boolean;
  /** Only data changes keep an unfinished request's id (null). */
  requestId: number | null;
  /** The data push (push_log) behind a data change. */
  pushId?: number | null;
  now: number;
}

/**
 * Upserts the image slot of each tag: a new slot at rev 1, or the existing one at rev + 1 back in
 * `render` (latest wins), priority the more urgent of both. One statement for any number of tags.
 * Answers how many slots it touched.
 */
export async function upsertImageSlots(db: Db, c: SlotChange): Promise<number> {
  if (c.tagIds && c.tagIds.length === 0) return 0;
  let select = db
    .selectFrom('tags')
    .select([
      'tags.tenant_id',
      'tags.store_id',
      sql<string>`'t:' || cast(tags.id as text)`.as('target_key'),
      'tags.id as tag_id',
      sql<TaskKind>`cast('image' as text)`.as('kind'),
      int(c.requestId).as('request_id'),
      int(c.prio).as('prio'),
      sql<TaskState>`cast('render' as text)`.as('state'),
      int(c.force ? 1 : 0).as('force'),
      int(c.pushId ?? null).as('push_id'),
      big(c.now).as('created_at'),
      big(c.now).as('queued_at'),
    ])
    .where('tags.tenant_id', '=', c.tenantId)
    .where('tags.store_id', '=', c.storeId);
  if (c.tagIds) select = select.where('tags.id', 'in', c.tagIds);
  // Rows are inserted, and existing slots locked, in tag order: the one order every writer of
  // many slots takes, so two upserts of overlapping tags wait for each other instead of deadlocking.
  select = select.orderBy('tags.id');
  const result = await db
    .insertInto('device_tasks')
    .columns([
      'tenant_id',
      'store_id',
      'target_key',
      'tag_id',
      'kind',
      'request_id',
      'prio',
      'state',
      'force',
      'push_id',
      'created_at',
      'queued_at',
    ])
    .expression(select)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'target_key', 'kind']).doUpdateSet({
        rev: sql`device_tasks.rev + 1`,
        state: 'render',
        code: null,
        detail: null,
        attempt: 0,
        // Coalescing (policy.BURST_MS): a change within a second of the slot's previous one waits
        // a second before its render, and changes during that wait join it; a lone change does not.
        not_before: sql`case
          when device_tasks.state = 'render' and device_tasks.not_before > excluded.queued_at then device_tasks.not_before
          when device_tasks.queued_at is not null and excluded.queued_at - device_tasks.queued_at < ${big(BURST_MS)}
            then excluded.queued_at + ${big(BURST_MS)}
          else 0 end`,
        lease_owner: null,
        lease_until: null,
        store_id: sql`excluded.store_id`,
        queued_at: sql`excluded.queued_at`,
        prio: sql`case when device_tasks.state in (${finalList}) or excluded.prio < device_tasks.prio then excluded.prio else device_tasks.prio end`,
        force: sql`case when excluded.force = 1 then 1 when device_tasks.state in (${finalList}) then 0 else device_tasks.force end`,
        request_id: sql`case when excluded.request_id is not null then excluded.request_id when device_tasks.state in (${finalList}) then null else device_tasks.request_id end`,
        // A push whose render had not happened yet keeps the slot unless another push takes it
        // (dataPushed counts what it takes over); once rendered, the push has counted it.
        push_id: sql`case when excluded.push_id is not null then excluded.push_id when device_tasks.state = 'render' then device_tasks.push_id else null end`,
      }),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * The data pushes whose labels of these tags are still to be rendered, with how many: a new push
 * of the same tags takes those slots over (upsertImageSlots), so they are counted for it instead.
 * On PostgreSQL the slots are locked, so one the render stage is writing at this moment is read
 * once it is written (and no longer waits for its render): it is not counted twice.
 */
export async function pushesInRender(
  db: Db,
  at: { tenantId: number; storeId: number },
  tagIds: readonly number[],
): Promise<Array<{ push_id: number; n: number }>> {
  if (tagIds.length === 0) return [];
  let q = db
    .selectFrom('device_tasks')
    .select(['id', 'push_id'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('tag_id', 'in', tagIds)
    .where('kind', '=', 'image')
    .where('state', '=', 'render')
    .where('push_id', 'is not', null)
    .orderBy('id');
  if (dialectOfDb(db) === 'postgres') q = q.forUpdate();
  const counts = new Map<number, number>();
  for (const r of await q.execute()) counts.set(Number(r.push_id), (counts.get(Number(r.push_id)) ?? 0) + 1);
  return [...counts].map(([push_id, n]) => ({ push_id, n }));
}

/** Upserts LED, ping, page-switch or NFC slots of tags, ready to send (nothing to render). */
export async function upsertTagCommandSlots(
  db: Db,
  c: Omit<SlotChange, 'force'> & { kind: 'led' | 'ping' | 'page' | 'nfc'; payload: string; tagIds: readonly number[] },
): Promise<number> {
  if (c.tagIds.length === 0) return 0;
  const select = db
    .selectFrom('tags')
    .select([
      'tags.tenant_id',
      'tags.store_id',
      sql<string>`'t:' || cast(tags.id as text)`.as('target_key'),
      'tags.id as tag_id',
      sql<TaskKind>`cast(${c.kind} as text)`.as('kind'),
      int(c.requestId).as('request_id'),
      int(c.prio).as('prio'),
      sql<TaskState>`cast('queued' as text)`.as('state'),
      sql<string>`cast(${c.payload} as text)`.as('payload'),
      big(c.now).as('created_at'),
      big(c.now).as('queued_at'),
    ])
    .where('tags.tenant_id', '=', c.tenantId)
    .where('tags.store_id', '=', c.storeId)
    .where('tags.id', 'in', c.tagIds)
    .orderBy('tags.id');
  const result = await db
    .insertInto('device_tasks')
    .columns([
      'tenant_id',
      'store_id',
      'target_key',
      'tag_id',
      'kind',
      'request_id',
      'prio',
      'state',
      'payload',
      'created_at',
      'queued_at',
    ])
    .expression(select)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'target_key', 'kind']).doUpdateSet({
        rev: sql`device_tasks.rev + 1`,
        state: 'queued',
        code: null,
        detail: null,
        attempt: 0,
        not_before: 0,
        prio: sql`excluded.prio`,
        payload: sql`excluded.payload`,
        request_id: sql`excluded.request_id`,
        queued_at: sql`excluded.queued_at`,
      }),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Upserts one roll-call slot per station of the store; answers the stations. */
export async function upsertRollCallSlots(
  db: Db,
  c: { tenantId: number; storeId: number; requestId: number; now: number },
): Promise<number[]> {
  const stations = await db
    .selectFrom('stations')
    .select('id')
    .where('tenant_id', '=', c.tenantId)
    .where('store_id', '=', c.storeId)
    .orderBy('id')
    .execute();
  for (const s of stations) {
    await db
      .insertInto('device_tasks')
      .values({
        tenant_id: c.tenantId,
        store_id: c.storeId,
        target_key: `s:${s.id}`,
        tag_id: null,
        station_id: s.id,
        kind: 'rollcall',
        request_id: c.requestId,
        prio: 0,
        state: 'queued',
        created_at: c.now,
        queued_at: c.now,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'target_key', 'kind']).doUpdateSet({
          rev: sql`device_tasks.rev + 1`,
          state: 'queued',
          code: null,
          detail: null,
          attempt: 0,
          not_before: 0,
          request_id: c.requestId,
          queued_at: c.now,
        }),
      )
      .execute();
  }
  return stations.map((s) => s.id);
}

export async function countTagsOfStore(db: Db, tenantId: number, storeId: number): Promise<number> {
  const row = await db
    .selectFrom('tags')
    .select(sql<number>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Tags of a store whose template is one of `templateIds` cannot be told in SQL: every bound or unbound tag of the tenant's stores. */
export function storesOfTenant(db: Db, tenantId: number) {
  return db.selectFrom('stores').select('id').where('tenant_id', '=', tenantId).execute();
}

/** Every tag of a tenant with what chooses its template, in id order, `limit` after `afterId`. */
export function labelTagsOfTenant(db: Db, tenantId: number, afterId: number, limit: number) {
  return db
    .selectFrom('tags')
    .select(['id', 'store_id', 'model', 'colour', 'product_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Forgets what these tags' last renders depended on: their next render runs even when nothing else changed. */
export async function forgetRenderKeys(db: Db, tenantId: number, tagIds: readonly number[]): Promise<void> {
  for (let i = 0; i < tagIds.length; i += 1000) {
    await db
      .updateTable('tags')
      .set({ render_key: null })
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', tagIds.slice(i, i + 1000))
      .execute();
  }
}

// -------------------------------------------------------------------------------------------
// Render stage

/** The tag tasks a request still owns (a later request may have taken a slot over), with the tag's hardware id. */
export function slotsOfRequest(db: Db, tenantId: number, requestId: number, limit: number) {
  return db
    .selectFrom('device_tasks as d')
    .innerJoin('tags as t', 't.id', 'd.tag_id')
    .select(['d.tag_id', 't.hardware_id', 'd.state', 'd.code'])
    .where('d.tenant_id', '=', tenantId)
    .where('d.request_id', '=', requestId)
    .orderBy('d.tag_id')
    .limit(limit)
    .execute();
}
