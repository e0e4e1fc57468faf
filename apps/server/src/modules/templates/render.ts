import { type LabelData, SAMPLE_DATA, type TemplateDocument } from '@esl/labels';
import type { Services } from '../../api/context';
import { isPreview, type RenderedPreview, renderPreview } from '../../infra/render';

export type { RenderedPreview };

/** Draws in the calling thread (the demo's seeding, tools). */
const inThisThread: Services['previews'] = { preview: renderPreview };

/**
 * What the tag will show, in design orientation: drawn by the label rasteriser with the bundled
 * fonts, quantised to the template's colour set, as a palette PNG of exactly those colours. The
 * app's render pool draws it (a worker thread, so large panels hold no other request).
 */
export async function drawPreview(
  previews: Services['previews'],
  doc: TemplateDocument,
  data: LabelData,
): Promise<RenderedPreview> {
  const outcome = await previews.preview({ doc, data });
  if (!isPreview(outcome)) throw new Error(`the template preview could not be drawn: ${outcome.error}`);
  return outcome;
}

/** The list thumbnail: the label with the built-in sample data. */
export async function renderThumbnail(
  doc: TemplateDocument,
  previews: Services['previews'] = inThisThread,
): Promise<Uint8Array> {
  return (await drawPreview(previews, doc, SAMPLE_DATA)).png;
}

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}
