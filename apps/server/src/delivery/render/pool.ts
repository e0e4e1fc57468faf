import { renderJobs } from './render';
import type { RenderOutcome, RenderPool, RenderPoolOptions } from './types';

/** Renders in the calling thread: `RENDER_WORKERS=0`, tests and tools. */
function inProcessPool(): RenderPool {
  let closed = false;
  return {
    workers: 0,
    async render(jobs) {
      if (closed) throw new Error('the render pool is closed');
      return renderJobs(jobs);
    },
    async close() {
      closed = true;
    },
  };
}

/**
 * A render pool (DELIVERY.md §5.3): `workers` threads, or the calling thread when 0.
 */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  if (options.workers <= 0) return inProcessPool();
  throw new Error('worker threads: not yet');
}

export type { RenderOutcome };
