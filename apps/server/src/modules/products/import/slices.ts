import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one slice of import work may hold the event loop before other requests get a turn. */
export const SLICE_MS = 8;

/**
 * Cuts long work into slices: `pause()` costs nothing until the slice's time is used up, then
 * waits one event-loop turn (I/O of other requests runs in between). Every unit of work between
 * two calls is bounded (a chunk of a part, a few thousand rows), so no slice runs much longer.
 */
export class Slicer {
  private started = performance.now();
  /** Event-loop turns given away so far (for tests and the bench). */
  turns = 0;

  constructor(private readonly budgetMs = SLICE_MS) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < this.budgetMs) return;
    await nextTurn();
    this.turns++;
    this.started = performance.now();
  }
}
