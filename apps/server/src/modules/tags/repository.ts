import type { Insertable, Kysely, SelectQueryBuilder } from 'kysely';
import { cached } from '../../infra/cache/shared';
import { contains, containsPattern, offsetOf, runCached } from '../../infra/db/query';
import type { Database, TagTable } from '../../infra/db/schema';
import type { CurrentStore } from '../stores/service';

type Db = Kysely<Database>;

export interface TagFilter {
  page: number;
  limit: number;
  status?: string;
  model?: string;
  bound?: boolean;
  /** Only tags whose label (image) task slot ended failed: their last update did not reach them. */
  failed?: boolean;
  /** Only tags not heard since this time (Unix ms), or never: a roll call's absentees. */
  notSeenSince?: number;
  text?: string;
  /** Exactly this hardware ID (upper case, as stored). */
  hardwareId?: string;
  sort: 'id' | 'hardwareId' | 'model' | 'status' | 'signal' | 'battery' | 'lastSeen';
  order: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  id: 't.id',
  hardwareId: 't.hardware_id',
  model: 't.model',
  status: 't.status',
  signal: 't.signal',
  battery: 't.battery',
  lastSeen: 't.last_seen',
} as const;

type TagQuery = SelectQueryBuilder<Database & { t: TagTable }, 't', object>;

function filtered(db: Db, at: CurrentStore, f: Omit<TagFilter, 'page' | 'limit' | 'sort' | 'order'>) {
  let q = db
    .selectFrom('tags as t')
    .where('t.tenant_id', '=', at.tenantId)
    .where('t.store_id', '=', at.storeId) as TagQuery;
  if (f.status) q = q.where('t.status', '=', f.status);
  if (f.model) q = q.where('t.model', '=', f.model);
  if (f.hardwareId) q = q.where('t.hardware_id', '=', f.hardwareId);
  if (f.bound !== undefined) q = q.where('t.product_id', f.bound ? 'is not' : 'is', null);
  if (f.failed !== undefined) {
    const failed = f.failed;
    // One image slot per tag (device_tasks_tag index); a newer revision replaces a failed one.
    q = q.where((eb) => {
      const lastFailed = eb
        .selectFrom('device_tasks as dt')
        .select('dt.id')
        .whereRef('dt.tag_id', '=', 't.id')
        .where('dt.kind', '=', 'image')
        .where('dt.state', '=', 'failed');
      return failed ? eb.exists(lastFailed) : eb.not(eb.exists(lastFailed));
    });
  }
  if (f.notSeenSince !== undefined) {
    // The absentees of a roll call started then: never heard, or not since.
    const since = f.notSeenSince;
    q = q.where((eb) => eb.or([eb('t.last_seen', 'is', null), eb('t.last_seen', '<', since)]));
  }
  if (f.text) {
    const text = f.text;
    // The product's name and barcode through a correlated sub-select: the count needs no join,
    // and the page stops scanning once it has its rows. Bound to the store's products: inside the
    // OR, PostgreSQL runs it as one hashed sub-plan, which otherwise reads every product of every
    // store (0.5 s a call at 100 stores × 2,000 products, bench/chain.bench.ts; 16 ms bound).
    q = q.where((eb) =>
      eb.or([
        contains('t.hardware_id', text),
        eb.exists(
          eb
            .selectFrom('products as fp')
            .select('fp.id')
            .whereRef('fp.id', '=', 't.product_id')
            .where('fp.tenant_id', '=', at.tenantId)
            .where('fp.store_id', '=', at.storeId)
            .where((pb) => pb.or([contains('fp.name', text), contains('fp.barcode', text)])),
        ),
      ]),
    );
  }
  return q;
}

