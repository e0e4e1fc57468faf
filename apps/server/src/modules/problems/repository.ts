import { PROBLEM_KINDS, type ProblemKind } from '@esl/contract';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Database, TaskState } from '../../infra/db/schema';

/*
 * SQL of the problems to act on (docs/PROBLEMS.md): one query per kind over the rows the platform
 * already keeps (stations, tags, their label task slots), all answering the same columns so they
 * are read as one UNION ALL; and the table of the problems the sweep last found.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Which rows: one store of a tenant, some stores of a tenant, or (the sweep) every tenant. */
export interface ProblemScope {
  tenantId: number | null;
  storeIds: readonly number[] | null;
  /** The store's thresholds (store parameters, `storeScope` in service.ts). */
  limits: ProblemLimits;
}

/** When a battery is low, a signal bad, a pending label overdue (store parameters, docs/PROBLEMS.md). */
export interface ProblemLimits {
  lowBatteryPercent: number;
  badSignalDbm: number;
  pendingDeadlineMs: number;
}

const lit = (v: string) => sql.lit(v);
const bigint = (e: RawBuilder<unknown> | ReturnType<typeof sql.ref>) => sql<number | null>`cast(${e} as bigint)`;
const text = (e: RawBuilder<unknown> | ReturnType<typeof sql.ref>) => sql<string>`cast(${e} as text)`;
const noTime = sql<number | null>`cast(null as bigint)`;
const rankOf = (k: ProblemKind) => sql.lit(PROBLEM_KINDS.indexOf(k));

/** Tag statuses of a tag heard lately (the others are offline, lost, disconnected or never heard). */
const HEARD = ['normal', 'online', 'interrupted'];
const OPEN_TASK: TaskState[] = ['render', 'queued', 'sent', 'accepted'];

function scoped<Q extends { where: (...a: never[]) => Q }>(q: Q, alias: string, scope: ProblemScope): Q {
  let out = q as unknown as {
    where: (ref: string, op: string, v: unknown) => typeof out;
  };
  if (scope.tenantId !== null) out = out.where(`${alias}.tenant_id`, '=', scope.tenantId);
  if (scope.storeIds !== null) out = out.where(`${alias}.store_id`, 'in', scope.storeIds);
  return out as unknown as Q;
}

function stationKinds(db: Db, scope: ProblemScope) {
  const base = (kind: ProblemKind) =>
    scoped(db.selectFrom('stations as s'), 's', scope).select([
      's.tenant_id',
      's.store_id',
      lit(kind).as('kind'),
      rankOf(kind).as('rank'),
      lit('station').as('subject'),
      's.id',
      's.sn as code',
      's.name',
      lit('').as('barcode'),
      lit('').as('detail'),
      lit('').as('other_store'),
    ]);
  // Offline: the station's online flag (the base-station list's); since its last heartbeat.
  const offline = base('stationOffline')
    .select(bigint(sql.ref('s.last_heartbeat')).as('since'))
    .where('s.online', '=', 0);
  // Radio silent: online, and its last heartbeat raised the radioSilent alarm.
  const silent = base('stationRadioSilent')
    .select(noTime.as('since'))
    .where('s.online', '=', 1)
    .where(sql<boolean>`(',' || s.alarms || ',') like '%,radioSilent,%'`);
  return [offline, silent] as const;
}

/** The columns every tag kind answers first (the tag as `t`, its product as `p`). */
function tagColumns(kind: ProblemKind) {
  return [
    't.tenant_id',
    't.store_id',
    lit(kind).as('kind'),
    rankOf(kind).as('rank'),
    lit('tag').as('subject'),
    't.id',
    't.hardware_id as code',
    sql<string>`coalesce(p.name, '')`.as('name'),
    sql<string>`coalesce(p.barcode, '')`.as('barcode'),
  ] as const;
}

function tagBase(db: Db, scope: ProblemScope, kind: ProblemKind) {
  return scoped(db.selectFrom('tags as t').leftJoin('products as p', 'p.id', 't.product_id'), 't', scope).select(
    tagColumns(kind),
  );
}

/** What a tag's label task slot being due means: queued, or held until later (quiet hours, backoff). */
const dueAt = sql<number>`(case when d.not_before > coalesce(d.queued_at, d.created_at) then d.not_before
  else coalesce(d.queued_at, d.created_at) end)`;

