import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { cacheOf } from '../../infra/cache/shared';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import { enqueueEvents, type ProblemEventData } from '../../outbox/results/repository';
import * as repo from './repository';
import { chainKey, storeScope } from './service';

/*
 * The problems sweep (docs/PROBLEMS.md), run by the delivery engine's timer: what is wrong now
 * against what the last sweep found (`problems`). Each problem that started gets its row and a
 * `problem.started` event, each that ended loses its row and gets a `problem.ended` event, in one
 * transaction per batch; the row's insert and delete are conditional, so with several server
 * processes each start and end is told once. The consoles of the tenant hear a
 * `problems.changed` notice per store that changed.
 */

const BATCH = 500;

/** How long one sweep step may take before it leaves the rest of the stores to the next tick. */
export const SWEEP_BUDGET_MS = 200;

interface Stored {
  code: string;
  name: string;
  detail: string;
}

function storedOf(json: string): Stored {
  try {
    const v = JSON.parse(json) as Partial<Stored>;
    return { code: String(v.code ?? ''), name: String(v.name ?? ''), detail: String(v.detail ?? '') };
  } catch {
    return { code: '', name: '', detail: json };
  }
}

export interface SweepStep {
  started: number;
  ended: number;
  /** The store to go on from at the next tick, or null: every store was looked at. */
  next: number | null;
}

/**
 * One step of the sweep: store by store in id order from `from` (every tenant's), until every
 * store was looked at or `budgetMs` has passed (at 1,000,000 tags the whole sweep is seconds of
 * database work: done in steps, each tick gives the rest of the server its turn). Each store's
 * problems now are compared with the rows the last sweep left for that store.
 */
export async function watchProblems(
  db: Kysely<Database>,
  notices: Notices | null,
  now: number,
  opts: { from?: number; budgetMs?: number; clock?: () => number } = {},
): Promise<SweepStep> {
  const clock = opts.clock ?? (() => performance.now());
  const began = clock();
  const from = opts.from ?? 0;
  if (from === 0) await repo.clearRebound(db);
  const stores = await repo.storesFrom(db, from);
  let started = 0;
  let ended = 0;
  for (let i = 0; i < stores.length; i++) {
    const store = stores[i];
    if (!store) break;
    const done = await watchStore(db, notices, now, Number(store.tenant_id), Number(store.id));
    started += done.started;
    ended += done.ended;
    const next = stores[i + 1];
    if (next && clock() - began >= (opts.budgetMs ?? SWEEP_BUDGET_MS)) return { started, ended, next: Number(next.id) };
  }
  return { started, ended, next: null };
}

/** One store: its problems now against those recorded; starts and ends written in batches. */
async function watchStore(
  db: Kysely<Database>,
  notices: Notices | null,
  now: number,
  tenantId: number,
  storeId: number,
): Promise<{ started: number; ended: number }> {
  const current = await repo.problemsNow(db, await storeScope(db, tenantId, storeId), now).execute();
  const before = await repo.recordedOf(db, tenantId, storeId);
  const key = (kind: string, subject: string) => `${kind}|${subject}`;
  const known = new Set(before.map((r) => key(r.kind, r.subject)));
  const nowKeys = new Set<string>();
  const starts: repo.ProblemRow[] = [];
  for (const r of current) {
    const k = key(r.kind, `${r.subject}:${r.id}`);
    nowKeys.add(k);
    if (!known.has(k)) starts.push(r);
  }
  const ends = before.filter((r) => !nowKeys.has(key(r.kind, r.subject)));
  let started = 0;
  let ended = 0;
  for (let i = 0; i < starts.length; i += BATCH) {
    const batch = starts.slice(i, i + BATCH);
    started += await transact(db, async (trx) => {
      // Conditional: a problem another process recorded first is not told twice.
      const recorded = await repo.recordStarts(
        trx,
        batch.map((r) => ({
          tenantId,
          storeId,
          kind: r.kind,
          subject: `${r.subject}:${r.id}`,
          detail: JSON.stringify({ code: r.code, name: r.name, detail: r.detail }),
          now,
        })),
      );
      const events = batch
        .filter((r) => recorded.has(key(r.kind, `${r.subject}:${r.id}`)))
        .map((r) => {
          const data: ProblemEventData = {
            storeId,
            kind: r.kind,
            subject: r.subject,
            id: Number(r.id),
            code: r.code,
            name: r.name,
            detail: r.detail,
            startedAt: now,
            endedAt: null,
          };
          return { storeId, type: 'problem.started' as const, orderKey: `${r.subject}:${r.id}`, data };
        });
      await enqueueEvents(trx, tenantId, events, now);
      return events.length;
    });
  }
  for (let i = 0; i < ends.length; i += BATCH) {
    const batch = ends.slice(i, i + BATCH);
    ended += await transact(db, async (trx) => {
      const removed = await repo.recordEnds(
        trx,
        tenantId,
        batch.map((r) => ({ kind: r.kind, subject: r.subject, startedAt: Number(r.started_at) })),
      );
      const events = batch
        .filter((r) => removed.has(key(r.kind, r.subject)))
        .map((r) => {
          const [subject, id] = r.subject.split(':');
          const data: ProblemEventData = {
            storeId,
            kind: r.kind,
            subject: subject === 'station' ? 'station' : 'tag',
            id: Number(id),
            ...storedOf(r.detail),
            startedAt: Number(r.started_at),
            endedAt: now,
          };
          return { storeId, type: 'problem.ended' as const, orderKey: r.subject, data };
        });
      await enqueueEvents(trx, tenantId, events, now);
      return events.length;
    });
  }
  if (started || ended) {
    cacheOf(db)?.deletePrefix(chainKey(tenantId));
    notices?.broadcast(tenantId, { type: 'problems.changed', storeId, started, ended });
  }
  return { started, ended };
}