/** Tag rows with their product and last station, as the list shows them. */
function withDetails(q: TagQuery) {
  return (
    q
      .leftJoin('products as p', 'p.id', 't.product_id')
      .leftJoin('stations as s', 's.id', 't.station_id')
      // Only what the presenter shows: materialising columns is most of a page's cost on SQLite.
      .select([
        't.id',
        't.hardware_id',
        't.model',
        't.colour',
        't.status',
        't.signal',
        't.battery',
        't.temperature',
        't.hardware_model',
        't.last_seen',
        't.product_id',
        't.created_at',
        't.shown_ver',
        't.shown_page',
        't.desired_hash',
        't.aisle',
        't.bay',
        't.shelf',
        't.position',
      ])
      .select(['p.barcode as product_barcode', 'p.name as product_name', 'p.price_cents as product_price_cents'])
      .select('s.sn as station_sn')
  );
}

export type TagDetailRow = Awaited<ReturnType<ReturnType<typeof withDetails>['execute']>>[number];

/** Sort columns that may hold nulls: those sort last whatever the order. */
const NULLABLE = new Set(['signal', 'battery', 'lastSeen']);

export async function listTags(db: Db, at: CurrentStore, f: TagFilter) {
  const build = () => {
    const column = SORT_COLUMNS[f.sort];
    const ordered = <Q extends SelectQueryBuilder<Database & { t: TagTable }, 't', object>>(q: Q): Q => {
      let o = (
        NULLABLE.has(f.sort)
          ? q.orderBy(column, (ob) => (f.order === 'asc' ? ob.asc() : ob.desc()).nullsLast())
          : q.orderBy(column, f.order)
      ) as Q;
      if (f.sort !== 'id') o = o.orderBy('t.id', f.order) as Q;
      return o;
    };
    // The page's ids first, from the tags alone, then their product and station: joining before
    // the sort and offset made PostgreSQL look up the product of every tag up to the page's end
    // (page 200 by battery of a 10,000-tag store: 163 ms; the ids alone 21 ms; bench/chain.bench.ts).
    const ids = ordered(filtered(db, at, f).select('t.id'))
      .limit(f.limit)
      .offset(offsetOf(f));
    return ordered(withDetails(db.selectFrom('tags as t').where('t.id', 'in', ids) as TagQuery));
  };
  // The SQL text depends only on which filters are set and the order; the values are its parameters.
  const key = `tags.list|${f.status ? 's' : ''}${f.model ? 'm' : ''}${f.hardwareId ? 'h' : ''}b${f.bound ?? ''}f${f.failed ?? ''}${f.notSeenSince === undefined ? '' : 'n'}${f.text ? 't' : ''}|${f.sort}|${f.order}`;
  // In the SQL's order: the hardware ID, the store of the product sub-select, its name and barcode.
  const text = f.text
    ? [containsPattern(f.text), at.tenantId, at.storeId, containsPattern(f.text), containsPattern(f.text)]
    : [];
  const failed = f.failed === undefined ? [] : ['image', 'failed'];
  const args = [
    at.tenantId,
    at.storeId,
    f.status,
    f.model,
    f.hardwareId,
    ...failed,
    f.notSeenSince,
    ...text,
    f.limit,
    offsetOf(f),
  ].filter((a) => a !== undefined);
  const [rows, count] = await Promise.all([runCached(db, key, args, build), countTags(db, at, f)]);
  return { rows, count };
}

/**
 * Totals of the tag list, reused for COUNT_TTL_MS: counting tens of thousands of index entries
 * costs far more than reading a page of 20, and a console pages through the same filter. Through
 * the shared cache (cache/shared.ts), so every change call of the tenant (tags, bindings,
 * products: a product's name or barcode is a tag filter) ends them at once, in every process.
 * The rows themselves are always read fresh.
 */
export const COUNT_TTL_MS = 2000;

