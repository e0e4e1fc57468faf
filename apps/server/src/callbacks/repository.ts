import { randomUUID } from 'node:crypto';
import type { CallbackState } from '@esl/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/*
 * The callback outbox (migration 019): events are written here in the transaction of the change
 * they report, and only for a tenant with a callback URL (one INSERT … SELECT: nothing is written
 * and nothing else read for a tenant without one). The sender (sender.ts) delivers them.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The event types a receiver gets (docs/INTEGRATION.md, "Callbacks"). */
export type CallbackType = 'tag.result' | 'request.done' | 'test';

export interface CallbackEvent<T = unknown> {
  id: string;
  type: CallbackType;
  /** Unix ms the event happened. */
  time: number;
  data: T;
}

/** One tag's task revision ended: its result. */
export interface TagResultData {
  storeId: number;
  tagId: number;
  hardwareId: string;
  /** The request behind it (the id an integration call answered); null for automatic work. */
  requestId: number | null;
  /** 'refresh' (a new label), 'led', 'ping'. */
  kind: string;
  rev: number;
  state: 'done' | 'failed';
  /** Why it failed ('timeout', 'nack', 'renderError', …); null when done. */
  code: string | null;
}

/** A request reached its total. */
export interface RequestDoneData {
  storeId: number;
  requestId: number;
  kind: string;
  total: number;
  done: number;
  failed: number;
}

async function enqueue(
  db: Db,
  e: { tenantId: number; storeId: number | null; type: CallbackType; orderKey: string; data: unknown; now: number },
): Promise<string> {
  const id = randomUUID();
  const payload = JSON.stringify({ id, type: e.type, time: e.now, data: e.data } satisfies CallbackEvent);
  await db
    .insertInto('callback_outbox')
    .columns(['tenant_id', 'store_id', 'event_id', 'type', 'order_key', 'payload', 'next_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('callback_settings')
        .select([
          'tenant_id',
          sql<number | null>`${e.storeId}`.as('store_id'),
          sql<string>`${id}`.as('event_id'),
          sql<string>`${e.type}`.as('type'),
          sql<string>`${e.orderKey}`.as('order_key'),
          sql<string>`${payload}`.as('payload'),
          sql<number>`${e.now}`.as('next_at'),
          sql<number>`${e.now}`.as('created_at'),
        ])
        .where('tenant_id', '=', e.tenantId)
        .where('url', '<>', ''),
    )
    .execute();
  return id;
}

/** A tag's task revision reached its final state (called in the engine's transaction). */
export async function enqueueTagResult(db: Db, tenantId: number, data: TagResultData, now: number): Promise<void> {
  await enqueue(db, { tenantId, storeId: data.storeId, type: 'tag.result', orderKey: `tag:${data.tagId}`, data, now });
}

/** A request completed (called in the transaction that counted its last tag). */
export async function enqueueRequestDone(db: Db, tenantId: number, data: RequestDoneData, now: number): Promise<void> {
  await enqueue(db, {
    tenantId,
    storeId: data.storeId,
    type: 'request.done',
    orderKey: `request:${data.requestId}`,
    data,
    now,
  });
}

/** The "send test event" button: answers the event's id, or null when the tenant has no callback URL. */
export async function enqueueTest(db: Kysely<Database>, tenantId: number, now: number): Promise<string | null> {
  const id = await enqueue(db, {
    tenantId,
    storeId: null,
    type: 'test',
    orderKey: 'test',
    data: { message: 'test' },
    now,
  });
  const row = await db.selectFrom('callback_outbox').select('id').where('event_id', '=', id).executeTakeFirst();
  return row ? id : null;
}

async function countEvents(db: Kysely<Database>, tenantId: number, state?: CallbackState): Promise<number> {
  let q = db
    .selectFrom('callback_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId);
  if (state) q = q.where('state', '=', state);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * The counters of a request row just updated: did this update complete it? (It is 'done' now, and
 * was not before the `added` results were counted.)
 */
export function completedNow(
  row: { status: string; total: number; done: number; failed: number },
  added: number,
): boolean {
  const total = Number(row.total);
  return row.status === 'done' && total > 0 && Number(row.done) + Number(row.failed) - added < total;
}

// ---------------------------------------------------------------------------------------------
// Settings and the console's list

export async function getUrl(db: Kysely<Database>, tenantId: number): Promise<string> {
  const row = await db
    .selectFrom('callback_settings')
    .select('url')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.url ?? '';
}

/** Sets (or, with '', clears) the URL; clearing drops the events still waiting. */
export async function setUrl(db: Kysely<Database>, tenantId: number, url: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('callback_settings')
      .values({ tenant_id: tenantId, url, updated_at: now })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ url, updated_at: now }))
      .execute();
    if (url === '') {
      await trx
        .updateTable('callback_outbox')
        .set({ state: 'dropped', finished_at: now, lease_owner: null, lease_until: null })
        .where('tenant_id', '=', tenantId)
        .where('state', '=', 'pending')
        .execute();
    }
  });
}

/**
 * The tenant's given-up events back in line: pending, due at once, their attempts counted afresh
 * (a full retry schedule again). Each keeps its id, event id and place in its tag's line, so
 * they go out in the order they happened, and before any later event of the same tag that is
 * still waiting. Answers how many.
 */
