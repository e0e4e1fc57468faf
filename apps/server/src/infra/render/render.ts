import { findTagModel } from '@esl/contract';
import type { TagRender } from '@esl/labels';
import { COLOUR_SETS, ColourType, type TemplateDocument } from '@esl/labels/model';
import { brandCanvasFactory, registerFonts, renderTagBatch, type TagJob } from '@esl/labels/node';
import type { RenderedImage, RenderJob, RenderOutcome } from './types';

/**
 * The tag's own document: the template rendered with the tag's colour type and the model's
 * padding, or why it cannot be (the same rule as the assignment's fit check: the model's panel
 * size, and every ink of the template on the tag).
 */
export function tagJob(job: RenderJob): TagJob | string {
  const model = findTagModel(job.model) ?? (job.panel ? { code: job.model, ...job.panel } : undefined);
  if (!model) return `unknown tag model ${job.model}`;
  const panel = ColourType.safeParse(job.colour);
  if (!panel.success) return `unknown colour type ${job.colour}`;
  const { w, h } = job.doc.size;
  if (w !== model.w || h !== model.h) {
    return `the template is ${w} × ${h}; model ${model.code} is ${model.w} × ${model.h}`;
  }
  const inks: readonly string[] = COLOUR_SETS[panel.data];
  if (!COLOUR_SETS[job.doc.colourType].every((ink) => inks.includes(ink))) {
    return `the template's colours (${job.doc.colourType}) are not all on a ${panel.data} tag`;
  }
  const doc: TemplateDocument = job.doc.colourType === panel.data ? job.doc : { ...job.doc, colourType: panel.data };
  const padding = { wext: model.wext, hexit: model.hexit };
  if (job.fonts?.length) return { doc, data: job.data, padding, canvas: brandCanvasFactory(job.fonts) };
  return { doc, data: job.data, padding };
}

function rendered(tagId: number, render: TagRender): RenderedImage {
  const { tag, problems } = render;
  return {
    tagId,
    hash: tag.hash,
    ver: tag.hash.slice(0, 16),
    bytes: tag.bytes,
    width: tag.header.width,
    height: tag.header.height,
    colour: tag.header.colourType,
    size: tag.bytes.length,
    problems: problems.map((p) => `${p.elementId}: ${p.message}`),
    unknownFonts: problems.flatMap((p) =>
      p.code === 'unknownFont' ? [{ element: p.elementId, family: p.family ?? '' }] : [],
    ),
    missingGlyphs: problems.flatMap((p) =>
      p.code === 'missingGlyph' ? [{ element: p.elementId, field: p.field ?? null, chars: p.chars ?? '' }] : [],
    ),
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'render failed';

/**
 * Renders jobs in this thread, one outcome per job in order. A job that cannot be rendered (a
 * template that does not fit, a renderer exception) gives an error outcome; the others go on. The
 * labels package's batch renderer gives the event loop a turn now and then, so native pixel
 * buffers are freed while a large batch runs (docs/LABELS.md §9).
 */
export async function renderJobs(jobs: readonly RenderJob[]): Promise<RenderOutcome[]> {
  registerFonts();
  const outcomes: RenderOutcome[] = new Array(jobs.length);
  const runnable: { index: number; job: TagJob }[] = [];
  jobs.forEach((job, index) => {
    const prepared = tagJob(job);
    if (typeof prepared === 'string') outcomes[index] = { tagId: job.tagId, error: prepared };
    else runnable.push({ index, job: prepared });
  });
  // renderTagBatch stops at the first exception: note the failing job and go on after it.
  let start = 0;
  while (start < runnable.length) {
    let next = start;
    try {
      await renderTagBatch(
        runnable.slice(start).map((r) => r.job),
        (render) => {
          const { index } = runnable[next];
          outcomes[index] = rendered(jobs[index].tagId, render);
          next++;
        },
      );
      break;
    } catch (error) {
      const { index } = runnable[next];
      outcomes[index] = { tagId: jobs[index].tagId, error: message(error) };
      start = next + 1;
    }
  }
  return outcomes;
}
