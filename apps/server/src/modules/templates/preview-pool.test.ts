import type { PreviewData } from '@esl/contract';
import { SAMPLE_DATA, TemplateDocument, type TemplateDocumentInput } from '@esl/labels';
import { registerFonts, renderToPng } from '@esl/labels/node';
import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../demo/templates';
import { pngDataUrl } from '../../infra/render';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { nameDoc, priceDoc } from '../../test/templates';

const [sqlite] = await testDatabases();

/** What the preview call answered before it moved to the render pool: renderToPng in this thread. */
async function drawnHere(input: TemplateDocumentInput) {
  registerFonts();
  const doc = TemplateDocument.parse(input);
  const preview = await renderToPng(doc, SAMPLE_DATA);
  return {
    png: pngDataUrl(preview.png),
    problems: preview.problems.map((p) => ({ element: p.elementId, message: p.message })),
  };
}

describe('template previews in the render pool (a worker thread)', () => {
  const t = useApp(sqlite, { renderWorkers: 1 });

  it('draws the same pixels as the calling thread did', { timeout: 60_000 }, async () => {
    const { tokens } = await buildWorld(t().app);
    const docs: TemplateDocumentInput[] = [
      nameDoc(),
      priceDoc(),
      ...DEMO_TEMPLATES.slice(0, 3).map((d) => d.doc as TemplateDocumentInput),
    ];
    for (const doc of docs) {
      const there = await t().call<PreviewData>('/mgr/templ/preview', { doc }, { token: tokens.editor });
      expect(there.code, there.msg).toBe(0);
      const here = await drawnHere(doc);
      expect(there.data?.png).toBe(here.png);
      expect(there.data?.problems).toEqual(here.problems);
    }
  });

  it('answers a light request while a 4096 × 4096 preview is being drawn', { timeout: 120_000 }, async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const big = { ...nameDoc(), size: { model: null, w: 4096, h: 4096 } };
    // Warm the worker up (it starts with the app; its first label loads the renderer's code).
    expect((await t().call('/mgr/templ/preview', { doc: nameDoc() }, { token })).code).toBe(0);

    const { previews } = t().app.services;
    const original = previews.preview;
    const order: string[] = [];
    let drawing!: () => void;
    const reached = new Promise<void>((resolve) => {
      drawing = resolve;
    });
    previews.preview = (job) => {
      drawing();
      return original.call(previews, job);
    };
    try {
      const preview = t()
        .call<PreviewData>('/mgr/templ/preview', { doc: big }, { token })
        .then((answer) => {
          order.push('preview');
          return answer;
        });
      // The preview has been handed to the renderer: on the request thread it would now draw
      // before anything else can run, and the light request would answer after it.
      await reached;
      const light = t()
        .call('/mgr/templ/getdatekeymap', {}, { token })
        .then((answer) => {
          order.push('light');
          return answer;
        });
      const [drawn, answered] = await Promise.all([preview, light]);
      expect(answered.code, answered.msg).toBe(0);
      expect(drawn.code, drawn.msg).toBe(0);
      expect(drawn.data).toMatchObject({ width: 4096, height: 4096 });
      expect(order).toEqual(['light', 'preview']);
    } finally {
      previews.preview = original;
    }
  });
});
