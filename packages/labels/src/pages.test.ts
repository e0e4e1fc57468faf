import { describe, expect, it } from 'vitest';
import { decodeTagImage } from './encode';
import { pageCount, pageDoc, SAMPLE_DATA, TEMPLATE_VERSION, TemplateDocument } from './model/document';
import { renderTagImage, renderToPng } from './node';
import { pageOfImage } from './pipeline';

// Label pages (docs/PAGES.md): one image holds every page, stacked; each page draws its own elements.
const doc = (pages: unknown[] | undefined, rotation = 0) =>
  TemplateDocument.parse({
    version: TEMPLATE_VERSION,
    size: { model: null, w: 64, h: 32 },
    colourType: 'bw',
    rotation,
    elements: [{ type: 'rect', id: 'a', x: 0, y: 0, w: 16, h: 8, fill: 'black' }],
    ...(pages ? { pages } : {}),
  });
const page2 = { elements: [{ type: 'rect', id: 'b', x: 32, y: 16, w: 16, h: 8, fill: 'black' }] };

describe('label pages', () => {
  it('a document without pages has one; pageDoc picks each page’s elements', () => {
    expect(pageCount(doc(undefined))).toBe(1);
    const two = doc([page2]);
    expect(pageCount(two)).toBe(2);
    expect(pageDoc(two, 1).elements.map((e) => e.id)).toEqual(['a']);
    expect(pageDoc(two, 2).elements.map((e) => e.id)).toEqual(['b']);
    expect(pageDoc(two, 2).pages).toBeUndefined();
    expect(() => doc(Array.from({ length: 8 }, () => page2))).toThrow();
  });

  it('renders a two-page label as one image, the pages stacked, each as its own render', async () => {
    for (const rotation of [0, 90]) {
      const two = doc([page2], rotation);
      const { tag, panel } = await renderTagImage(two, SAMPLE_DATA);
      expect([panel.width, panel.height]).toEqual([64, 64]);
      const decoded = decodeTagImage(tag.bytes);
      expect([decoded.width, decoded.height]).toEqual([64, 64]);
      const one = await renderTagImage(pageDoc(two, 1), SAMPLE_DATA);
      const other = await renderTagImage(pageDoc(two, 2), SAMPLE_DATA);
      expect(Buffer.from(pageOfImage(panel, 2, 1).data).equals(Buffer.from(one.panel.data))).toBe(true);
      expect(Buffer.from(pageOfImage(panel, 2, 2).data).equals(Buffer.from(other.panel.data))).toBe(true);
      expect(Buffer.from(one.panel.data).equals(Buffer.from(other.panel.data))).toBe(false);
    }
    // The preview of a paged document is its first page.
    const preview = await renderToPng(doc([page2]), SAMPLE_DATA);
    expect(preview.image.height).toBe(32);
  });

  it('a label of one page renders as before', async () => {
    const { tag } = await renderTagImage(doc(undefined), SAMPLE_DATA);
    const { tag: same } = await renderTagImage(doc([]), SAMPLE_DATA);
    expect(same.hash).toBe(tag.hash);
  });
});

describe('label pages in migrate', () => {
  it('keeps pages, repairs their elements and makes ids unique across pages', async () => {
    const { migrate } = await import('./model/migrate');
    const { doc, repairs } = migrate({
      version: TEMPLATE_VERSION,
      size: { model: null, w: 64, h: 32 },
      colourType: 'bw',
      elements: [{ type: 'rect', id: 'a', x: 0, y: 0, w: 16, h: 8 }],
      pages: [{ elements: [{ type: 'rect', id: 'a', x: 1, y: 1, w: 4, h: 4 }, { type: 'nope' }] }],
    });
    expect(pageCount(doc)).toBe(2);
    expect(pageDoc(doc, 2).elements.map((e) => e.id)).toEqual(['rect-1']);
    expect(repairs).toHaveLength(2);
    expect(migrate({ ...doc, pages: undefined }).doc.pages).toBeUndefined();
  });
});
