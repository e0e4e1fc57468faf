import {
  type ParsedBodyOf,
  PROBLEM_KINDS,
  type ProblemCounts,
  type ProblemKind,
  type ProblemsChainRow,
  type ProblemsSummary,
} from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import { cached } from '../../infra/cache/shared';
import type { Database } from '../../infra/db/schema';
import { currentStore, scopeOf, storeParams, storeRefs } from '../stores/service';
import { CHAIN_TTL_MS } from '../summary/service';
import { presentProblem } from './presenter';
import * as repo from './repository';

export { clearGone, markProductGone } from './repository';

/* Problems to act on (docs/PROBLEMS.md): the current store's list and counts, and the chain's. */

const zero = (): ProblemCounts => Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])) as ProblemCounts;

/** One store, with its thresholds (store parameters lowBatteryPercent, badSignalDbm, pendingDeadlineMinutes). */
export async function storeScope(db: Kysely<Database>, tenantId: number, storeId: number): Promise<repo.ProblemScope> {
  const p = await storeParams(db, tenantId, storeId);
  return {
    tenantId,
    storeIds: [storeId],
    limits: {
      lowBatteryPercent: p.lowBatteryPercent,
      badSignalDbm: p.badSignalDbm,
      pendingDeadlineMs: p.pendingDeadlineMinutes * 60_000,
    },
  };
}

export async function list(ctx: CallContext, f: ParsedBodyOf<'problemsList'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const scope = await storeScope(db, at.tenantId, at.storeId);
  const { rows, count } = await repo.listProblems(db, scope, ctx.now, f);
  const starts = await startedAt(ctx, at);
  return { rows: rows.map((r) => presentProblem(r, starts.get(`${r.kind}|${r.subject}:${r.id}`))), count };
}

/**
 * The problem kinds each tag of the store has now (the store wall's marks), in the list's order;
 * tags without problems are not in the map.
 */
export async function tagProblemKinds(
  ctx: CallContext,
  at: { tenantId: number; storeId: number },
): Promise<Map<number, string[]>> {
  const { db } = ctx.services;
  const rows = await repo
    .problemsNow(db, await storeScope(db, at.tenantId, at.storeId), ctx.now)
    .where('subject', '=', 'tag')
    .orderBy('rank')
    .execute();
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const kinds = out.get(Number(r.id)) ?? [];
    if (!kinds.includes(r.kind)) kinds.push(r.kind);
    out.set(Number(r.id), kinds);
  }
  return out;
}

/** When the sweep saw each problem of the store start (for the kinds whose data has no time). */
export async function startedAt(ctx: CallContext, at: { tenantId: number; storeId: number }) {
  const rows = await repo.startsOf(ctx.services.db, at.tenantId, at.storeId);
  return new Map(rows.map((r) => [`${r.kind}|${r.subject}`, Number(r.started_at)]));
}

export async function summary(ctx: CallContext): Promise<ProblemsSummary> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const rows = await repo.countProblems(db, await storeScope(db, at.tenantId, at.storeId), ctx.now);
  const counts = zero();
  for (const r of rows) counts[r.kind] += Number(r.n);
  return { storeId: at.storeId, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

/**
 * Per store the caller may see (an administrator: every store of the tenant), most problems first:
 * as the last sweep found them (at most a minute old), where the store's own list is live.
 */
/** The prefix of a tenant's cached chain counts; the sweep drops them when it records a change. */
export const chainKey = (tenantId: number) => `problems.chain:${tenantId}:`;

export async function chain(ctx: CallContext): Promise<{ rows: ProblemsChainRow[]; count: number }> {
  const caller = requireTenant(ctx);
  const { db } = ctx.services;
  const storeScope = scopeOf(caller);
  const stores = await storeRefs(db, storeScope);
  if (stores.length === 0) return { rows: [], count: 0 };
  const scope = { storeIds: storeScope.userId === null ? null : stores.map((s) => s.id) };
  const byStore = new Map<number, ProblemCounts>(stores.map((s) => [s.id, zero()]));
  // Kept CHAIN_TTL_MS as the dashboard's chain counts (dropped at once by this process's sweep when
  // it records a start or an end; another process's sweep: within the TTL): grouping the sweep's rows of a 1,000,000-tag
  // chain (335,000 problems) is ~200 ms of PostgreSQL a call (bench/chain.bench.ts, p99 384 ms).
  const recorded = await cached(
    db,
    `${chainKey(caller.tenantId)}${scope.storeIds?.join(',') ?? '*'}`,
    caller.tenantId,
    CHAIN_TTL_MS,
    () => repo.countRecorded(db, { tenantId: caller.tenantId, storeIds: scope.storeIds }),
  );
  for (const r of recorded) {
    const c = byStore.get(Number(r.store_id));
    // A kind this version no longer has (a row left by another release) is not counted.
    if (c && (PROBLEM_KINDS as readonly string[]).includes(r.kind)) c[r.kind as ProblemKind] += Number(r.n);
  }
  const rows = stores
    .map((s) => {
      const counts = byStore.get(s.id) ?? zero();
      return { storeId: s.id, name: s.name, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
    })
    .sort((a, b) => b.total - a.total || a.storeId - b.storeId);
  return { rows, count: rows.length };
}
