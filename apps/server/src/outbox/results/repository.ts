import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../infra/db/schema';

/*
 * What delivery announces — a tag's task revision ended, a request completed — written in the
 * transaction of the change it reports, so it is never lost and never told twice. Its reader
 * today is the tenant's callback (modules/callbacks: settings, console list, the sender); an
 * event is written only for a tenant with a callback URL (one INSERT … SELECT: nothing is written
 * and nothing else read for a tenant without one).
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The event types a receiver gets (docs/INTEGRATION.md, "Callbacks"). */
export type CallbackType =
  | 'tag.result'
  | 'request.done'
  | 'label.problem'
  | 'price.wrong'
  | 'problem.started'
  | 'problem.ended'
  | 'test';

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

/**
 * A label was rendered and sent with something it could not draw as its data says: characters no
 * font of an element has ('missingGlyph'), which the tag shows as empty boxes.
 */
export interface LabelProblemData {
  storeId: number;
  tagId: number;
  hardwareId: string;
  /** The product the tag shows; null for a tag without one. */
  productId: number | null;
  requestId: number | null;
  /**
   * missingGlyph: characters no font of the element can draw (problems name the field and the
   * characters); unknownFont: the template names a font family the tenant does not have, drawn in
   * the base font (problems name the family).
   */
  code: 'missingGlyph' | 'unknownFont';
  /** Per element: the data field the text came from (null: the template's own text) and the characters. */
  problems: { element: string; field: string | null; chars: string }[] | { element: string; family: string }[];
}

/**
 * A tag has shown a price other than its product's for longer than the tenant's time
 * (docs/PROOF.md): what the screen was rendered from and what the product costs now. Sent once per
 * disagreement; a tag that agrees again and later disagrees is told again.
 */
export interface PriceWrongData {
  storeId: number;
  tagId: number;
  hardwareId: string;
  productId: number;
  barcode: string;
  productName: string;
  /** The product's price now. */
  price: string;
  /** The price the tag's screen was rendered from; null: not known (another picture, or none confirmed). */
  screenPrice: string | null;
  /** Since when the screen has disagreed (Unix ms), and the tenant's minutes that passed since. */
  wrongSince: number;
  minutes: number;
}

/**
 * A problem to act on started or ended in a store (docs/PROBLEMS.md): the kind, what it is about
 * (a tag or a base station, its id and hardware ID or serial) and when it started; an end also when
 * it ended.
 */
export interface ProblemEventData {
  storeId: number;
  kind: string;
  subject: 'tag' | 'station';
  id: number;
  code: string;
  name: string;
  detail: string;
  startedAt: number;
  endedAt: number | null;
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

/** Writes one event for the tenant, when it has a callback URL; answers the event id. */
export async function enqueueEvent(
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

/**
 * Writes several events of one tenant, when it has a callback URL (one look at its settings, one
 * INSERT of every row): the problems sweep's starts and ends, hundreds at once. Answers how many
 * were written (0 without a URL).
 */
export async function enqueueEvents(
  db: Db,
  tenantId: number,
  events: readonly { storeId: number | null; type: CallbackType; orderKey: string; data: unknown }[],
  now: number,
): Promise<number> {
  if (events.length === 0) return 0;
  const settings = await db
    .selectFrom('callback_settings')
    .select('tenant_id')
    .where('tenant_id', '=', tenantId)
    .where('url', '<>', '')
    .executeTakeFirst();
  if (!settings) return 0;
  const rows = events.map((e) => {
    const id = randomUUID();
    return {
      tenant_id: tenantId,
      store_id: e.storeId,
      event_id: id,
      type: e.type,
      order_key: e.orderKey,
      payload: JSON.stringify({ id, type: e.type, time: now, data: e.data } satisfies CallbackEvent),
      next_at: now,
      created_at: now,
    };
  });
  // 8 values a row: 250 rows stay far under SQLite's limit of bound values.
  for (let i = 0; i < rows.length; i += 250) {
    await db
      .insertInto('callback_outbox')
      .values(rows.slice(i, i + 250))
      .execute();
  }
  return rows.length;
}

/** A tag's task revision reached its final state (called in the engine's transaction). */
export async function enqueueTagResult(db: Db, tenantId: number, data: TagResultData, now: number): Promise<void> {
  await enqueueEvent(db, {
    tenantId,
    storeId: data.storeId,
    type: 'tag.result',
    orderKey: `tag:${data.tagId}`,
    data,
    now,
  });
}

/** A request completed (called in the transaction that counted its last tag). */
export async function enqueueRequestDone(db: Db, tenantId: number, data: RequestDoneData, now: number): Promise<void> {
  await enqueueEvent(db, {
    tenantId,
    storeId: data.storeId,
    type: 'request.done',
    orderKey: `request:${data.requestId}`,
    data,
    now,
  });
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
