import type { CanvasFactory } from './canvas';
import { type DrawOptions, drawTemplate, type RenderProblem } from './draw';
import { type EncodeOptions, encodeTagImage, type TagImage } from './encode';
import { type DitherMode, designSize, type LabelData, type TemplateDocument } from './model/document';
import { defaultPadding, type Padding } from './pack';
import { indexToPng } from './png';
import { type IndexImage, indexToRgba, quantise, rotateIndex } from './quantise';

export interface RenderEnv extends DrawOptions, EncodeOptions {
  readonly canvas: CanvasFactory;
  /** Overrides the template's dithering. */
  readonly dither?: DitherMode;
}

export interface Raster {
  /** The quantised label in design orientation (as a reader sees it). */
  readonly image: IndexImage;
  readonly problems: readonly RenderProblem[];
}

/** Draws a template with data and quantises it to the template's colour set. */
export function rasterise(doc: TemplateDocument, data: LabelData, env: RenderEnv): Raster {
  const { w, h } = designSize(doc);
  const canvas = env.canvas.createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  const { problems } = drawTemplate(ctx, doc, data, env);
  const rgba = canvas.readPixels ? { width: w, height: h, data: canvas.readPixels() } : ctx.getImageData(0, 0, w, h);
  return { image: quantise(rgba, doc.colourType, env.dither ?? doc.dither), problems };
}

export interface Preview extends Raster {
  readonly rgba: Uint8ClampedArray;
  readonly png: Uint8Array;
}

/** What the tag will show, in design orientation: the quantised image, as RGBA and as a PNG. */
export function previewLabel(doc: TemplateDocument, data: LabelData, env: RenderEnv): Preview {
  const raster = rasterise(doc, data, env);
  return { ...raster, rgba: indexToRgba(raster.image), png: indexToPng(raster.image, env) };
}

export interface TagRender {
  /** The quantised label turned to the panel (by the template's rotation). */
  readonly panel: IndexImage;
  readonly tag: TagImage;
  readonly problems: readonly RenderProblem[];
}

/**
 * Everything the server sends a tag: rendered, quantised, turned to the panel, packed with the
 * model's padding, compressed and hashed.
 */
export function renderForTag(
  doc: TemplateDocument,
  data: LabelData,
  env: RenderEnv,
  padding: Padding = defaultPadding(doc.size.w),
): TagRender {
  const { image, problems } = rasterise(doc, data, env);
  const panel = rotateIndex(image, doc.rotation);
  return { panel, tag: encodeTagImage(panel, padding, env), problems };
}
