import { pageCount, pageDoc, TemplateDocument, tinyTexts } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { STARTER_TEMPLATES } from './documents';

// Issue 28 item 5: the demo (starter) templates set no text below the legible size, so the editor
// flags none of them (texts, barcode digits and price decimals of at least LEGIBLE_PX).
describe('starter templates', () => {
  it('set every text at a legible size', () => {
    const tiny = STARTER_TEMPLATES.flatMap((t) =>
      tinyTexts(TemplateDocument.parse(t.doc)).map((x) => `${t.name} ${x.elementId} ${x.size}px`),
    );
    expect(tiny).toEqual([]);
  });

  it('include a label with a second page (docs/PAGES.md), legible too', () => {
    const paged = STARTER_TEMPLATES.map((t) => TemplateDocument.parse(t.doc)).filter((d) => pageCount(d) > 1);
    expect(paged.length).toBeGreaterThan(0);
    for (const doc of paged) expect(tinyTexts(pageDoc(doc, 2))).toEqual([]);
  });
});
