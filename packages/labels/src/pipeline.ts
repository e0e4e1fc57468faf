import type { CanvasFactory } from './canvas';
import { type DrawOptions, drawTemplate, type RenderProblem } from './draw';
import { type EncodeOptions, encodeTagImage, type TagImage } from './encode';
import {
  type DitherMode,
  designSize,
  type LabelData,
  pageCount,
  pageDoc,
  type TemplateDocument,
} from './model/document';
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
 * model's padding, compressed and hashed. A label of several pages (docs/PAGES.md) is one image of
 * its pages turned to the panel and stacked top to bottom: the panel's width by n × its height,
 * page k in rows (k − 1) × h to k × h − 1, so the tag receives and holds every page at once.
 */
export function renderForTag(
  doc: TemplateDocument,
  data: LabelData,
  env: RenderEnv,
  padding: Padding = defaultPadding(doc.size.w),
): TagRender {
  const n = pageCount(doc);
  const rendered = Array.from({ length: n }, (_, i) => rasterise(n > 1 ? pageDoc(doc, i + 1) : doc, data, env));
  const panels = rendered.map((r) => rotateIndex(r.image, doc.rotation));
  const panel = n > 1 ? stackPages(panels) : (panels[0] as IndexImage);
  return { panel, tag: encodeTagImage(panel, padding, env), problems: rendered.flatMap((r) => r.problems) };
}

/** Page images of one size stacked top to bottom into one. */
export function stackPages(pages: readonly IndexImage[]): IndexImage {
  const first = pages[0];
  if (!first) throw new RangeError('no pages');
  const data = new Uint8Array(first.width * first.height * pages.length);
  pages.forEach((p, i) => {
    if (p.width !== first.width || p.height !== first.height) throw new RangeError('pages differ in size');
    data.set(p.data, i * p.data.length);
  });
  return { width: first.width, height: first.height * pages.length, colourType: first.colourType, data };
}

/** Page `page` (1-based) of a stacked image of `pages` pages (what a tag shows of it). */
export function pageOfImage(image: IndexImage, pages: number, page: number): IndexImage {
  const h = image.height / pages;
  const at = Math.min(Math.max(page, 1), pages) - 1;
  return { ...image, height: h, data: image.data.slice(at * image.width * h, (at + 1) * image.width * h) };
}
