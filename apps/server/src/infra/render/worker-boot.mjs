// Entry of a render worker thread. The server runs its TypeScript through tsx (`node --import
// tsx`), and a worker thread does not inherit loader hooks on Node 20, nor does vitest's
// transform reach it: so the worker registers tsx's ESM hooks itself, then loads the module the
// pool named (worker.ts, or a test's stand-in).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
