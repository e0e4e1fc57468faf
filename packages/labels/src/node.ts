// Node-only helpers: @napi-rs/canvas and the fonts from npm. Never import this from browser code.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deflateRawSync } from 'node:zlib';
import { type Canvas, createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import type { Canvas2D, CanvasFactory, LabelCanvas, LabelImage } from './canvas';
import { imageSources } from './draw';
import { designSize, FONT_FAMILY, type LabelData, type TemplateDocument } from './model/document';
import type { Padding } from './pack';
import { type Preview, previewLabel, type RenderEnv, renderForTag, type TagRender } from './pipeline';

const require = createRequire(import.meta.url);

/** The TTF files shipped by @expo-google-fonts/noto-sans-sc, regular and bold. */
export const FONT_FILES: readonly string[] = [
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
];

let registered = false;

/**
 * Registers Noto Sans SC (regular and bold, Latin and CJK) with @napi-rs/canvas under the family
 * name FONT_FAMILY, so labels render the same on any machine, with or without system fonts.
 */
export function registerFonts(): void {
  if (registered) return;
  for (const file of FONT_FILES) {
    if (GlobalFonts.registerFromPath(require.resolve(file), FONT_FAMILY) === null) {
      throw new Error(`could not register the font ${file}`);
    }
  }
  registered = true;
}

/**
 * Canvases from @napi-rs/canvas, one kept per size and reused: drawing and reading back is
 * synchronous, so one render never sees another's pixels.
 */
export function nodeCanvasFactory(): CanvasFactory {
  registerFonts();
  const bySize = new Map<string, LabelCanvas>();
  return {
    createCanvas(width: number, height: number) {
      const key = `${width}x${height}`;
      let label = bySize.get(key);
      if (!label) {
        const canvas: Canvas = createCanvas(width, height);
        // Opaque surface: labels always fill their background, and reading pixels back is cheaper.
        const ctx: Canvas2D = canvas.getContext('2d', { alpha: false });
        // Opaque, so the stored (premultiplied) pixels are getImageData's bytes, read with one copy.
        label = { getContext: () => ctx, readPixels: () => canvas.data() };
        bySize.set(key, label);
      }
      return label;
    },
  };
}

let shared: CanvasFactory | undefined;

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
 * Decodes the images a template uses (data URLs); failures are left out and reported by the
 * renderer. `decoded` keeps results (null: could not be decoded) from one label to the next.
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
        image = await loadImage(src);
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
  shared ??= nodeCanvasFactory();
  return {
    ...env,
    canvas: env.canvas ?? shared,
    images: env.images ?? (await loadTemplateImages(doc, data, decoded)),
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
    const jobEnv = await nodeEnv(job.doc, job.data, env, decoded);
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