function tagKinds(db: Db, scope: ProblemScope, now: number) {
  const { limits } = scope;
  // Update failed: the tag's label task (its image slot) ended failed; since it failed.
  const failed = tagBase(db, scope, 'updateFailed')
    .innerJoin('device_tasks as d', (j) => j.onRef('d.tag_id', '=', 't.id').on('d.kind', '=', 'image'))
    .where('d.state', '=', 'failed')
    .select([
      sql<string>`coalesce(d.code, '')`.as('detail'),
      lit('').as('other_store'),
      bigint(sql.ref('d.finished_at')).as('since'),
    ]);
  // Pending past its deadline: a label still on its way the store's deadline after it was due.
  // From the open tasks to their tags (CROSS JOIN: SQLite keeps that order): the other way round
  // walked every tag of the store for its task, 0.43 s a sweep at 2,000,000 tags in a store, where
  // open tasks are few or none.
  const overdue = scoped(
    db.selectFrom('device_tasks as d').crossJoin('tags as t').leftJoin('products as p', 'p.id', 't.product_id'),
    't',
    scope,
  )
    .select(tagColumns('pendingOverdue'))
    .whereRef('d.tag_id', '=', 't.id')
    .where('d.kind', '=', 'image')
    .where('d.state', 'in', OPEN_TASK)
    .where(sql<boolean>`${dueAt} <= ${now - limits.pendingDeadlineMs}`)
    .select([text(sql.ref('d.state')).as('detail'), lit('').as('other_store'), bigint(dueAt).as('since')]);
  // Label offline: not heard for the store's offline time (status offline, or lost after its hours).
  const offline = tagBase(db, scope, 'labelOffline')
    .where('t.status', 'in', ['offline', 'lost'])
    .select([
      text(sql.ref('t.status')).as('detail'),
      lit('').as('other_store'),
      bigint(sql.ref('t.last_seen')).as('since'),
    ]);
  return [failed, overdue, offline] as const;
}

/**
 * The tags of the scope that are misused, low on battery or badly heard, read in ONE pass over the
 * scope's tags (`PROBLEM_TAGS`, a materialised common table expression of problemsNow): these
 * three kinds look at every tag (nothing indexes a battery or a signal), and as three arms of the
 * union each walked the store — at 2,000,000 tags in a store 1.5 s of the sweep's 1.9 s a minute
 * (docs/performance-log.md, "The gateway under 50 % of a core"). Each kind's arm then reads the few rows found.
 */
const PROBLEM_TAGS = 'problem_tags';

/** The kinds problemTagKinds reads from PROBLEM_TAGS. */
const FROM_PROBLEM_TAGS: readonly ProblemKind[] = ['misused', 'lowBattery', 'badSignal'];

/** The columns of PROBLEM_TAGS. */
interface ProblemTagRow {
  tenant_id: number;
  store_id: number;
  id: number;
  code: string;
  name: string;
  barcode: string;
  status: string;
  battery: number | null;
  signal: number | null;
  last_seen: number | null;
  foreign_station_id: number | null;
  foreign_seen_at: number | null;
  product_id: number | null;
  product_gone_at: number | null;
  /** Why misused (wrongStore, productGone, otherStoreProduct), or null. */
  reason: string | null;
}

function problemTags(db: Db, scope: ProblemScope) {
  const { limits } = scope;
  // Misused: heard in another store since last heard at home; product deleted under it; product of another store.
  // A product of another store. For one store (every caller but none): the product is not among
  // the store's, a hashed look at the store's products through their index; the join's
  // `p.store_id` made PostgreSQL hash every product of every store (100 ms a call at 200,000).
  const [only] = scope.storeIds?.length === 1 ? scope.storeIds : [];
  const otherStore =
    only === undefined
      ? sql<boolean>`p.store_id <> t.store_id`
      : sql<boolean>`t.product_id is not null and t.product_id not in
          (select sp.id from products sp where sp.tenant_id = ${scope.tenantId ?? 0} and sp.store_id = ${only})`;
  const reason = sql<string | null>`(case
    when t.foreign_seen_at > coalesce(t.last_seen, 0) then 'wrongStore'
    when t.product_id is null and t.product_gone_at is not null then 'productGone'
    when ${otherStore} then 'otherStoreProduct' end)`;
  return scoped(db.selectFrom('tags as t').leftJoin('products as p', 'p.id', 't.product_id'), 't', scope)
    .select([
      't.tenant_id',
      't.store_id',
      't.id',
      't.hardware_id as code',
      sql<string>`coalesce(p.name, '')`.as('name'),
      sql<string>`coalesce(p.barcode, '')`.as('barcode'),
      't.status',
      't.battery',
      't.signal',
      't.last_seen',
      't.foreign_station_id',
      't.foreign_seen_at',
      't.product_id',
      't.product_gone_at',
      reason.as('reason'),
    ])
    .where((eb) =>
      eb.or([
        eb(reason, 'is not', null),
        eb.and([eb('t.battery', 'is not', null), eb('t.battery', '<=', limits.lowBatteryPercent)]),
        eb.and([
          eb('t.signal', 'is not', null),
          eb('t.signal', '<=', limits.badSignalDbm),
          eb('t.status', 'in', HEARD),
        ]),
      ]),
    );
}

