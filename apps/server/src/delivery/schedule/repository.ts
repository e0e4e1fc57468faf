import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../infra/db/schema';

/*
 * SQL of the scheduler (docs/SCHEDULE.md): scheduled changes that are due, and each tag's timed
 * label (`timed_labels`) through its states: plan → queued → sent → held, idle or failed. Every
 * move is conditional on the row's rev (and state), so two processes never both make it.
 */

type Db = Kysely<Database> | Transaction<Database>;

export function dueChanges(db: Db, now: number, limit: number) {
  return db
    .selectFrom('scheduled_changes')
    .select(['id', 'tenant_id', 'store_id', 'product_id', 'changes', 'effective_at', 'created_by', 'batch'])
    .where('status', '=', 'pending')
    .where('effective_at', '<=', now)
    .orderBy('effective_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** pending → applied for these changes; answers those that moved (not applied or cancelled first). */
export async function markAppliedMany(db: Db, ids: readonly number[], now: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('scheduled_changes')
    .set({ status: 'applied', applied_at: now, updated_at: now, planned: 0 })
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Products with changes the planner has not planned as they are (added, edited, cancelled or
 * applied since): a batch a store at a time (store, then product order), by
 * `scheduled_changes_unplanned_store` — so a batch's labels go to one or two stations in full
 * messages; in product order a chain-wide file's batch held one product of each of 100 stores, and
 * every station got its labels five at a time.
 */
export async function unplannedProducts(db: Db, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('scheduled_changes')
    .select(['store_id', 'product_id'])
    .distinct()
    .where('planned', '=', 0)
    .orderBy('store_id')
    .orderBy('product_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.product_id);
}

/**
 * The planner takes these products' unplanned changes before it reads them: an edit committed
 * after this leaves its change unplanned again, for the next pass.
 */
export async function claimPlanned(db: Db, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .updateTable('scheduled_changes')
    .set({ planned: 1 })
    .where('planned', '=', 0)
    .where('product_id', 'in', productIds)
    .execute();
}

/** The sweep: the next products (after `after`, in order) with a pending change. */
export async function pendingProductsAfter(db: Db, after: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('scheduled_changes')
    .select('product_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('product_id', '>', after)
    .orderBy('product_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.product_id);
}

/** These products' pending changes in time order (what each product will become). */
export function pendingChangesOf(db: Db, productIds: readonly number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('scheduled_changes')
    .select(['id', 'product_id', 'changes', 'effective_at', 'updated_at'])
    .where('status', '=', 'pending')
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('effective_at')
    .orderBy('id')
    .execute();
}

/** The sweep: the next timed labels that are not idle (after id `after`), with their tag's product. */
export function activeLabelsAfter(db: Db, after: number, limit: number) {
  return db
    .selectFrom('timed_labels as l')
    .innerJoin('tags as t', 't.id', 'l.tag_id')
    .select(['l.id', 'l.tag_id', 't.product_id'])
    .where('l.state', '<>', 'idle')
    .where('l.id', '>', after)
    .orderBy('l.id')
    .limit(limit)
    .execute();
}

/** The tags showing these products, with what the planner and dispatcher need. */
export function tagsOfProducts(db: Db, productIds: readonly number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags')
    .select(['id', 'tenant_id', 'store_id', 'product_id', 'render_key', 'model', 'colour'])
    .where('product_id', 'in', productIds)
    .execute();
}

/** The timed labels of these tags. */
export function labelsOfTags(db: Db, tagIds: readonly number[]) {
  return db
    .selectFrom('timed_labels')
    .selectAll()
    .where('tag_id', 'in', tagIds.length ? [...tagIds] : [0])
    .execute();
}
export type TimedRow = Awaited<ReturnType<typeof labelsOfTags>>[number];

/** A tag's new plan: its label for `showAt` as rendered (queued), or a plan that failed. */
export interface PlannedLabel {
  tag: { id: number; tenantId: number; storeId: number };
  planKey: string;
  showAt: number;
  hash: string;
  size: number;
  state: 'queued' | 'failed';
  /** The tag's render key once the change has taken effect (migration 041); null: drawn again then. */
  renderKey: string | null;
}

/**
 * New plans for tags, one statement for the batch: each tag's row is written (rev + 1), or
 * created at rev 1 — its label waits to go out (`queued`), or its plan failed (no template, a
 * render error: the tag gets its label when the change takes effect).
 */
export async function plannedMany(db: Db, labels: readonly PlannedLabel[], now: number): Promise<void> {
  if (labels.length === 0) return;
  await db
    .insertInto('timed_labels')
    .values(
      labels.map((l) => ({
        tenant_id: l.tag.tenantId,
        store_id: l.tag.storeId,
        tag_id: l.tag.id,
        rev: 1,
        state: l.state,
        plan_key: l.planKey,
        show_at: l.showAt,
        hash: l.hash,
        size: l.size,
        attempt: 0,
        due_at: 0,
        updated_at: now,
        render_key: l.renderKey,
      })),
    )
    .onConflict((oc) =>
      oc.column('tag_id').doUpdateSet((eb) => ({
        render_key: eb.ref('excluded.render_key'),
        state: eb.ref('excluded.state'),
        plan_key: eb.ref('excluded.plan_key'),
        show_at: eb.ref('excluded.show_at'),
        hash: eb.ref('excluded.hash'),
        size: eb.ref('excluded.size'),
        attempt: 0,
        due_at: 0,
        updated_at: eb.ref('excluded.updated_at'),
        rev: eb('timed_labels.rev', '+', 1),
      })),
    )
    .execute();
}

/** Nothing pending for these labels' tags any more: idle (rev + 1), one statement. */
export async function idleMany(db: Db, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('timed_labels')
    .set((eb) => ({ state: 'idle', plan_key: '', rev: eb('rev', '+', 1), updated_at: now }))
    .where('id', 'in', [...ids])
    .execute();
}

/** Queued labels due for dispatch, with their tag's hardware id and station. */
export function queuedLabels(db: Db, now: number, limit: number) {
  return (
    db
      .selectFrom('timed_labels as l')
      .innerJoin('tags as t', 't.id', 'l.tag_id')
      .innerJoin('stations as s', 's.id', 't.station_id')
      .select([
        'l.id',
        'l.rev',
        'l.tenant_id',
        'l.show_at',
        'l.hash',
        'l.size',
        'l.attempt',
        't.hardware_id',
        's.id as station_id',
        's.sn',
        's.online',
      ])
      .where('l.state', '=', 'queued')
      .where('l.due_at', '<=', now)
      // Offline stations' labels wait where they are (unless their time has come: then idle), so
      // they never fill the batch ahead of labels that can go.
      .where((eb) => eb.or([eb('s.online', '=', 1), eb('l.show_at', '<=', now + 1000)]))
      .orderBy('l.show_at')
      .limit(limit)
      .execute()
  );
}

/** Rows each at its rev: `(id, rev) IN ((…), …)`, the condition every batch move is made on. */
function atRevs(rows: ReadonlyArray<readonly [id: number, rev: number]>) {
  return ({ eb, refTuple, tuple }: ExpressionBuilder<Database, 'timed_labels'>) =>
    eb(
      refTuple('id', 'rev'),
      'in',
      rows.map(([id, rev]) => tuple(id, rev)),
    );
}

/** A row moves from one state to another at its rev (false: it changed meanwhile). */
export async function move(
  db: Db,
  row: { id: number; rev: number; from: readonly string[] },
  set: { state: string; station_id?: number | null; sent_rev?: number; attempt?: number; due_at?: number; now: number },
): Promise<boolean> {
  return (await moveMany(db, [[row.id, row.rev]], row.from, set)) === 1;
}

/**
 * Rows, each at its rev, move from one of the states `from` to another in one statement (those
 * that changed meanwhile stay as they are); only a station's own rows when `station` is given.
 * Answers how many moved.
 */
export async function moveMany(
  db: Db,
  rows: ReadonlyArray<readonly [id: number, rev: number]>,
  from: readonly string[],
  set: { state: string; station_id?: number | null; sent_rev?: number; attempt?: number; due_at?: number; now: number },
  station?: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  // Two parameters a row: at most 1,000 rows a statement, well inside both databases' limits.
  if (rows.length > 1000) {
    let n = 0;
    for (let i = 0; i < rows.length; i += 1000) n += await moveMany(db, rows.slice(i, i + 1000), from, set, station);
    return n;
  }
  const { now, ...rest } = set;
  let q = db
    .updateTable('timed_labels')
    .set({ ...rest, updated_at: now })
    .where(atRevs(rows))
    .where('state', 'in', [...from]);
  if (station !== undefined) q = q.where('station_id', '=', station);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Queued rows, each at its rev, go out to their station in one statement: `sent` at their rev,
 * one more attempt, an ack due by `dueAt`. Answers the rows that moved, as they are now (their
 * picture and time: what the station is sent).
 */
export function sendMany(
  db: Db,
  rows: ReadonlyArray<readonly [id: number, rev: number]>,
  stationId: number,
  dueAt: number,
  now: number,
) {
  if (rows.length === 0) return Promise.resolve([]);
  return db
    .updateTable('timed_labels')
    .set((eb) => ({
      state: 'sent',
      station_id: stationId,
      sent_rev: eb.ref('rev'),
      attempt: eb('attempt', '+', 1),
      due_at: dueAt,
      updated_at: now,
    }))
    .where(atRevs(rows))
    .where('state', '=', 'queued')
    .returning(['id', 'rev', 'attempt', 'show_at', 'hash', 'size'])
    .execute();
}

/** A station acknowledged these sent labels (each at its rev): held there until their time, kept as sent. */
export async function ackedMany(
  db: Db,
  rows: ReadonlyArray<readonly [id: number, rev: number]>,
  stationId: number,
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable('timed_labels')
    .set({ due_at: sql<number>`coalesce(show_at, 0) + 60000`, updated_at: now })
    .where(atRevs(rows))
    .where('station_id', '=', stationId)
    .where('state', '=', 'sent')
    .execute();
}

/** These labels as they are now (a station's answers that need a row's attempt). */
export function labelsByIds(db: Db, ids: readonly number[]) {
  return db
    .selectFrom('timed_labels')
    .selectAll()
    .where('id', 'in', ids.length ? [...ids] : [0])
    .execute();
}

/** Labels sent to a station (the hello's resync, the blob guard). */
export function sentTo(db: Db, stationId: number) {
  return db
    .selectFrom('timed_labels')
    .select(['id', 'rev', 'hash', 'state'])
    .where('station_id', '=', stationId)
    .where('state', '=', 'sent')
    .execute();
}

/** Sent labels whose ack or result is overdue: queued again. */
export async function overdue(db: Db, now: number) {
  const r = await db
    .updateTable('timed_labels')
    .set({ state: 'queued', due_at: now })
    .where('state', '=', 'sent')
    .where('due_at', '<', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
