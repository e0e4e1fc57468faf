// Node-only helpers: the fonts from npm, @napi-rs/canvas to decode JPEG. Never import this from browser code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deflateRawSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { TenantFonts } from './brand';
import type { CanvasFactory, LabelImage } from './canvas';
import { dataUrlBytes, decodePngDataUrl, jpegSize, MAX_IMAGE_PIXELS } from './decode';
import { imageSources, labelTexts } from './draw';
import { type FontFile, parseFont } from './font';
import { allPagesDoc, designSize, type LabelData, type TemplateDocument } from './model/document';
import type { Padding } from './pack';
import { type Preview, previewLabel, type RenderEnv, renderForTag, type TagRender } from './pipeline';
import { type DecodedImage, type FontFace, FontLibrary, softCanvasFactory } from './raster';
import { FALLBACK_ORDER, markScriptFace, SCRIPT_FONTS, type ScriptFont, scriptFontsFor } from './scripts';
import { type HarfBuzzModule, harfBuzzShaper, needsShaping } from './shape';

const require = createRequire(import.meta.url);

/** The TTF files of the script fonts (SCRIPT_FONTS), regular and bold, as npm paths: the base font's first. */
export const FONT_FILES: readonly string[] = SCRIPT_FONTS.flatMap((f) => [
  `${f.pkg}/400Regular/${f.regular}`,
  `${f.pkg}/700Bold/${f.bold}`,
]);

let fonts: FontLibrary | undefined;

function readFaces(script: ScriptFont): FontFace[] {
  return [
    { weight: 400, file: `${script.pkg}/400Regular/${script.regular}` },
    { weight: 700, file: `${script.pkg}/700Bold/${script.bold}` },
  ].map(({ weight, file }) => {
    const font = parseFont(new Uint8Array(readFileSync(require.resolve(file))));
    markScriptFace(font, script);
    return { family: script.family, weight, font };
  });
}

/**
 * Reads Noto Sans SC (regular and bold, Latin and CJK) from npm as the family FONT_FAMILY: the
 * label rasteriser draws text from these files here and in the browser (which loads the same
 * files from the server's /fonts/), so labels render the same on any machine, with or without
 * system fonts. The other script fonts join the set when a label first needs them
 * (loadScriptFonts). Once per process; later calls give the same set.
 */
export function registerFonts(): FontLibrary {
  fonts ??= new FontLibrary(readFaces(SCRIPT_FONTS[0]), FALLBACK_ORDER);
  return fonts;
}

/**
 * Adds the script fonts these texts need (Korean, Thai, Arabic…) to the label fonts, each read
 * once per process. The fallback chain keeps SCRIPT_FONTS' order whatever order they are loaded
 * in: the same chain, so the same pixels, as the editor's.
 */
export function loadScriptFonts(texts: Iterable<string>): FontLibrary {
  const library = registerFonts();
  for (const script of scriptFontsFor(texts)) if (!library.has(script.family)) library.add(readFaces(script));
  return library;
}

let shaping: Promise<void> | undefined;

/**
 * Loads HarfBuzz (harfbuzzjs, WebAssembly) as the label fonts' shaper, once per process: every text
 * that needs it (`needsShaping`: Latin, kana, complex scripts) is shaped from then on.
 */
export function loadShaper(): Promise<void> {
  shaping ??= import('harfbuzzjs').then((hb) => {
    registerFonts().shaper = harfBuzzShaper(hb as unknown as HarfBuzzModule);
  });
  return shaping;
}

/** Loads what these texts need to be drawn: their script fonts, and the shaper when one needs shaping. */
export async function prepareTexts(texts: readonly string[]): Promise<void> {
  loadScriptFonts(texts);
  if (!registerFonts().shaper && texts.some(needsShaping)) await loadShaper();
}

/**
 * Canvases of the label rasteriser (raster.ts) with the label fonts: the pixels the browser editor
 * draws too. One is kept per size and reused: drawing and reading back is synchronous, so one
 * render never sees another's pixels.
 */
