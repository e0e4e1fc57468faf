import type { ColourType, LabelData, TemplateDocument } from '@esl/labels/model';
import type { BrandFace } from '@esl/labels/node';

/**
 * One label to render for one tag (DELIVERY.md §5.3). Everything the renderer needs travels in the
 * job, so a worker thread renders it without the database: the template document, the product data
 * it shows, and the tag's model and colour type.
 */
export interface RenderJob {
  tenantId: number;
  tagId: number;
  /** The template the tag shows (already resolved by the assignment rules). */
  doc: TemplateDocument;
  /** The product's values (or the store's "unbound" values): field key → value. */
  data: LabelData;
  /**
   * The tag's catalogue code ('01'–'44', tags.model): gives the panel size the template must
   * have and the padding (wext, hexit) the packed image is sent with.
   */
  model: string;
  /**
   * The panel of a learned model (`model` is its key, docs/PROTOCOL.md §5.13): the renderer has no
   * database, so its size and padding travel with the job. Left out for catalogue models.
   */
  panel?: { w: number; h: number; wext: number; hexit: number };
  /**
   * The tag's colour type (tags.colour). The document is rendered with it, so a black/white
   * template on a black/white/red tag is quantised to the tag's inks; a template whose inks the
   * tag lacks is refused (an error outcome), as the assignment rules refuse it.
   */
  colour: string;
  /**
   * The tenant's brand faces the document names (docs/LABELS.md "Fonts a retailer brings"): the
   * label is drawn with them in front of the shared fonts. Only the job's tenant's faces are ever
   * put here; the jobs of one tenant share the same objects, so a part carries each file once.
   */
  fonts?: BrandFace[];
}

/** A rendered label: what is stored in tag_images and sent to the station. */
export interface RenderedImage {
  tagId: number;
  /**
   * The image's content hash (PROTOCOL.md §5.4, `contentHash` / `encodeTagImage().hash`): SHA-256
   * hex over the 14-byte header with the compression byte 0 and the packed planes, so the same
   * picture has the same hash however it was compressed. This, not a hash of `bytes`, is what a
   * tag reports (its `ver` is the first 16 digits), so `desired_hash` compares with the reports.
   */
  hash: string;
  /** The first 16 hex digits of `hash`: the image version of the protocol. */
  ver: string;
  /** `encodeTagImage` output: what the station receives and the tag decodes. */
  bytes: Uint8Array;
  /** Panel size (the encoded image's geometry, without padding). */
  width: number;
  height: number;
  /** The colour type the image was quantised to (= the job's colour). */
  colour: ColourType;
  /** `bytes.length`: what the station receives (the protocol's `image.size`). */
  size: number;
  /**
   * What the renderer could not draw as the template says ("element: message"), e.g. an image
   * that would not decode or text that did not fit; the label is still rendered. Empty: none.
   */
  problems: string[];
  /**
   * Characters no font of an element can draw (RenderProblem code 'missingGlyph'): the label is
   * sent, with boxes where they are; the render stage reports them (push log, tag log, callback).
   */
  missingGlyphs?: MissingGlyphs[];
  /**
   * Elements naming a font family the tenant has no face of (RenderProblem code 'unknownFont':
   * another tenant's brand font, or a deleted one): drawn in the base font; the render stage
   * writes it to the tag log.
   */
  unknownFonts?: { element: string; family: string }[];
}

/** The characters of one element that no font draws, and the data field they came from (null: the template's own text). */
export interface MissingGlyphs {
  element: string;
  field: string | null;
  chars: string;
}

/** A label that could not be rendered: the task fails with "synthesis failed" and this reason. */
export interface RenderFailure {
  tagId: number;
  error: string;
}

/** One outcome per job, in the order of the jobs. */
export type RenderOutcome = RenderedImage | RenderFailure;

export function isRendered(outcome: RenderOutcome): outcome is RenderedImage {
  return 'hash' in outcome;
}

/**
 * Renders batches of labels (DELIVERY.md §5.3). `render` answers one outcome per job, in order,
 * and never rejects for a job's fault: a label that cannot be rendered, or a worker that dies on a
 * batch, gives error outcomes for those jobs only. After `close` every later `render` rejects.
 */
export interface RenderPool {
  render(jobs: readonly RenderJob[]): Promise<RenderOutcome[]>;
  /**
   * Draws a template preview (what the console's editor shows) off the calling thread. A preview
   * goes ahead of the tag parts waiting in the queue (a person waits for it), behind the parts
   * being rendered. Never rejects for the preview's fault: a renderer exception, or a worker that
   * dies or overruns on it, gives an error outcome.
   */
  preview(job: PreviewJob): Promise<PreviewOutcome>;
  /** Terminates the workers (pending batches end with error outcomes); idempotent. */
  close(): Promise<void>;
  /** Worker threads in the pool; 0: renders in the calling thread. */
  readonly workers: number;
}

export interface RenderPoolOptions {
  /** Worker threads; 0 renders in the calling thread (tests, tools). */
  workers: number;
}

/** A template preview to draw: the document (design orientation) and the values it shows. */
export interface PreviewJob {
  doc: TemplateDocument;
  data: LabelData;
  /** The tenant's brand faces the document names (as RenderJob.fonts). */
  fonts?: BrandFace[];
}

/** A drawn preview: a palette PNG of the document's colour set, in design orientation. */
export interface RenderedPreview {
  png: Uint8Array;
  width: number;
  height: number;
  /** What the renderer could not draw as the template says. Empty: none. */
  problems: { element: string; message: string }[];
}

export type PreviewOutcome = RenderedPreview | { error: string };

export function isPreview(outcome: PreviewOutcome): outcome is RenderedPreview {
  return 'png' in outcome;
}
