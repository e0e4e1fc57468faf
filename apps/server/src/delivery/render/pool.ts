import { Worker } from 'node:worker_threads';
import { renderJobs } from './render';
import type { BatchReply, BatchRequest } from './thread';
import type { RenderJob, RenderOutcome, RenderPool, RenderPoolOptions } from './types';

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
 * The most jobs one worker gets at a time. A call's jobs are cut into parts of at most this many
 * (and fewer when that keeps every worker busy), so one call of 256 jobs runs on all workers, and
 * a worker that dies takes at most this many jobs' outcomes with it.
 */
export const PART_JOBS = 64;

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker.ts', import.meta.url);

interface Part {
  id: number;
  jobs: RenderJob[];
  done: (outcomes: RenderOutcome[]) => void;
}

interface Slot {
  worker: Worker;
  /** The part it renders; undefined: idle. */
  part?: Part;
}

const failed = (jobs: readonly RenderJob[], error: string): RenderOutcome[] =>
  jobs.map((job) => ({ tagId: job.tagId, error }));

export interface WorkerPoolOptions extends RenderPoolOptions {
  /** The module a worker runs (tests put a stand-in here); default worker.ts. */
  entry?: URL;
}

/**
 * `workers` threads, each rendering one part at a time; parts wait in a queue, first come first
 * served. A worker that exits or throws fails the part it held (error outcomes, the other parts
 * go on) and a new worker takes its place. Idle workers are unref'd, so a pool nobody closed never
 * keeps the process alive; `close` terminates them all.
 */
function workerPool(options: WorkerPoolOptions): RenderPool {
  const entry = (options.entry ?? ENTRY).href;
  const queue: Part[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const start = (): Slot => {
    // execArgv: [] — the boot module registers tsx itself (a second registration would only cost).
    const worker = new Worker(BOOT, { workerData: { entry }, execArgv: [] });
    const slot: Slot = { worker };
    worker.unref();
    const lost = (why: string) => {
      const index = slots.indexOf(slot);
      if (index < 0) return;
      slots.splice(index, 1);
      const { part } = slot;
      slot.part = undefined;
      worker.removeAllListeners();
      worker.on('error', () => {});
      // A thread that threw is gone already or going; make sure.
      void worker.terminate();
      part?.done(failed(part.jobs, `render worker failed: ${why}`));
      if (!closed) {
        slots.push(start());
        pump();
      }
    };
    worker.on('message', (reply: BatchReply) => {
      const { part } = slot;
      if (!part || reply.id !== part.id) return;
      slot.part = undefined;
      worker.unref();
      part.done(reply.outcomes);
      pump();
    });
    worker.on('error', (error) => lost(error instanceof Error ? error.message : String(error)));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    return slot;
  };

  const pump = () => {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.part) continue;
      const part = queue.shift() as Part;
      slot.part = part;
      slot.worker.ref();
      const request: BatchRequest = { id: part.id, jobs: part.jobs };
      slot.worker.postMessage(request);
    }
  };

  for (let i = 0; i < options.workers; i++) slots.push(start());

  return {
    workers: options.workers,
    async render(jobs) {
      if (closed) throw new Error('the render pool is closed');
      if (jobs.length === 0) return [];
      const size = Math.min(PART_JOBS, Math.ceil(jobs.length / options.workers));
      const parts: Promise<RenderOutcome[]>[] = [];
      for (let at = 0; at < jobs.length; at += size) {
        const slice = jobs.slice(at, at + size);
        parts.push(new Promise((done) => queue.push({ id: nextId++, jobs: slice, done })));
      }
      pump();
      return (await Promise.all(parts)).flat();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const part of queue.splice(0)) part.done(failed(part.jobs, 'the render pool closed'));
      const all = slots.splice(0);
      for (const slot of all) {
        slot.worker.removeAllListeners();
        slot.worker.on('error', () => {});
        slot.part?.done(failed(slot.part.jobs, 'the render pool closed'));
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}

/**
 * A render pool (DELIVERY.md §5.3): `workers` worker threads (config `renderWorkers`,
 * `RENDER_WORKERS`), or the calling thread when 0. Its output is byte for byte that of
 * `renderJobs` in the calling thread.
 */
export function createRenderPool(options: WorkerPoolOptions): RenderPool {
  if (!Number.isInteger(options.workers) || options.workers < 0) {
    throw new RangeError(`render workers must be a whole number ≥ 0 (got ${options.workers})`);
  }
  return options.workers === 0 ? inProcessPool() : workerPool(options);
}