export function nodeCanvasFactory(): CanvasFactory {
  return softCanvasFactory(registerFonts());
}

let shared: CanvasFactory | undefined;

/** A tenant's brand font face as a render job carries it: the file's SHA-256 names it. */
export interface BrandFace {
  readonly family: string;
  readonly weight: number;
  readonly hash: string;
  readonly bytes: Uint8Array;
}

const BRAND_CACHE = 64;
const brandFiles = new Map<string, FontFile>();
const brandCanvases = new Map<string, CanvasFactory>();

/**
 * Canvases that draw with a tenant's brand faces in front of the shared label fonts (TenantFonts):
 * one factory per set of faces, kept (a worker renders the same tenant's labels again and again),
 * each file parsed once by its hash. Without faces: the shared canvases.
 */
export function brandCanvasFactory(faces: readonly BrandFace[]): CanvasFactory {
  if (faces.length === 0) {
    shared ??= nodeCanvasFactory();
    return shared;
  }
  const key = faces
    .map((f) => `${f.family.toLowerCase()}/${f.weight}/${f.hash}`)
    .sort()
    .join('|');
  let factory = brandCanvases.get(key);
  if (!factory) {
    const library = new TenantFonts(
      registerFonts(),
      faces.map((f) => {
        let font = brandFiles.get(f.hash);
        if (!font) {
          font = parseFont(f.bytes);
          if (brandFiles.size >= BRAND_CACHE) brandFiles.clear();
          brandFiles.set(f.hash, font);
        }
        return { family: f.family, weight: f.weight, font };
      }),
    );
    factory = softCanvasFactory(library);
    if (brandCanvases.size >= BRAND_CACHE) brandCanvases.clear();
    brandCanvases.set(key, factory);
  }
  return factory;
}

/** node:crypto's SHA-256 (native): the same hex as the browser's js-sha256. */
export function nodeSha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * node:zlib's raw deflate: the same format as fflate's, several times faster. Level 3 (zlib's fast
 * matcher) rather than the default 6, and a 16 KB window with a smaller hash (windowBits 14,
 * memLevel 7; zlib clears its tables on every call, so smaller ones cost less): on packed label
 * planes, long zero runs with short matches, this does less than half the work for about 10 % more
 * bytes (296 × 152 price label: 1,186 bytes against 1,086, still ~9× smaller than raw).
 * Compressed bytes are not part of the content hash, so the settings change no hash.
 */
export function nodeDeflate(data: Uint8Array): Uint8Array {
  return deflateRawSync(data, { level: 3, windowBits: 14, memLevel: 7 });
}

/**
 * An image as the label rasteriser draws it: PNG decoded by decodePng (the browser uses the same),
 * other formats (JPEG) by @napi-rs/canvas and read back as RGBA.
 */
export async function decodeLabelImage(src: string): Promise<DecodedImage> {
  const png = decodePngDataUrl(src);
  if (png) return png;
  // Only the bytes of a data: URL. Given a string, @napi-rs/canvas's loadImage reads a file path
  // and fetches an http(s) address: a template's (or a bound product field's) image would make
  // the server read its own files or request addresses of its network.
  const parsed = dataUrlBytes(src);
  if (!parsed) throw new Error('a label image must be a data: URL');
  const size = jpegSize(parsed.bytes);
  if (!size) throw new Error('a label image must be a PNG or JPEG');
  if (size.width * size.height > MAX_IMAGE_PIXELS) throw new Error('the JPEG image is too large');
  const image = await loadImage(Buffer.from(parsed.bytes.buffer, parsed.bytes.byteOffset, parsed.bytes.byteLength));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  return { width: image.width, height: image.height, data };
}

/**
 * Decodes the images a template uses (data URLs) to RGBA; failures are left out and reported by
 * the renderer. `decoded` keeps results (null: could not be decoded) from one label to the next.
 */
