import { parentPort } from 'node:worker_threads';
import { registerFonts } from '@esl/labels/node';
import { renderJobs } from './render';
import type { RenderJob, RenderOutcome } from './types';

/** What the pool sends a worker: one batch. */
export interface BatchRequest {
  id: number;
  jobs: RenderJob[];
}

/** What a worker answers: the batch's outcomes, their bytes transferred (not copied). */
export interface BatchReply {
  id: number;
  outcomes: RenderOutcome[];
}

/**
 * The outcomes' byte buffers to transfer. Each image owns its buffer (encodeTagImage allocates
 * one per image); one that does not is copied first, so a transfer never takes another's bytes.
 */
export function transferList(outcomes: RenderOutcome[]): ArrayBuffer[] {
  const list: ArrayBuffer[] = [];
  const seen = new Set<ArrayBufferLike>();
  for (const outcome of outcomes) {
    if (!('bytes' in outcome)) continue;
    let { bytes } = outcome;
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength || seen.has(bytes.buffer)) {
      bytes = bytes.slice();
      outcome.bytes = bytes;
    }
    seen.add(bytes.buffer);
    list.push(bytes.buffer as ArrayBuffer);
  }
  return list;
}

/** Serves batches one at a time (the pool sends a worker its next batch only after the reply). */
export function serve(render: (jobs: RenderJob[]) => Promise<RenderOutcome[]> = renderJobs): void {
  const port = parentPort;
  if (!port) throw new Error('the render worker runs in a worker thread');
  // Once per worker: the fonts are parsed here, before the first batch.
  registerFonts();
  port.on('message', async ({ id, jobs }: BatchRequest) => {
    const outcomes = await render(jobs);
    const reply: BatchReply = { id, outcomes };
    port.postMessage(reply, transferList(outcomes));
  });
  // Parts (and their time limits) start once the worker is ready.
  port.postMessage({ ready: true });
}