export async function resendFailed(db: Kysely<Database>, tenantId: number, now: number): Promise<number> {
  const r = await db
    .updateTable('callback_outbox')
    .set({ state: 'pending', attempts: 0, next_at: now, finished_at: null, lease_owner: null, lease_until: null })
    .where('tenant_id', '=', tenantId)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The tenant's most recent events (those in `state`, when given), newest first. */
export async function recent(
  db: Kysely<Database>,
  tenantId: number,
  offset: number,
  limit: number,
  state?: CallbackState,
) {
  let q = db
    .selectFrom('callback_outbox')
    .select([
      'id',
      'event_id',
      'type',
      'store_id',
      'order_key',
      'state',
      'attempts',
      'next_at',
      'created_at',
      'finished_at',
      'last_status',
      'last_error',
      'excerpt',
      'payload',
    ])
    .where('tenant_id', '=', tenantId);
  if (state) q = q.where('state', '=', state);
  const rows = await q.orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const count = await countEvents(db, tenantId, state);
  return { rows, count };
}

// ---------------------------------------------------------------------------------------------
// The two call sites in the delivery engine

/** The callback data of a slot whose revision just ended with a tag-log result. */
export function tagResultOf(
  slot: {
    tenant_id: number;
    store_id: number;
    tag_id: number | null;
    hardware_id?: string | null;
    request_id: number | null;
    kind?: string;
    rev?: number;
  },
  result: string,
  code: string | null,
): TagResultData {
  const ok = result === 'ok' || result === 'skipped';
  return {
    storeId: slot.store_id,
    tagId: slot.tag_id ?? 0,
    hardwareId: slot.hardware_id ?? '',
    requestId: slot.request_id,
    kind: slot.kind === 'image' || !slot.kind ? 'refresh' : slot.kind,
    rev: slot.rev ?? 0,
    state: ok ? 'done' : 'failed',
    code: ok ? null : code && code !== 'ok' ? code : result,
  };
}

/** After a request's counters moved by `added`: its "request done" event, when this completed it. */
export async function requestCallback(
  db: Db,
  row: {
    id: number;
    tenant_id: number;
    store_id: number;
    kind: string;
    status: string;
    total: number;
    done: number;
    failed: number;
  },
  added: number,
  now: number,
): Promise<void> {
  if (!completedNow(row, added)) return;
  await enqueueRequestDone(
    db,
    row.tenant_id,
    {
      storeId: row.store_id,
      requestId: row.id,
      kind: row.kind,
      total: Number(row.total),
      done: Number(row.done),
      failed: Number(row.failed),
    },
    now,
  );
}

/** Due pending rows that are first in line for their key (nothing earlier of the key pending), oldest first. */
export function dueHeads(db: Db, now: number, limit: number) {
  return db
    .selectFrom('callback_outbox as o')
    .select(['o.id', 'o.tenant_id', 'o.store_id', 'o.event_id', 'o.type', 'o.payload', 'o.attempts'])
    .where('o.state', '=', 'pending')
    .where('o.next_at', '<=', now)
    .where((eb) => eb.or([eb('o.lease_until', 'is', null), eb('o.lease_until', '<', now)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('callback_outbox as e')
            .select(sql`1`.as('x'))
            .whereRef('e.tenant_id', '=', 'o.tenant_id')
            .whereRef('e.order_key', '=', 'o.order_key')
            .whereRef('e.id', '<', 'o.id')
            .where('e.state', '=', 'pending'),
        ),
      ),
    )
    .orderBy('o.id')
    .limit(limit)
    .execute();
}

/**
 * Takes the due rows `ids` for `owner` until `until`, in one statement; answers the ids it got
 * (not those another process holds, nor those sent meanwhile).
 */
export async function lease(
  db: Db,
  ids: readonly number[],
  owner: string,
  now: number,
  until: number,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('callback_outbox')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning('id')
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** What one attempt came to, written by the lease's owner; the lease ends. */
export async function recordAttempt(
  db: Db,
  id: number,
  owner: string,
  a: {
    state: 'sent' | 'failed' | 'pending';
    attempts: number;
    next_at: number;
    finished_at: number | null;
    last_status: number | null;
    last_error: string;
    excerpt: string;
  },
): Promise<void> {
  await db
    .updateTable('callback_outbox')
    .set({ ...a, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** A leased row whose tenant has no callback URL any more: dropped. */
export async function drop(db: Db, id: number, owner: string, now: number): Promise<void> {
  await db
    .updateTable('callback_outbox')
    .set({ state: 'dropped', finished_at: now, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Where and how to send each tenant's events: its URL and key pair (only tenants with a URL). */
export function targets(db: Db, tenantIds: readonly number[]) {
  return db
    .selectFrom('tenants')
    .innerJoin('callback_settings', 'callback_settings.tenant_id', 'tenants.id')
    .select(['tenants.id', 'tenants.ck', 'tenants.sk', 'callback_settings.url'])
    .where('tenants.id', 'in', tenantIds)
    .execute();
}

/** Deletes up to `limit` finished rows created before `before`; answers how many. */
export async function pruneFinished(db: Db, before: number, limit: number): Promise<number> {
  const r = await db
    .deleteFrom('callback_outbox')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('callback_outbox')
        .select('id')
        .where('state', '<>', 'pending')
        .where('created_at', '<', before)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
