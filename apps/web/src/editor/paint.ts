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

/** Pixels that differ between two RGBA images of the same size (or null when the sizes differ). */
export function differingPixels(a: Uint8ClampedArray, b: Uint8ClampedArray): number | null {
  if (a.length !== b.length) return null;
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  }
  return n;
}
