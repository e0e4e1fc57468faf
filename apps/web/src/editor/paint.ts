import { findTagModel } from '@esl/contract';
import {
  type CanvasFactory,
  defaultPadding,
  encodeTagImage,
  type IndexImage,
  indexToRgba,
  type LabelData,
  type LabelImage,
  type RenderProblem,
  rasterise,
  rotateIndex,
  type TemplateDocument,
} from '@esl/labels';

/** A label drawn and quantised in the browser: exactly the pixels the tag will show. */
export interface LabelRender {
  readonly image: IndexImage;
  readonly rgba: Uint8ClampedArray<ArrayBuffer>;
  readonly problems: readonly RenderProblem[];
}

/** Draws a template with data through @esl/labels and quantises it to the template's colour set. */
export function renderLabel(
  doc: TemplateDocument,
  data: LabelData,
  canvas: CanvasFactory,
  images: ReadonlyMap<string, LabelImage>,
): LabelRender {
  const { image, problems } = rasterise(doc, data, { canvas, images });
  return { image, rgba: new Uint8ClampedArray(indexToRgba(image)), problems };
}

/** Shows a render on a canvas at one canvas pixel per label pixel (CSS scales it up, pixelated). */
export function paintRender(target: HTMLCanvasElement, render: LabelRender): void {
  const { width, height } = render.image;
  if (target.width !== width) target.width = width;
  if (target.height !== height) target.height = height;
  const ctx = target.getContext('2d');
  if (!ctx) return;
  ctx.putImageData(new ImageData(render.rgba, width, height), 0, 0);
}

/** What the tag receives for this render: bytes after packing and compression, against the raw planes. */
export function tagBytes(doc: TemplateDocument, render: LabelRender): { bytes: number; packed: number; hash: string } {
  const model = doc.size.model ? findTagModel(doc.size.model) : undefined;
  const panel = rotateIndex(render.image, doc.rotation);
  const fits = model !== undefined && model.w === panel.width && model.h === panel.height;
  const padding = fits ? { wext: model.wext, hexit: model.hexit } : defaultPadding(panel.width);
  const tag = encodeTagImage(panel, padding);
  return { bytes: tag.bytes.length, packed: tag.packedLength, hash: tag.hash };
}
