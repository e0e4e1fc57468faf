import { designSize } from '@esl/labels/model';
import { registerFonts, renderToPng } from '@esl/labels/node';
import type { PreviewJob, PreviewOutcome } from './types';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'preview failed';

/**
 * Draws a template preview in this thread (a render worker, or the calling thread of a pool of 0
 * workers): the label rasteriser with the bundled fonts, quantised to the template's colour set, as
 * a palette PNG of exactly those colours. A renderer exception is an error outcome.
 */
export async function renderPreview(job: PreviewJob): Promise<PreviewOutcome> {
  registerFonts();
  try {
    const preview = await renderToPng(job.doc, job.data);
    const { w, h } = designSize(job.doc);
    return {
      png: preview.png,
      width: w,
      height: h,
      problems: preview.problems.map((p) => ({ element: p.elementId, message: p.message })),
    };
  } catch (error) {
    return { error: message(error) };
  }
}
