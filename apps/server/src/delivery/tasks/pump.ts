import { dispatch } from './dispatch';
import { type Claimed, claimBatch, FIRST_BATCH, storeBatch } from './render-stage';
import { flushNotices } from './settle';
import type { EngineState } from './state';

/*
 * The pump (docs/DELIVERY-ENGINE.md): render and dispatch until neither finds work. A kick while
 * it runs asks for one more round; the render of the next batch overlaps the writing and the
 * dispatch of the current one.
 */

/** Schedules a pump (render + dispatch). */
export function kick(state: EngineState) {
  if (state.closed) return;
  if (state.pumping) {
    state.again = true;
    return;
  }
  state.pumping = (async () => {
    // The next batch, claimed and rendering while the current one is written and dispatched.
    let next: Claimed | null = null;
    try {
      do {
        state.again = false;
        let worked = true;
        while (worked && !state.closed) {
          // A burst starts with a small batch, written and dispatched before anything else so
          // its jobs leave at once; after it, each batch is written while the next one renders.
          const starting: boolean = next === null;
          const current: Claimed | null = next ?? (await claimBatch(state, Math.min(FIRST_BATCH, state.batch)));
          next = current && !starting && !state.closed ? await claimBatch(state, state.batch) : null;
          if (current) await storeBatch(state, current);
          const dispatched = await dispatch(state);
          flushNotices(state);
          if (current && starting && !state.closed) next = await claimBatch(state, state.batch);
          worked = current !== null || dispatched;
        }
      } while (state.again && !state.closed);
    } catch (err) {
      state.fail(err, 'task pump');
    } finally {
      // A batch claimed ahead is written still (else its slots wait for their lease to end).
      if (next) await storeBatch(state, next).catch((err) => state.fail(err, 'task pump'));
      state.pumping = null;
    }
  })();
}
