import { designSize, type LabelData, SAMPLE_DATA, type TemplateDocument } from '@esl/labels';
import { registerFonts, renderToPng } from '@esl/labels/node';

export interface RenderedPreview {
  png: Uint8Array;
  width: number;
  height: number;
  problems: { element: string; message: string }[];
}

/**
 * What the tag will show, in design orientation: drawn by the label rasteriser with the bundled
 * fonts, quantised to the template's colour set, as a palette PNG of exactly those colours.
 */
export async function renderPreview(doc: TemplateDocument, data: LabelData): Promise<RenderedPreview> {
  registerFonts();
  const preview = await renderToPng(doc, data);
  const { w, h } = designSize(doc);
  return {
    png: preview.png,
    width: w,
    height: h,
    problems: preview.problems.map((p) => ({ element: p.elementId, message: p.message })),
  };
}

/** The list thumbnail: the label with the built-in sample data. */
export async function renderThumbnail(doc: TemplateDocument): Promise<Uint8Array> {
  return (await renderPreview(doc, SAMPLE_DATA)).png;
}

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
}
