import { transact } from '../../infra/db/retry';
import { closeIdlePushes } from '../../infra/logs';
import { watchProblems } from '../../modules/problems/watch';
import { watchPrices } from '../../modules/proof/service';
import { kick } from './pump';
import * as repo from './repository';
import { closeRollCall, flushNotices, retryOrFail } from './settle';
import type { EngineState } from './state';
import * as sweepsRepo from './sweeps/repository';

/*
 * Deadlines and the reconciler (docs/DELIVERY-ENGINE.md): a job not acked in time is sent again,
 * one without a result in time is tried again or fails; the reconciler opens again the image
 * slots whose tag shows another picture than it should; the image store is collected hourly; the
 * price watch tells the tenants' callbacks about tags wrong for too long (docs/PROOF.md); the problems
 * sweep tells callbacks and consoles which problems started and ended (docs/PROBLEMS.md).
 */

/** Overdue acks → queued again; overdue results → retry or `failed timeout` (roll calls close). */
export async function sweep(state: EngineState) {
  const t = state.now();
  for (const s of await sweepsRepo.overdueAcks(state.db, t)) {
    if (await repo.requeue(state.db, { id: s.id, rev: s.rev, from: ['sent'], notBefore: t })) state.counters.resent++;
  }
  const late = await repo.slotsByIds(
    state.db,
    (await sweepsRepo.overdueResults(state.db, t)).map((s) => s.id),
  );
  if (late.length) {
    await transact(state.db, async (trx) => {
      for (const slot of late) {
        if (slot.state !== 'accepted') continue;
        if (slot.kind === 'rollcall') {
          if (
            await repo.finish(trx, {
              id: slot.id,
              rev: slot.rev,
              from: ['accepted'],
              state: 'failed',
              code: 'timeout',
              now: t,
            })
          ) {
            if (slot.request_id !== null) await closeRollCall(state, trx, slot.request_id);
          }
          continue;
        }
        await retryOrFail(state, trx, slot, 'timeout', false, t, null);
      }
    });
  }
}

/** Runs the reconciler (for these tags, or all): answers how many slots it opened again. */
export async function reconcile(state: EngineState, tagIds?: readonly number[]): Promise<number> {
  const reopened = await sweepsRepo.reopenStale(state.db, state.now(), tagIds);
  state.counters.reopened += reopened.length;
  if (reopened.length) kick(state);
  return reopened.length;
}

/** One tick: deadlines, the reconciler, the image collection and the price watch when due, and a pump. */
export async function tick(state: EngineState) {
  if (state.closed) return;
  const { o, db, now } = state;
  await sweep(state);
  if (now() - state.lastReconcile >= (o.reconcileMs ?? 60_000)) {
    state.lastReconcile = now();
    await reconcile(state);
    // A push whose labels went away unrendered (tags deleted) has nothing left to finish it.
    await closeIdlePushes(db, now());
  }
  if (o.render.collect && now() - state.lastCollect >= (o.collectMs ?? 3_600_000)) {
    state.lastCollect = now();
    try {
      state.counters.imagesCollected += await o.render.collect(db, now());
    } catch (err) {
      state.fail(err, 'image collection');
    }
  }
  if (now() - state.lastPriceWatch >= (o.priceWatchMs ?? 15_000)) {
    state.lastPriceWatch = now();
    try {
      state.counters.pricesWrong += await watchPrices(db, now());
    } catch (err) {
      state.fail(err, 'price watch');
    }
  }
  // A sweep goes through the stores in steps of a bounded time, one per tick, until done; the
  // next sweep starts problemWatchMs after the last one began.
  if (state.problemSweepFrom !== null || now() - state.lastProblemWatch >= (o.problemWatchMs ?? 60_000)) {
    if (state.problemSweepFrom === null) state.lastProblemWatch = now();
    try {
      const step = await watchProblems(db, o.notices, now(), { from: state.problemSweepFrom ?? 0 });
      state.problemSweepFrom = step.next;
      state.counters.problemsStarted += step.started;
      state.counters.problemsEnded += step.ended;
    } catch (err) {
      state.problemSweepFrom = null;
      state.fail(err, 'problems sweep');
    }
  }
  flushNotices(state);
  kick(state);
}
