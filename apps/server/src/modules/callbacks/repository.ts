import { type CallbackState, PRICE_WRONG_MINUTES_DEFAULT } from '@esl/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { enqueueEvent } from '../../outbox/results/repository';

/*
 * The callback outbox (migration 019): the events themselves are written by outbox/results in the
 * transaction of the change they report; this is the console's side (settings, the list, the test
 * event) and the sender's (sender.ts: leases, attempts, pruning).
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The "send test event" button: answers the event's id, or null when the tenant has no callback URL. */
export async function enqueueTest(db: Kysely<Database>, tenantId: number, now: number): Promise<string | null> {
  const id = await enqueueEvent(db, {
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

// ---------------------------------------------------------------------------------------------
// Settings and the console's list

export async function getUrl(db: Kysely<Database>, tenantId: number): Promise<string> {
  return (await getSettings(db, tenantId)).url;
}

/** The tenant's URL ('' when none) and minutes before `price.wrong` (the default when never set). */
export async function getSettings(db: Kysely<Database>, tenantId: number) {
  const row = await db
    .selectFrom('callback_settings')
    .select(['url', 'price_wrong_min'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return {
    url: row?.url ?? '',
    priceWrongMinutes: row ? Number(row.price_wrong_min) : PRICE_WRONG_MINUTES_DEFAULT,
  };
}

/**
 * Sets (or, with '', clears) the URL, and the minutes before `price.wrong` when given; clearing
 * the URL drops the events still waiting.
 */
export async function setUrl(
  db: Kysely<Database>,
  tenantId: number,
  url: string,
  now: number,
  priceWrongMinutes?: number,
): Promise<void> {
  const minutes = priceWrongMinutes === undefined ? {} : { price_wrong_min: priceWrongMinutes };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('callback_settings')
      .values({ tenant_id: tenantId, url, updated_at: now, ...minutes })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ url, updated_at: now, ...minutes }))
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