async function countTags(db: Db, at: CurrentStore, f: TagFilter): Promise<number> {
  // Keys are built from validated filter values only.
  const key = `tags.count:${JSON.stringify([at.tenantId, at.storeId, f.status, f.model, f.bound, f.failed, f.text, f.hardwareId, f.notSeenSince])}`;
  return cached(db, key, at.tenantId, COUNT_TTL_MS, async () => {
    const total = await filtered(db, at, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(total.n);
  });
}

export function findTagsByIds(db: Db, at: CurrentStore, ids: readonly number[]) {
  return withDetails(filtered(db, at, {}).where('t.id', 'in', ids))
    .orderBy('t.id')
    .execute();
}

export function findTagByHardwareId(db: Db, tenantId: number, hardwareId: string) {
  return db
    .selectFrom('tags')
    .select(['id', 'store_id'])
    .where('tenant_id', '=', tenantId)
    .where('hardware_id', '=', hardwareId)
    .executeTakeFirst();
}

/** Tag ids of the store by hardware ID (those it has). */
export async function idsByHardwareIds(db: Db, at: CurrentStore, hardwareIds: readonly string[]) {
  const rows = await filtered(db, at, {})
    .select(['t.id', 't.hardware_id'])
    .where('t.hardware_id', 'in', hardwareIds)
    .execute();
  return new Map(rows.map((r) => [r.hardware_id, r.id]));
}

/** Which of the hardware IDs the tenant has already (in any store). */
/** The IDs any tenant holds already: a tag belongs to one tenant of the platform. */
export async function takenHardwareIds(db: Db, ids: readonly string[]): Promise<string[]> {
  const taken: string[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('tags')
      .select('hardware_id')
      .where('hardware_id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) taken.push(r.hardware_id);
  }
  return taken;
}

export async function insertTags(db: Db, rows: Insertable<TagTable>[]): Promise<number[]> {
  const ids: number[] = [];
  // 16 columns a row: 500 rows stay under both databases' bound-parameter limits.
  for (let i = 0; i < rows.length; i += 500) {
    const out = await db
      .insertInto('tags')
      .values(rows.slice(i, i + 500))
      .returning('id')
      .execute();
    for (const r of out) ids.push(r.id);
  }
  return ids;
}

/** The ids among `ids` that are tags of the store. */
export async function tagIdsIn(db: Db, at: CurrentStore, ids: readonly number[]): Promise<Set<number>> {
  const rows = await filtered(db, at, {}).select('t.id').where('t.id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function deleteTags(db: Db, at: CurrentStore, ids: readonly number[]): Promise<number> {
  const result = await db
    .deleteFrom('tags')
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids)
    .execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function setProduct(db: Db, at: CurrentStore, ids: readonly number[], productId: number | null) {
  let q = db
    .updateTable('tags')
    .set({ product_id: productId })
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', 'in', ids);
  // Unbinding counts only the tags that showed a product.
  if (productId === null) q = q.where('product_id', 'is not', null);
  const result = await q.execute();
  return Number(result[0]?.numUpdatedRows ?? 0);
}

/** Hardware IDs of the first few of `ids` (for the operation log's target), in id order. */
export async function hardwareIdsOf(db: Db, at: CurrentStore, ids: readonly number[], max: number) {
  const rows = await filtered(db, at, {})
    .select('t.hardware_id')
    .where('t.id', 'in', ids)
    .orderBy('t.id')
    .limit(max)
    .execute();
  return rows.map((r) => r.hardware_id);
}

/**
 * What /mgr/tag/screen needs of a tag of the store: its hardware ID and the stored bytes of the
 * screen asked for (null: none stored). Undefined: no such tag in the store. Reads tag_images
 * (delivery/render writes it): `desired` by `tags.desired_hash`; `shown` by the version the tag
 * last reported (`tags.shown_ver`, the first 16 hex digits of the hash), a range on the key.
 */
export async function screenBytes(
  db: Db,
  at: CurrentStore,
  id: number,
  which: 'shown' | 'desired',
): Promise<{ hardwareId: string; bytes: Uint8Array | null } | undefined> {
  const tag = await db
    .selectFrom('tags')
    .select(['hardware_id', 'desired_hash', 'shown_ver'])
    .where('tenant_id', '=', at.tenantId)
    .where('store_id', '=', at.storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!tag) return undefined;
  const none = { hardwareId: tag.hardware_id, bytes: null };
  let q = db.selectFrom('tag_images').select('bytes').where('tenant_id', '=', at.tenantId);
  if (which === 'desired') {
    if (!tag.desired_hash) return none;
    q = q.where('hash', '=', tag.desired_hash);
  } else {
    const ver = tag.shown_ver;
    if (!ver || !/^[0-9a-f]{16}$/.test(ver)) return none;
    q = q.where('hash', '>=', ver).where('hash', '<', `${ver}g`).orderBy('hash').limit(1);
  }
  const row = await q.executeTakeFirst();
  return { hardwareId: tag.hardware_id, bytes: row ? new Uint8Array(row.bytes) : null };
}

/**
 * /mgr/tag/delivery (delivery.ts): reads the delivery engine's task slots of a tag and its wake
 * figures, writing nothing.
 */
export async function readTagDelivery(db: Db, at: CurrentStore, id: number) {
  const tag = await db
    .selectFrom('tags')
    .leftJoin('stations', 'stations.id', 'tags.station_id')
    .select(['tags.id', 'tags.wake_s', 'tags.next_wake_at', 'stations.sn as station_sn'])
    .where('tags.tenant_id', '=', at.tenantId)
    .where('tags.store_id', '=', at.storeId)
    .where('tags.id', '=', id)
    .executeTakeFirst();
  if (!tag) return undefined;
  const tasks = await db
    .selectFrom('device_tasks')
    .leftJoin('stations', 'stations.id', 'device_tasks.station_id')
    .select([
      'device_tasks.kind',
      'device_tasks.state',
      'device_tasks.rev',
      'device_tasks.attempt',
      'device_tasks.code',
      'device_tasks.request_id',
      'device_tasks.not_before',
      'device_tasks.queued_at',
      'device_tasks.created_at',
      'device_tasks.sent_at',
      'device_tasks.finished_at',
      'stations.sn as station_sn',
    ])
    .where('device_tasks.tenant_id', '=', at.tenantId)
    .where('device_tasks.tag_id', '=', id)
    .orderBy('device_tasks.id')
    .execute();
  return { tag, tasks };
}

/** A tag's place (docs/SHELF.md); all null: not placed. */
export interface Place {
  aisle: string | null;
  bay: string | null;
  shelf: string | null;
  position: number | null;
}

/** Sets the place of tags of the store, one row each; how many were found. */
export async function setPlaces(db: Db, at: CurrentStore, rows: ReadonlyArray<{ id: number } & Place>) {
  let n = 0;
  for (const r of rows) {
    const result = await db
      .updateTable('tags')
      .set({ aisle: r.aisle, bay: r.bay, shelf: r.shelf, position: r.position })
      .where('tenant_id', '=', at.tenantId)
      .where('store_id', '=', at.storeId)
      .where('id', '=', r.id)
      .execute();
    n += Number(result[0]?.numUpdatedRows ?? 0);
  }
  return n;
}

/**
 * The wall's tags: those of the store with an aisle, of one aisle or all, in wall order (the
 * tags_shelf index), at most `max` (+1 to tell a truncated wall).
 */
export function wallTags(db: Db, at: CurrentStore, aisle: string | undefined, max: number) {
  let q = filtered(db, at, {}).where('t.aisle', 'is not', null);
  if (aisle !== undefined) q = q.where('t.aisle', '=', aisle);
  return q
    .leftJoin('products as p', 'p.id', 't.product_id')
    .select([
      't.id',
      't.hardware_id',
      't.status',
      't.aisle',
      't.bay',
      't.shelf',
      't.position',
      't.shown_ver',
      't.desired_hash',
      'p.name as product_name',
      'p.barcode as product_barcode',
    ])
    .orderBy('t.aisle')
    .orderBy('t.bay')
    .orderBy('t.shelf')
    .orderBy('t.position', (ob) => ob.asc().nullsLast())
    .orderBy('t.hardware_id')
    .limit(max + 1)
    .execute();
}

export type WallRow = Awaited<ReturnType<typeof wallTags>>[number];

/** The store's aisles (sorted) and how many of its tags have none. */
export async function aislesOf(db: Db, at: CurrentStore) {
  const rows = await filtered(db, at, {})
    .select('t.aisle')
    .where('t.aisle', 'is not', null)
    .groupBy('t.aisle')
    .orderBy('t.aisle')
    .execute();
  const { n } = await filtered(db, at, {})
    .where('t.aisle', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { aisles: rows.map((r) => r.aisle as string), unplaced: Number(n) };
}
