import { type LabelData, SAMPLE_DATA, type TemplateDocument } from '@esl/labels';
import { designSize } from '@esl/labels/model';
import { type BrandFace, brandCanvasFactory, registerFonts, renderToPng } from '@esl/labels/node';
import { isPreview, type PreviewJob, type PreviewOutcome, type RenderedPreview, type RenderPool } from './types';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'preview failed';

/**
 * Draws a template preview in this thread (a render worker, or the calling thread of a pool of 0
 * workers): the label rasteriser with the bundled fonts, quantised to the template's colour set, as
 * a palette PNG of exactly those colours. A renderer exception is an error outcome.
 */
export async function renderPreview(job: PreviewJob): Promise<PreviewOutcome> {
  registerFonts();
  try {
    const env = job.fonts?.length ? { canvas: brandCanvasFactory(job.fonts) } : {};
    const preview = await renderToPng(job.doc, job.data, env);
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

/** Draws in the calling thread (the demo's seeding, tools). */
const inThisThread: Pick<RenderPool, 'preview'> = { preview: renderPreview };

/**
 * What the tag will show, in design orientation: drawn by the label rasteriser with the bundled
 * fonts, quantised to the template's colour set, as a palette PNG of exactly those colours. The
 * app's render pool draws it (a worker thread, so large panels hold no other request).
 */
export async function drawPreview(
  previews: Pick<RenderPool, 'preview'>,
  doc: TemplateDocument,
  data: LabelData,
  fonts: BrandFace[] = [],
): Promise<RenderedPreview> {
  const outcome = await previews.preview(fonts.length ? { doc, data, fonts } : { doc, data });
  if (!isPreview(outcome)) throw new Error(`the template preview could not be drawn: ${outcome.error}`);
  return outcome;
}

/** The list thumbnail: the label with the built-in sample data. */
export async function renderThumbnail(
  doc: TemplateDocument,
  previews: Pick<RenderPool, 'preview'> = inThisThread,
  fonts: BrandFace[] = [],
): Promise<Uint8Array> {
  return (await drawPreview(previews, doc, SAMPLE_DATA, fonts)).png;
}

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}
