import type { Notice } from '../../platform/notice';

/** Where a tag operation stands: from `request.progress` notices or /mgr/request/get. */
export interface Progress {
  id: number;
  total: number;
  done: number;
  failed: number;
  status: string;
}

/** The progress a `request.progress` notice carries for request `id`; undefined: not about it. */
export function progressOfNotice(notice: Notice, id: number): Progress | undefined {
  if (notice.type !== 'request.progress' || notice.id !== id) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    id,
    total: n(notice.total),
    done: n(notice.done),
    failed: n(notice.failed),
    status: typeof notice.status === 'string' ? notice.status : 'running',
  };
}

/** Counters only grow, so of two reports (a notice and a poll may cross) the later one counts more. */
export function latest(a: Progress, b: Progress | undefined): Progress {
  if (!b) return a;
  if (isFinished(a) && !isFinished(b)) return a;
  if (isFinished(b) && !isFinished(a)) return b;
  return b.done + b.failed >= a.done + a.failed ? b : a;
}

export function isFinished(p: Progress): boolean {
  return p.status === 'done' || p.done + p.failed >= p.total;
}

/** Percent of the tasks settled, done or failed (100 for a request with nothing to do). */
export function percent(p: Progress): number {
  if (p.total <= 0) return 100;
  return Math.min(100, Math.floor(((p.done + p.failed) * 100) / p.total));
}
