import { parentPort } from 'node:worker_threads';
import { registerFonts } from '@esl/labels/node';
import { renderPreview } from './preview';
import { renderJobs } from './render';
import type { PreviewJob, PreviewOutcome, RenderJob, RenderOutcome } from './types';

/** What the pool sends a worker: one batch of tag jobs, or one preview. */
export type BatchRequest = { id: number; jobs: RenderJob[] } | { id: number; preview: PreviewJob };

/** What a worker answers: the batch's outcomes or the preview, their bytes transferred (not copied). */
export type BatchReply = { id: number; outcomes: RenderOutcome[] } | { id: number; preview: PreviewOutcome };

/**
 * The byte buffers to transfer. Each image owns its buffer (encodeTagImage allocates one per
 * image); one that does not (a view into a shared pool, or a buffer another view uses) is copied
 * first, so a transfer never takes another's bytes. `replace` puts the copy where the view was.
 */
function transferable(views: { bytes: Uint8Array; replace: (copy: Uint8Array) => void }[]): ArrayBuffer[] {
  const list: ArrayBuffer[] = [];
  const seen = new Set<ArrayBufferLike>();
  for (const view of views) {
    let { bytes } = view;
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength || seen.has(bytes.buffer)) {
      bytes = bytes.slice();
      view.replace(bytes);
    }
    seen.add(bytes.buffer);
    list.push(bytes.buffer as ArrayBuffer);
  }
  return list;
}

/** The outcomes' byte buffers to transfer (see transferable). */
export function transferList(outcomes: RenderOutcome[]): ArrayBuffer[] {
  return transferable(
    outcomes.flatMap((outcome) =>
      'bytes' in outcome ? [{ bytes: outcome.bytes, replace: (copy: Uint8Array) => (outcome.bytes = copy) }] : [],
    ),
  );
}

/** The preview's PNG buffer to transfer (see transferable). */
export function previewTransferList(outcome: PreviewOutcome): ArrayBuffer[] {
  return 'png' in outcome
    ? transferable([{ bytes: outcome.png, replace: (copy: Uint8Array) => (outcome.png = copy) }])
    : [];
}

/**
 * Serves batches and previews one at a time (the pool sends a worker its next part only after the
 * reply). Tests put stand-ins for the renderers here.
 */
export function serve(
  render: (jobs: RenderJob[]) => Promise<RenderOutcome[]> = renderJobs,
  preview: (job: PreviewJob) => Promise<PreviewOutcome> = renderPreview,
): void {
  const port = parentPort;
  if (!port) throw new Error('the render worker runs in a worker thread');
  // Once per worker: the fonts are parsed here, before the first batch.
  registerFonts();
  port.on('message', async (request: BatchRequest) => {
    if ('preview' in request) {
      const outcome = await preview(request.preview);
      const reply: BatchReply = { id: request.id, preview: outcome };
      port.postMessage(reply, previewTransferList(outcome));
      return;
    }
    const outcomes = await render(request.jobs);
    const reply: BatchReply = { id: request.id, outcomes };
    port.postMessage(reply, transferList(outcomes));
  });
  // Parts (and their time limits) start once the worker is ready.
  port.postMessage({ ready: true });
}
