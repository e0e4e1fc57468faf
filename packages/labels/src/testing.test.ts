import { beforeAll, describe, expect, test, vi } from 'vitest';
import { designSize, SAMPLE_DATA, TemplateDocument } from './model/document';
import { registerFonts, renderToPng } from './node';
import { priceLabel } from './testing';

// A 4096 × 4096 label takes 2–4 s alone and more on a loaded machine (as golden.test.ts).
vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => registerFonts(), 60_000);

describe('the shared test label (@esl/labels/testing)', () => {
  test.each([
    { w: 250, h: 122 },
    { w: 296, h: 152, original: true, barcode: true },
    { w: 296, h: 152, rotation: 90 as const, original: true, barcode: true, colourType: 'bw' as const },
    { w: 800, h: 480, original: true, barcode: true, colourType: 'bwry' as const },
    { w: 4096, h: 4096, barcode: true },
  ])('$w × $h: a valid document, drawn without problems', async (options) => {
    const doc = TemplateDocument.parse(priceLabel(options));
    expect(doc.elements.map((e) => e.id)).toEqual([
      'name',
      'price',
      ...(options.original ? ['was'] : []),
      ...(options.barcode ? ['code', 'rule'] : []),
    ]);
    const preview = await renderToPng(doc, SAMPLE_DATA);
    expect(preview.problems).toEqual([]);
    const { w, h } = designSize(doc);
    expect([preview.image.width, preview.image.height]).toEqual([w, h]);
  });
});
