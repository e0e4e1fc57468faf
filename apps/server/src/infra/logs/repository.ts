import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, PushSource, TagLogResult } from '../db/schema';

/*
 * The writers of the delivery layer's two logs (DELIVERY.md §5.1). The task engine calls them,
 * inside its own transactions where a log row must commit with the state change that causes it
 * (a slot reaching a final state, a render batch). Reading is the logs module's.
 */

export type { PushSource, TagLogResult } from '../db/schema';

/** A connection or a transaction: the writers join whichever the caller is in. */
export type LogDb = Kysely<Database> | Transaction<Database>;

/** Failure (or skip) codes the task engine writes; the logs module names each in both languages. */
export const TAG_LOG_CODES = [
  'timeout',
  'nack',
  'displayError',
  'renderError',
  'lowBattery',
  'unsupported',
  'unknownTag',
  'badBlob',
] as const;
export type TagLogCode = (typeof TAG_LOG_CODES)[number];

/** One finished (or superseded) revision of a tag's task. Times are Unix ms. */
export interface TagLogEntry {
  tenantId: number;
  storeId: number;
  tagId: number;
  hardwareId: string;
  /** The operation (`device_requests.id`) behind it; null for automatic work (reconciler, data change). */
  requestId?: number | null;
  /** The task's kind: 'refresh', 'led', 'ping', … */
  kind: string;
  rev: number;
  result: TagLogResult;
  /** Why it failed or was skipped; a `TagLogCode`, or another word the engine has (shown as is). */
  code?: TagLogCode | (string & {}) | null;
  hash?: string | null;
  /** Serial of the station that carried the last attempt. */
  stationSn?: string | null;
  attempts?: number;
  queuedAt?: number | null;
  sentAt?: number | null;
  finishedAt: number;
  airMs?: number | null;
  rssi?: number | null;
  /** JSON of a row that is no task revision (a scheduled change that took effect); null otherwise. */
  detail?: string | null;
}

/** Rows per INSERT: well under SQLite's 32,766 bound parameters (18 columns each). */
const INSERT_CHUNK = 500;

/**
 * Appends tag-log rows. A revision ends once: a row for a (tenant, tag, kind, rev) already
 * logged is left out, so a result the station delivers twice writes one row. Answers how many
 * rows were written.
 */
export async function appendTagLog(db: LogDb, rows: readonly TagLogEntry[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      tenant_id: r.tenantId,
      store_id: r.storeId,
      tag_id: r.tagId,
      hardware_id: r.hardwareId,
      request_id: r.requestId ?? null,
      kind: r.kind,
      rev: r.rev,
      result: r.result,
      code: r.code ?? '',
      hash: r.hash ?? null,
      station_sn: r.stationSn ?? '',
      attempts: r.attempts ?? 0,
      queued_at: r.queuedAt ?? null,
      sent_at: r.sentAt ?? null,
      finished_at: r.finishedAt,
      air_ms: r.airMs ?? null,
      rssi: r.rssi ?? null,
      detail: r.detail ?? null,
    }));
    const result = await db
      .insertInto('tag_log')
      .values(chunk)
      .onConflict((oc) => oc.columns(['tenant_id', 'tag_id', 'kind', 'rev']).doNothing())
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/** What starts a data push. */
export interface PushStart {
  tenantId: number;
  storeId: number;
  source: PushSource;
  /** Who pushed; null for the API with a key, or a schedule. */
  userId?: number | null;
  /** How many products the push carries. */
  products?: number;
  /** Tags it is known to touch at the start (more can be added). */
  tagsAffected?: number;
  startedAt: number;
}

