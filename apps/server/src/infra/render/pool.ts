import { Worker } from 'node:worker_threads';
import { renderPreview } from './preview';
import { renderJobs } from './render';
import type { BatchReply, BatchRequest } from './thread';
import type { PreviewJob, PreviewOutcome, RenderJob, RenderOutcome, RenderPool, RenderPoolOptions } from './types';

/** Renders in the calling thread: `RENDER_WORKERS=0`, tests and tools. */
function inProcessPool(): RenderPool {
  let closed = false;
  return {
    workers: 0,
    async render(jobs) {
      if (closed) throw new Error('the render pool is closed');
      return renderJobs(jobs);
    },
    async preview(job) {
      if (closed) throw new Error('the render pool is closed');
      return renderPreview(job);
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

// From the sources (tsx): worker-boot.mjs registers tsx, then loads worker.ts. From the built server
// (scripts/build-server.mjs, apps/server/dist): its own worker-boot.mjs loads render-worker.js.
const BUILT = !import.meta.url.endsWith('.ts');
const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL(BUILT ? './render-worker.js' : './worker.ts', import.meta.url);

/** Tag jobs for one worker. */
interface TagPart {
  id: number;
  jobs: RenderJob[];
  done: (outcomes: RenderOutcome[]) => void;
  /** A job of a part that failed with its worker, tried again alone. */
  alone?: true;
}

/** One template preview for one worker. */
interface PreviewPart {
  id: number;
  preview: PreviewJob;
  done: (outcome: PreviewOutcome) => void;
}

type Part = TagPart | PreviewPart;

const isPreviewPart = (part: Part): part is PreviewPart => 'preview' in part;

interface Slot {
  worker: Worker;
  /** The part it renders; undefined: idle. */
  part?: Part;
  /** True once it has said so (tsx registered, fonts loaded): only then it gets parts. */
  ready: boolean;
  /** Ends a worker stuck on its part. */
  timer?: NodeJS.Timeout;
  /** Takes the worker out: fails its part, starts another. */
  lost?: (why: string) => void;
}

const failed = (jobs: readonly RenderJob[], error: string): RenderOutcome[] =>
  jobs.map((job) => ({ tagId: job.tagId, error }));

/** Ends a part with an error outcome for each of its jobs (or for its preview). */
const fail = (part: Part, error: string) => {
  if (isPreviewPart(part)) part.done({ error });
  else part.done(failed(part.jobs, error));
};

export interface WorkerPoolOptions extends RenderPoolOptions {
  /** The module a worker runs (tests put a stand-in here); default worker.ts. */
  entry?: URL;
  /**
   * A worker that has not answered its part after this long is ended and replaced, the part's
   * jobs failed (a label that sends the renderer into a loop must not hold a worker for ever).
   * Default PART_TIMEOUT_MS.
   */
  partTimeoutMs?: number;
}

/**
 * The most worker threads of the pool that draws template previews and thumbnails (the app's own,
 * beside delivery's): previews are occasional, and the preview gate admits two large ones at once.
 */
export const PREVIEW_WORKERS = 2;

/** 64 labels of the largest panels take well under a second each; a minute means stuck. */
export const PART_TIMEOUT_MS = 60_000;

/**
 * `workers` threads, each rendering one part at a time once it has started (tsx, fonts); parts
 * wait in a queue, first come first served. A worker that exits, throws or overruns its part's
 * time is replaced, and its part's jobs are tried again one by one (retryAlone), so only the job
 * at fault gets an error outcome; the other parts go on meanwhile.
 * Workers that die before they are ready (a broken install) are restarted with a growing pause,
 * and after three such deaths in a row the waiting parts fail rather than wait for ever. Idle
 * workers are unref'd, so a pool nobody closed never keeps the process alive; `close` ends them.
 */
function workerPool(options: WorkerPoolOptions): RenderPool {
  const entry = (options.entry ?? ENTRY).href;
  const queue: Part[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  /** Workers in a row that died before they were ready. */
  let bootFailures = 0;
  const timeoutMs = options.partTimeoutMs ?? PART_TIMEOUT_MS;

  const start = (): Slot => {
    // execArgv: [] — the boot module registers tsx itself (a second registration would only cost).
    const worker = new Worker(BOOT, { workerData: { entry }, execArgv: [] });
    const slot: Slot = { worker, ready: false };
    slot.lost = (why: string) => {
      const index = slots.indexOf(slot);
      if (index < 0) return;
      slots.splice(index, 1);
      const { part } = slot;
      slot.part = undefined;
      clearTimeout(slot.timer);
      worker.removeAllListeners();
      worker.on('error', () => {});
      // A thread that threw is gone already or going; make sure.
      void worker.terminate();
      if (part) retryAlone(part, `render worker failed: ${why}`);
      if (closed) return;
      if (slot.ready) {
        slots.push(start());
        pump();
        return;
      }
      bootFailures++;
      if (bootFailures >= 3) {
        for (const waiting of queue.splice(0)) fail(waiting, `render worker cannot start: ${why}`);
      }
      const pause = setTimeout(
        () => {
          if (closed) return;
          slots.push(start());
          pump();
        },
        Math.min(30_000, 250 * 2 ** bootFailures),
      );
      // Jobs still waiting keep the process alive for the next try; none, and it may end.
      if (queue.length === 0) pause.unref();
    };
    worker.on('message', (message: BatchReply | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        bootFailures = 0;
        pump();
        return;
      }
      const { part } = slot;
      if (!part || message.id !== part.id) return;
      slot.part = undefined;
      clearTimeout(slot.timer);
      if (isPreviewPart(part)) part.done('preview' in message ? message.preview : { error: 'no preview answered' });
      else part.done('outcomes' in message ? message.outcomes : failed(part.jobs, 'no outcomes answered'));
      pump();
    });
    worker.on('error', (error) => slot.lost?.(error instanceof Error ? error.message : String(error)));
    worker.on('exit', (code) => slot.lost?.(`exited with code ${code}`));
    // After the listeners: adding a 'message' listener refs the worker's port again (Node 20), and
    // an idle worker must not keep the process alive.
    worker.unref();
    return slot;
  };

  /**
   * A part whose worker died (or overran) is not all bad: one label may have crashed or stalled
   * the renderer. Each of its jobs is tried again alone, ahead of the queue, so only the label at
   * fault ends with an error outcome; a job that fails alone is not tried again. A preview is one
   * job already: it fails.
   */
  const retryAlone = (part: Part, error: string) => {
    if (isPreviewPart(part) || part.alone || part.jobs.length === 1 || closed) {
      fail(part, error);
      return;
    }
    const singles = part.jobs.map(
      (job) =>
        new Promise<RenderOutcome[]>((done) => {
          queue.unshift({ id: nextId++, jobs: [job], done, alone: true });
        }),
    );
    void Promise.all(singles).then((outcomes) => part.done(outcomes.flat()));
  };

  const pump = () => {
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.part) continue;
      const part = queue.shift() as Part;
      slot.part = part;
      slot.timer = setTimeout(() => slot.lost?.(`no answer after ${timeoutMs} ms`), timeoutMs);
      slot.timer.unref();
      const request: BatchRequest = isPreviewPart(part)
        ? { id: part.id, preview: part.preview }
        : { id: part.id, jobs: part.jobs };
      slot.worker.postMessage(request);
    }
    // A worker keeps the process alive while it renders or jobs wait (it may still be starting);
    // an idle pool does not.
    for (const slot of slots) {
      if (slot.part || queue.length > 0) slot.worker.ref();
      else slot.worker.unref();
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
    async preview(job) {
      if (closed) throw new Error('the render pool is closed');
      // Ahead of the waiting tag parts, behind earlier previews and retried jobs: a person waits for it.
      const outcome = new Promise<PreviewOutcome>((done) => {
        const at = queue.findIndex((part) => !isPreviewPart(part) && !part.alone);
        const part: PreviewPart = { id: nextId++, preview: job, done };
        if (at < 0) queue.push(part);
        else queue.splice(at, 0, part);
      });
      pump();
      return outcome;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const part of queue.splice(0)) fail(part, 'the render pool closed');
      const all = slots.splice(0);
      for (const slot of all) {
        slot.worker.removeAllListeners();
        slot.worker.on('error', () => {});
        clearTimeout(slot.timer);
        if (slot.part) fail(slot.part, 'the render pool closed');
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}

/**
 * A render pool (DELIVERY.md §5.3): `workers` worker threads (config `renderWorkers`,
 * `RENDER_WORKERS`), or the calling thread when 0. Its output is byte for byte that of
 * `renderJobs` (tags) and `renderPreview` (template previews) in the calling thread.
 */
export function createRenderPool(options: WorkerPoolOptions): RenderPool {
  if (!Number.isInteger(options.workers) || options.workers < 0) {
    throw new RangeError(`render workers must be a whole number ≥ 0 (got ${options.workers})`);
  }
  return options.workers === 0 ? inProcessPool() : workerPool(options);
}