/** The kinds read from PROBLEM_TAGS. */
function problemTagKinds(db: Db, scope: ProblemScope) {
  const { limits } = scope;
  // The table expression's name is not in Database: its rows typed as ProblemTagRow.
  const pt = db as unknown as Kysely<{
    problem_tags: ProblemTagRow;
    stations: Database['stations'];
    stores: Database['stores'];
  }>;
  const base = (kind: ProblemKind) =>
    pt
      .selectFrom(`${PROBLEM_TAGS} as t`)
      .select([
        't.tenant_id',
        't.store_id',
        lit(kind).as('kind'),
        rankOf(kind).as('rank'),
        lit('tag').as('subject'),
        't.id',
        't.code',
        't.name',
        't.barcode',
      ]);
  const misused = base('misused')
    .leftJoin('stations as fs', 'fs.id', 't.foreign_station_id')
    .leftJoin('stores as fst', 'fst.id', 'fs.store_id')
    .where('t.reason', 'is not', null)
    .select([
      sql<string>`cast(t.reason as text)`.as('detail'),
      sql<string>`(case when t.foreign_seen_at > coalesce(t.last_seen, 0) then coalesce(fst.name, '') else '' end)`.as(
        'other_store',
      ),
      sql<number | null>`cast(case when t.foreign_seen_at > coalesce(t.last_seen, 0) then t.foreign_seen_at
        when t.product_id is null then t.product_gone_at end as bigint)`.as('since'),
    ]);
  // Low battery: the battery it last reported, at or below the store's threshold.
  const battery = base('lowBattery')
    .where('t.battery', 'is not', null)
    .where('t.battery', '<=', limits.lowBatteryPercent)
    .select([
      text(sql.ref('t.battery')).as('detail'),
      lit('').as('other_store'),
      bigint(sql.ref('t.last_seen')).as('since'),
    ]);
  // Bad signal: heard lately, at or below the store's threshold by the station it is routed to.
  const signal = base('badSignal')
    .where('t.signal', 'is not', null)
    .where('t.signal', '<=', limits.badSignalDbm)
    .where('t.status', 'in', HEARD)
    .select([
      text(sql.ref('t.signal')).as('detail'),
      lit('').as('other_store'),
      bigint(sql.ref('t.last_seen')).as('since'),
    ]);
  return [misused, battery, signal] as const;
}

/** One problem as every kind's query answers it. */
export interface ProblemRow {
  tenant_id: number;
  store_id: number;
  kind: ProblemKind;
  rank: number;
  subject: 'tag' | 'station';
  id: number;
  code: string;
  name: string;
  barcode: string;
  detail: string;
  other_store: string;
  since: number | string | null;
}

// Every kind's query answers the columns of ProblemRow; typed as one so they union.
type KindQuery = SelectQueryBuilder<Database, 'tags', ProblemRow>;

/**
 * Every problem of the scope now, as one query (UNION ALL of the kinds), optionally of one kind.
 * The kinds that look at every tag read the scope's tags once, through PROBLEM_TAGS.
 */
export function problemsNow(db: Db, scope: ProblemScope, now: number, kind?: ProblemKind) {
  const [stationOffline, stationRadioSilent] = stationKinds(db, scope);
  const [updateFailed, pendingOverdue, labelOffline] = tagKinds(db, scope, now);
  const [misused, lowBattery, badSignal] = problemTagKinds(db, scope);
  const all: Record<ProblemKind, unknown> = {
    stationOffline,
    stationRadioSilent,
    updateFailed,
    pendingOverdue,
    labelOffline,
    misused,
    lowBattery,
    badSignal,
  };
  const kinds = kind ? [kind] : PROBLEM_KINDS;
  const chosen = kinds.map((k) => all[k] as KindQuery);
  const [first, ...rest] = chosen;
  if (!first) throw new Error('no problem kind');
  let q = first;
  for (const r of rest) q = q.unionAll(r);
  if (!kinds.some((k) => FROM_PROBLEM_TAGS.includes(k))) return db.selectFrom(q.as('x')).selectAll();
  return db
    .with(
      (cte) => cte(PROBLEM_TAGS).materialized(),
      () => problemTags(db, scope),
    )
    .selectFrom(q.as('x'))
    .selectAll();
}