/** Opens a data-push row; answers its id, which `addToPush` and `closePush` take. */
export async function openPush(db: LogDb, start: PushStart): Promise<number> {
  const row = await db
    .insertInto('push_log')
    .values({
      tenant_id: start.tenantId,
      store_id: start.storeId,
      source: start.source,
      user_id: start.userId ?? null,
      products: start.products ?? 0,
      tags_affected: start.tagsAffected ?? 0,
      started_at: start.startedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The store's newest push row of one source (a callback receiver's last round), or none. */
export function latestPush(db: LogDb, at: { tenantId: number; storeId: number }, source: PushSource) {
  return db
    .selectFrom('push_log')
    .select(['id', 'rendered', 'failed', 'exceptions'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('source', '=', source)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What happened since the last call: counts to add, and at most one exception message. */
export interface PushDelta {
  products?: number;
  tagsAffected?: number;
  rendered?: number;
  failed?: number;
  exception?: string;
}

/** The push log keeps this many exception messages per push (and counts them all). */
export const PUSH_EXCEPTIONS_KEPT = 20;
/** Longest exception message kept, characters. */
export const PUSH_EXCEPTION_CHARS = 500;

/**
 * Adds to an open (or closed) push's counts in one UPDATE: concurrent batches of the same push
 * (several renderers, several server instances) never lose each other's counts. The exception,
 * if any, joins the stored list while it holds fewer than `PUSH_EXCEPTIONS_KEPT`.
 */
export async function addToPush(db: LogDb, id: number, delta: PushDelta): Promise<void> {
  const add = (column: 'products' | 'tags_affected' | 'rendered' | 'failed', n: number | undefined) =>
    n ? { [column]: sql<number>`${sql.ref(column)} + ${Math.trunc(n)}` } : {};
  const set: Record<string, unknown> = {
    ...add('products', delta.products),
    ...add('tags_affected', delta.tagsAffected),
    ...add('rendered', delta.rendered),
    ...add('failed', delta.failed),
  };
  if (delta.exception !== undefined) {
    const item = JSON.stringify(delta.exception.slice(0, PUSH_EXCEPTION_CHARS));
    // A JSON array of strings, appended in SQL both dialects read alike: '[]' → '[x]', '[a]' → '[a,x]'.
    set.exceptions = sql<string>`case
      when exception_count >= ${PUSH_EXCEPTIONS_KEPT} then exceptions
      when exceptions = '[]' then '[' || cast(${item} as text) || ']'
      else substr(exceptions, 1, length(exceptions) - 1) || ',' || cast(${item} as text) || ']'
    end`;
    set.exception_count = sql<number>`exception_count + 1`;
  }
  if (Object.keys(set).length === 0) return;
  await db.updateTable('push_log').set(set).where('id', '=', id).execute();
}

/** Marks the push finished (its counts stay open to late batches). */
export async function closePush(db: LogDb, id: number, at: number = Date.now()): Promise<void> {
  await db.updateTable('push_log').set({ finished_at: at }).where('id', '=', id).execute();
}

/**
 * Marks finished those of these pushes none of whose task slots waits for its render any more
 * (each label was rendered or failed, or a later push took it over); the others stay running.
 */
export async function closeRenderedPushes(db: LogDb, ids: readonly number[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('push_log')
    .set({ finished_at: at })
    .where('id', 'in', ids)
    .where('finished_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('device_tasks')
            .select('device_tasks.id')
            .whereRef('device_tasks.push_id', '=', 'push_log.id')
            .where('device_tasks.state', '=', 'render'),
        ),
      ),
    )
    .execute();
}

/**
 * Marks finished every running push none of whose slots waits for its render: the ones the
 * render stage could not close because their labels went away unrendered (their tags deleted,
 * their slots with them). The delivery engine's reconciler calls it once a minute.
 */
export async function closeIdlePushes(db: LogDb, at: number): Promise<number> {
  const r = await db
    .updateTable('push_log')
    .set({ finished_at: at })
    .where('finished_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('device_tasks')
            .select('device_tasks.id')
            .whereRef('device_tasks.push_id', '=', 'push_log.id')
            .where('device_tasks.state', '=', 'render'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Every store with its parameters (the log retention reads `tagLogDays` from them). */
export function storesWithParams(db: Kysely<Database>) {
  return db
    .selectFrom('stores')
    .leftJoin('store_params', 'store_params.store_id', 'stores.id')
    .select(['stores.id', 'stores.tenant_id', 'store_params.params'])
    .execute();
}

/** Deletes up to `batch` tag-log rows of a store finished before `before`; answers how many. */
export async function deleteOldTagLog(
  db: Kysely<Database>,
  tenantId: number,
  storeId: number,
  before: number,
  batch: number,
): Promise<number> {
  const r = await db
    .deleteFrom('tag_log')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('tag_log')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('store_id', '=', storeId)
        .where('finished_at', '<', before)
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes up to `batch` data-push rows of a store started before `before`; answers how many. */
export async function deleteOldPushLog(
  db: Kysely<Database>,
  tenantId: number,
  storeId: number,
  before: number,
  batch: number,
): Promise<number> {
  const r = await db
    .deleteFrom('push_log')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('push_log')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('store_id', '=', storeId)
        .where('started_at', '<', before)
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** How each tag of a request ended (its tag-log rows, the latest revision per tag last). */
export function finalsOfRequest(db: Kysely<Database>, tenantId: number, requestId: number, limit: number) {
  return db
    .selectFrom('tag_log')
    .select(['tag_id', 'hardware_id', 'result', 'code'])
    .where('tenant_id', '=', tenantId)
    .where('request_id', '=', requestId)
    .orderBy('tag_id')
    .orderBy('rev')
    .limit(limit)
    .execute();
}
