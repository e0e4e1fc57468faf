import { decodeTagImage, pageCount, SAMPLE_DATA, TemplateDocument } from '@esl/labels';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../demo/templates';
import { renderWorkersFromEnv } from '../config';
import { createRenderPool } from './pool';
import { renderPreview } from './preview';
import { renderJobs } from './render';
import { isPreview, isRendered, type RenderJob, type RenderOutcome, type RenderPool } from './types';

const docs = DEMO_TEMPLATES.map((t) => TemplateDocument.parse(t.doc));

/** Every demo template with the sample data, on a tag of its own model and colour type. */
const demoJobs = (): RenderJob[] =>
  docs.map((doc, i) => ({
    tenantId: 1,
    tagId: i + 1,
    doc,
    data: { ...SAMPLE_DATA, price: 10 + i },
    model: doc.size.model as string,
    colour: doc.colourType,
  }));

const rendered = (outcomes: RenderOutcome[]) =>
  outcomes.map((o) => {
    if (!isRendered(o)) throw new Error(`tag ${o.tagId}: ${o.error}`);
    return o;
  });

const pools: RenderPool[] = [];
const pool = (workers: number, entry?: URL, partTimeoutMs?: number) => {
  const p = createRenderPool({ workers, entry, partTimeoutMs });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('renderJobs (in the calling thread)', () => {
  it('renders every demo template: content hash, version, geometry, decodable bytes', async () => {
    const out = rendered(await renderJobs(demoJobs()));
    expect(out.map((o) => o.tagId)).toEqual(docs.map((_, i) => i + 1));
    for (const [i, o] of out.entries()) {
      const image = decodeTagImage(o.bytes);
      // A label of n pages is one image of its pages stacked (docs/PAGES.md).
      const height = docs[i].size.h * pageCount(docs[i]);
      expect([image.width, image.height]).toEqual([docs[i].size.w, height]);
      expect([o.width, o.height, o.colour, o.size]).toEqual([
        docs[i].size.w,
        height,
        docs[i].colourType,
        o.bytes.length,
      ]);
      expect(o.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(o.ver).toBe(o.hash.slice(0, 16));
    }
    expect(new Set(out.map((o) => o.hash)).size).toBe(out.length);
  });

  it('renders a black/white template with the inks of a black/white/red tag', async () => {
    const bw = docs.find((d) => d.colourType === 'bw');
    const doc = bw ?? { ...docs[0], colourType: 'bw' as const };
    const [o] = rendered(
      await renderJobs([
        { tenantId: 1, tagId: 7, doc, data: SAMPLE_DATA, model: doc.size.model as string, colour: 'bwr' },
      ]),
    );
    expect(o.colour).toBe('bwr');
    expect(decodeTagImage(o.bytes).colourType).toBe('bwr');
  });

  it('gives an error outcome to a job that cannot be rendered, and renders the others', async () => {
    const [good] = demoJobs();
    const jobs: RenderJob[] = [
      { ...good, tagId: 1, model: '05' }, // 296 × 152 template on a 250 × 122 model
      { ...good, tagId: 2, colour: 'bw' }, // a red template on a black/white tag
      { ...good, tagId: 3, model: 'ZZ' },
      { ...good, tagId: 4 },
    ];
    const out = await renderJobs(jobs);
    expect(out.map((o) => o.tagId)).toEqual([1, 2, 3, 4]);
    expect(out.slice(0, 3).map((o) => ('error' in o ? o.error : ''))).toEqual([
      expect.stringContaining('296 × 152'),
      expect.stringContaining('bw tag'),
      expect.stringContaining('unknown tag model'),
    ]);
    expect(isRendered(out[3])).toBe(true);
  });
});

describe('createRenderPool', () => {
  it('renders in worker threads byte for byte what the calling thread renders', async () => {
    const jobs = demoJobs();
    const here = rendered(await renderJobs(jobs));
    // Many copies, so the call is cut into parts that both workers render.
    const many = Array.from({ length: 6 }, (_, copy) =>
      jobs.map((j) => ({ ...j, tagId: copy * 100 + j.tagId })),
    ).flat();
    const there = rendered(await pool(2).render(many));
    expect(there.map((o) => o.tagId)).toEqual(many.map((j) => j.tagId));
    for (const [i, o] of there.entries()) {
      const same = here[i % jobs.length];
      expect(o.hash).toBe(same.hash);
      expect(o.bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(o.bytes).equals(Buffer.from(same.bytes))).toBe(true);
      expect({ ...o, tagId: 0, bytes: null }).toEqual({ ...same, tagId: 0, bytes: null });
    }
  });

  it('renders in the calling thread with 0 workers', async () => {
    const p = pool(0);
    expect(p.workers).toBe(0);
    const out = rendered(await p.render(demoJobs()));
    expect(out.map((o) => o.hash)).toEqual(rendered(await renderJobs(demoJobs())).map((o) => o.hash));
  });

  // Workers start and die several times here: slow on a loaded machine.
  it('fails only the job that kills its worker, replaces the worker and goes on', { timeout: 90_000 }, async () => {
    const p = pool(1, new URL('./crash-worker.ts', import.meta.url));
    const [job] = demoJobs();
    const doomed = p.render([
      { ...job, tagId: 5 },
      { ...job, tagId: -1 },
    ]);
    const after = p.render([{ ...job, tagId: 6 }]);
    const thrown = p.render([{ ...job, tagId: -2 }]);
    const last = p.render([{ ...job, tagId: 8 }]);
    const [a, b, c, d] = await Promise.all([doomed, after, thrown, last]);
    // The part [5, -1] died with its worker; each job was tried again alone: 5 renders.
    expect(rendered([a[0]]).map((o) => o.tagId)).toEqual([5]);
    expect(a[1]).toEqual({ tagId: -1, error: expect.stringContaining('exited with code 3') });
    expect(rendered(b).map((o) => o.tagId)).toEqual([6]);
    expect(c).toEqual([{ tagId: -2, error: expect.stringContaining('boom in the worker') }]);
    expect(rendered(d).map((o) => o.tagId)).toEqual([8]);
    expect(d[0]).toMatchObject({ hash: rendered(await renderJobs([job]))[0].hash });
  });

  // Workers start and die several times here: slow on a loaded machine.
  it('ends a worker that does not answer its part in time, and goes on with a new one', {
    timeout: 90_000,
  }, async () => {
    const p = pool(1, new URL('./crash-worker.ts', import.meta.url), 3000);
    const [job] = demoJobs();
    const stuck = p.render([
      { ...job, tagId: -3 },
      { ...job, tagId: 10 },
    ]);
    const next = p.render([{ ...job, tagId: 9 }]);
    const [stalled, fine] = await stuck;
    expect(stalled).toEqual({ tagId: -3, error: expect.stringContaining('no answer after 3000 ms') });
    expect(rendered([fine]).map((o) => o.tagId)).toEqual([10]);
    expect(rendered(await next).map((o) => o.tagId)).toEqual([9]);
  });

  // Workers start and die several times here: slow on a loaded machine.
  it('fails the waiting jobs when its workers cannot start, instead of waiting for ever', {
    timeout: 90_000,
  }, async () => {
    const p = pool(1, new URL('./no-such-worker.ts', import.meta.url));
    const [job] = demoJobs();
    const out = await p.render([job, { ...job, tagId: 2 }]);
    expect(out).toEqual([
      { tagId: 1, error: expect.stringContaining('render worker cannot start') },
      { tagId: 2, error: expect.stringContaining('render worker cannot start') },
    ]);
  });

  it('closes: pending batches end with error outcomes, later calls are refused', async () => {
    const p = pool(1);
    const pending = p.render(demoJobs());
    await p.close();
    const out = await pending;
    expect(out.every((o) => 'error' in o && o.error === 'the render pool closed')).toBe(true);
    await expect(p.render(demoJobs())).rejects.toThrow(/closed/);
    await p.close();
  });

  it('draws template previews in a worker byte for byte as the calling thread does', async () => {
    const p = pool(1);
    for (const doc of docs.slice(0, 3)) {
      const job = { doc, data: { ...SAMPLE_DATA, name: 'Preview' } };
      const [there, here] = [await p.preview(job), await renderPreview(job)];
      if (!isPreview(there) || !isPreview(here)) throw new Error('a preview failed');
      expect(there.png).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(there.png).equals(Buffer.from(here.png))).toBe(true);
      expect({ ...there, png: null }).toEqual({ ...here, png: null });
      expect([there.width, there.height]).toEqual([doc.size.w, doc.size.h]);
    }
    // 0 workers: the calling thread, the same bytes.
    const job = { doc: docs[0], data: SAMPLE_DATA };
    const inThread = await pool(0).preview(job);
    expect(isPreview(inThread) && Buffer.from(inThread.png)).toEqual(
      Buffer.from(((await renderPreview(job)) as { png: Uint8Array }).png),
    );
  });

  it('puts a preview ahead of the tag parts waiting in the queue', { timeout: 90_000 }, async () => {
    const p = pool(1);
    const order: string[] = [];
    // Over PART_JOBS jobs for one worker: several parts, all queued at once.
    const many = Array.from({ length: 4 }, (_, copy) => demoJobs().map((j) => ({ ...j, tagId: copy * 100 + j.tagId })))
      .flat()
      .concat(Array.from({ length: 200 }, (_, i) => ({ ...demoJobs()[0], tagId: 1000 + i })));
    const tags = p.render(many).then((out) => {
      order.push('tags');
      return out;
    });
    const preview = p.preview({ doc: docs[0], data: SAMPLE_DATA }).then((out) => {
      order.push('preview');
      return out;
    });
    const [outcomes, drawn] = await Promise.all([tags, preview]);
    expect(rendered(outcomes)).toHaveLength(many.length);
    expect(isPreview(drawn)).toBe(true);
    expect(order).toEqual(['preview', 'tags']);
  });

  // Workers start and die here: slow on a loaded machine.
  it('gives an error outcome to a preview that kills its worker, and goes on', { timeout: 90_000 }, async () => {
    const p = pool(1, new URL('./crash-worker.ts', import.meta.url));
    const doomed = p.preview({ doc: docs[0], data: { ...SAMPLE_DATA, name: 'exit' } });
    const next = p.preview({ doc: docs[0], data: SAMPLE_DATA });
    expect(await doomed).toEqual({ error: expect.stringContaining('exited with code 4') });
    expect(isPreview(await next)).toBe(true);
  });

  it('refuses previews once closed', async () => {
    for (const workers of [0, 1]) {
      const p = pool(workers);
      await p.close();
      await expect(p.preview({ doc: docs[0], data: SAMPLE_DATA })).rejects.toThrow(/closed/);
    }
  });

  it('refuses a negative or fractional number of workers', () => {
    expect(() => createRenderPool({ workers: -1 })).toThrow(RangeError);
    expect(() => createRenderPool({ workers: 1.5 })).toThrow(RangeError);
  });
});

describe('RENDER_WORKERS', () => {
  it('defaults to one per core but one, at least one; 0 renders in the main thread', () => {
    expect(renderWorkersFromEnv({}, 8)).toBe(7);
    expect(renderWorkersFromEnv({}, 1)).toBe(1);
    expect(renderWorkersFromEnv({ RENDER_WORKERS: '0' }, 8)).toBe(0);
    expect(renderWorkersFromEnv({ RENDER_WORKERS: ' 3 ' }, 8)).toBe(3);
    expect(() => renderWorkersFromEnv({ RENDER_WORKERS: 'two' }, 8)).toThrow(/RENDER_WORKERS/);
    expect(() => renderWorkersFromEnv({ RENDER_WORKERS: '-1' }, 8)).toThrow(/RENDER_WORKERS/);
  });
});