export async function loadTemplateImages(
  doc: TemplateDocument,
  data: LabelData,
  decoded: Map<string, LabelImage | null> = new Map(),
): Promise<Map<string, LabelImage>> {
  const images = new Map<string, LabelImage>();
  for (const src of imageSources(doc, data)) {
    let image = decoded.get(src);
    if (image === undefined) {
      try {
        image = await decodeLabelImage(src);
      } catch {
        // An image that cannot be decoded is drawn as nothing; drawTemplate reports it.
        image = null;
      }
      decoded.set(src, image);
    }
    if (image) images.set(src, image);
  }
  return images;
}

async function nodeEnv(
  doc: TemplateDocument,
  data: LabelData,
  env: Partial<RenderEnv>,
  decoded?: Map<string, LabelImage | null>,
): Promise<RenderEnv> {
  // Every page's texts and images: a label of several pages draws them all (docs/PAGES.md).
  const whole = allPagesDoc(doc);
  await prepareTexts(labelTexts(whole, data));
  shared ??= nodeCanvasFactory();
  return {
    ...env,
    canvas: env.canvas ?? shared,
    images: env.images ?? (await loadTemplateImages(whole, data, decoded)),
    deflate: env.deflate ?? nodeDeflate,
    sha256: env.sha256 ?? nodeSha256,
  };
}

/** Renders on the server: the quantised preview (RGBA and palette PNG) in design orientation. */
export async function renderToPng(
  doc: TemplateDocument,
  data: LabelData,
  env: Partial<RenderEnv> = {},
): Promise<Preview> {
  return previewLabel(doc, data, await nodeEnv(doc, data, env));
}

/** Renders on the server for a tag: packed with the model's padding, compressed and hashed. */
export async function renderTagImage(
  doc: TemplateDocument,
  data: LabelData,
  padding?: Padding,
  env: Partial<RenderEnv> = {},
): Promise<TagRender> {
  return renderForTag(doc, data, await nodeEnv(doc, data, env), padding);
}

/** One label of a batch: a template, the data it shows and the model's padding. */
export interface TagJob {
  readonly doc: TemplateDocument;
  readonly data: LabelData;
  readonly padding?: Padding;
  /** Canvases with the tenant's brand fonts (brandCanvasFactory); else the batch's. */
  readonly canvas?: CanvasFactory;
}

/**
 * How much a batch renders between two turns of the event loop: pixel bytes read back (a 296 × 152
 * label is 180 KB, an 800 × 480 one 1.5 MB) and time.
 */
export const BATCH_PIXEL_BYTES = 8 << 20;
export const BATCH_MS = 20;

/**
 * Renders many labels for tags (a store's first render, a price change across products), in
 * order, handing each to `onLabel` (nothing is kept: the caller stores what it needs), giving the event loop a turn every BATCH_PIXEL_BYTES of pixels or BATCH_MS.
 *
 * The turns are not only for the server's other requests. Each label's pixels come back from
 * @napi-rs/canvas as a new native buffer, and Node frees such buffers in finalizers that run only
 * when the event loop turns: a synchronous loop over thousands of labels keeps every one of them
 * (10,000 labels of 296 × 152 hold 1.8 GB), and the process spends most of its time faulting in
 * fresh memory (see docs/LABELS.md §9).
 */
export async function renderTagBatch(
  jobs: Iterable<TagJob>,
  onLabel: (render: TagRender, job: TagJob, index: number) => void,
  env: Partial<RenderEnv> = {},
): Promise<number> {
  let bytes = 0;
  let since = performance.now();
  let index = 0;
  // A template's images (and a product image shown on many labels) are decoded once a batch.
  const decoded = new Map<string, LabelImage | null>();
  for (const job of jobs) {
    const jobEnv = await nodeEnv(job.doc, job.data, job.canvas ? { ...env, canvas: job.canvas } : env, decoded);
    onLabel(renderForTag(job.doc, job.data, jobEnv, job.padding), job, index++);
    const { w, h } = designSize(job.doc);
    bytes += w * h * 4;
    if (bytes >= BATCH_PIXEL_BYTES || performance.now() - since >= BATCH_MS) {
      await nextTurn();
      bytes = 0;
      since = performance.now();
    }
  }
  return index;
}
