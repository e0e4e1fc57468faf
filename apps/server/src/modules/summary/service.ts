import { type ParsedBodyOf, type ShopRef, TAG_CHANGE_CALLS, TAG_CHANGE_KINDS } from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { storeNotSet } from '../../api/errors';
import { cached } from '../../infra/cache/shared';
import type { Database } from '../../infra/db/schema';
import { currentStore, scopeOf, storeRefs } from '../stores/service';
import type { ShopFigures } from './presenter';
import * as repo from './repository';

/** The stores the caller may see (as the store picker lists them) and the count scope they make. */
async function visibleScope(ctx: CallContext): Promise<{ stores: ShopRef[]; scope: repo.CountScope | null }> {
  const caller = requireTenant(ctx);
  const storeScope = scopeOf(caller);
  const refs = await storeRefs(ctx.services.db, storeScope);
  const stores = refs.map((s) => ({ id: s.id, name: s.name }));
  if (storeScope.userId === null) return { stores, scope: { tenantId: caller.tenantId, storeIds: null } };
  // No assigned store: nothing to count (and `in ()` is not SQL).
  if (stores.length === 0) return { stores, scope: null };
  return { stores, scope: { tenantId: caller.tenantId, storeIds: stores.map((s) => s.id) } };
}

/**
 * Counts over every store the caller sees, kept CHAIN_TTL_MS (and ended by any change of the
 * tenant, as every shared-cache entry): at 100 stores × 10,000 tags each is an index scan of a
 * million entries, 0.2–0.8 s of PostgreSQL a call, for figures the dashboard shows rounded.
 */
export const CHAIN_TTL_MS = 10_000;

const scopeKey = (scope: repo.CountScope) => `${scope.tenantId}:${scope.storeIds?.join(',') ?? '*'}`;

function chainTags(db: Kysely<Database>, scope: repo.CountScope) {
  return cached(db, `summary.tagsByStore:${scopeKey(scope)}`, scope.tenantId, CHAIN_TTL_MS, () =>
    repo.tagsByStore(db, scope),
  );
}

function chainCount(db: Kysely<Database>, table: 'stations' | 'products', scope: repo.CountScope) {
  return cached(db, `summary.count.${table}:${scopeKey(scope)}`, scope.tenantId, CHAIN_TTL_MS, () =>
    repo.countInScope(db, table, scope),
  );
}

export async function shopFigures(ctx: CallContext): Promise<ShopFigures> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const { stores, scope } = await visibleScope(ctx);
  const store = stores.find((s) => s.id === at.storeId);
  if (!store || !scope) throw storeNotSet();
  const dayAgo = ctx.now - repo.DAY_MS;
  const [stations, tags, products, templates, visibleStations, visibleTags, visibleProducts, tasks, results, p50] =
    await Promise.all([
      repo.stationsByOnline(db, at),
      repo.tagsByStatus(db, at),
      repo.countProducts(db, at),
      repo.countTemplates(db, at.tenantId),
      chainCount(db, 'stations', scope),
      chainTags(db, scope).then((rows) => rows.reduce((n, r) => n + Number(r.n), 0)),
      chainCount(db, 'products', scope),
      repo.tasksByState(db, at),
      repo.tagLogByResult(db, at, dayAgo),
      repo.medianLatencyMs(db, at, dayAgo),
    ]);
  return {
    store,
    stations,
    tags,
    products,
    templates,
    visible: { stores: stores.length, stations: visibleStations, tags: visibleTags, products: visibleProducts },
    delivery: { tasks, results, p50LatencyMs: p50 },
  };
}

export async function tagsByModel(ctx: CallContext) {
  const at = await currentStore(ctx);
  return repo.tagsByModel(ctx.services.db, at);
}

/** Tags per visible store; needs no current store. */
export async function tagsByStore(ctx: CallContext) {
  const { stores, scope } = await visibleScope(ctx);
  const rows = scope ? await chainTags(ctx.services.db, scope) : [];
  return { stores, rows };
}

/** The days a change statistic covers: `from` is the start of the first day, in Unix ms. */
export interface DayWindow {
  from: number;
  days: number;
  /** YYYY-MM-DD of each day, oldest first; the last is today. */
  dates: string[];
}

/** The last `days` days up to and including today, where a day starts at midnight `utcOffset` minutes east of UTC. */
export function dayWindow(now: number, days: number, utcOffset: number): DayWindow {
  const shift = utcOffset * 60_000;
  // Midnights in "shifted" time, where the local date reads as a UTC date.
  const today = Math.floor((now + shift) / repo.DAY_MS) * repo.DAY_MS;
  const first = today - (days - 1) * repo.DAY_MS;
  const dates = Array.from({ length: days }, (_, i) => new Date(first + i * repo.DAY_MS).toISOString().slice(0, 10));
  return { from: first - shift, days, dates };
}

const COUNTED_CALLS = TAG_CHANGE_KINDS.flatMap((kind) => [...TAG_CHANGE_CALLS[kind]]);

export async function changes(ctx: CallContext, body: ParsedBodyOf<'tagChangeStat'>) {
  const at = await currentStore(ctx);
  const window = dayWindow(ctx.now, body.days, body.utcOffset);
  const [rows, deliveries] = await Promise.all([
    repo.changesPerDay(ctx.services.db, at, COUNTED_CALLS, window),
    repo.deliveriesPerDay(ctx.services.db, at, window),
  ]);
  return { dates: window.dates, rows, deliveries };
}