/** A page of the scope's problems: by kind, oldest first, then by tag ID or serial. */
export async function listProblems(
  db: Db,
  scope: ProblemScope,
  now: number,
  f: { kind?: ProblemKind; page: number; limit: number },
) {
  const q = problemsNow(db, scope, now, f.kind);
  const { n } = await db
    .selectFrom(q.as('c'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('rank')
    .orderBy(sql`coalesce(since, 0)`)
    .orderBy('code')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, count: Number(n) };
}

/** Every problem of the scope, in the list's order (the export; a store's problems). */
export function allProblems(db: Db, scope: ProblemScope, now: number, kind?: ProblemKind) {
  return problemsNow(db, scope, now, kind).orderBy('rank').orderBy(sql`coalesce(since, 0)`).orderBy('code').execute();
}

/** Per store and kind, how many. */
export function countProblems(db: Db, scope: ProblemScope, now: number) {
  return db
    .selectFrom(problemsNow(db, scope, now).as('c'))
    .select((eb) => ['c.store_id', 'c.kind', eb.fn.countAll<number>().as('n')])
    .groupBy(['c.store_id', 'c.kind'])
    .execute();
}

// ---------------------------------------------------------------------------------------------
// What the sweep last found

/** The problems the last sweep recorded for one store. */
export function recordedOf(db: Db, tenantId: number, storeId: number) {
  return db
    .selectFrom('problems')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .execute();
}

/**
 * Records problems that started, as one statement; a row another process recorded first is left
 * as it is. Answers `kind|subject` of the rows this call wrote.
 */
export async function recordStarts(
  db: Db,
  rows: readonly { tenantId: number; storeId: number; kind: string; subject: string; detail: string; now: number }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const written = await db
    .insertInto('problems')
    .values(
      rows.map((p) => ({
        tenant_id: p.tenantId,
        store_id: p.storeId,
        kind: p.kind,
        subject: p.subject,
        detail: p.detail,
        started_at: p.now,
      })),
    )
    .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'subject']).doNothing())
    .returning(['kind', 'subject'])
    .execute();
  return new Set(written.map((r) => `${r.kind}|${r.subject}`));
}

/**
 * Removes problems that ended, each only as recorded when it started (another process may have
 * ended it and a new one started since). Answers `kind|subject` of the rows this call removed.
 */
export async function recordEnds(
  db: Db,
  tenantId: number,
  rows: readonly { kind: string; subject: string; startedAt: number }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const removed = await db
    .deleteFrom('problems')
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or(
        rows.map((r) =>
          eb.and([eb('kind', '=', r.kind), eb('subject', '=', r.subject), eb('started_at', '=', r.startedAt)]),
        ),
      ),
    )
    .returning(['kind', 'subject'])
    .execute();
  return new Set(removed.map((r) => `${r.kind}|${r.subject}`));
}

/**
 * Per store and kind, how many problems the last sweep recorded (the chain's counts: at 1,000,000
 * tags counting them live is seconds of database work; the sweep runs each minute).
 */
export function countRecorded(db: Db, scope: { tenantId: number; storeIds: readonly number[] | null }) {
  let q = db
    .selectFrom('problems')
    .select((eb) => ['store_id', 'kind', eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', scope.tenantId);
  if (scope.storeIds !== null) q = q.where('store_id', 'in', scope.storeIds);
  return q.groupBy(['store_id', 'kind']).execute();
}

/** When each recorded problem of a store started (the list's "since" where the data has none). */
export function startsOf(db: Db, tenantId: number, storeId: number) {
  return db
    .selectFrom('problems')
    .select(['kind', 'subject', 'started_at'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The marks the misused kind reads

/** Tags whose product is being deleted: misused until bound again (docs/PROBLEMS.md). */
export async function markProductGone(db: Db, tenantId: number, tagIds: readonly number[], now: number) {
  if (tagIds.length === 0) return;
  await db
    .updateTable('tags')
    .set({ product_gone_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', tagIds)
    .execute();
}

/**
 * A bound tag no longer carries the mark of a product deleted before (the sweep; any binding path).
 * The marked tags are found by their own partial index (migration 039), not by reading every tag.
 */
export async function clearRebound(db: Db): Promise<void> {
  await clearReboundQuery(db).execute();
}

/** clearRebound's statement (problems.test.ts reads its plan). */
export function clearReboundQuery(db: Db) {
  return (
    db
      .updateTable('tags')
      .set({ product_gone_at: null })
      .where('product_gone_at', 'is not', null)
      // `+`: not a term the product index can serve. SQLite without statistics took that index for
      // `product_id is not null` and read every bound tag (in a working store, every tag).
      .where(sql`+product_id`, 'is not', null)
  );
}

/** Tags unbound on purpose: no longer misused for a product deleted before. */
export async function clearGone(db: Db, tenantId: number, tagIds: readonly number[]) {
  if (tagIds.length === 0) return;
  await db
    .updateTable('tags')
    .set({ product_gone_at: null })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', tagIds)
    .where('product_gone_at', 'is not', null)
    .execute();
}

/** Every store of every tenant from `from` on, in id order (the sweep's steps). */
export function storesFrom(db: Db, from: number) {
  return db.selectFrom('stores').select(['id', 'tenant_id']).where('id', '>=', from).orderBy('id').execute();
}
