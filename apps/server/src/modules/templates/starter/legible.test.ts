import { TemplateDocument, tinyTexts } from '@esl/labels';
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
});
