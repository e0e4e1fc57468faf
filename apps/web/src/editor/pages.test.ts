import { addElement, pageCount, pageDoc, TEMPLATE_VERSION, TemplateDocument } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { addPage, change, createEditorState, deletePage, documentOf, sameDocument, showPage, undo } from './state';

// Label pages in the editor (docs/PAGES.md): add, choose and delete a page; edits land on the page shown.
const doc = TemplateDocument.parse({
  version: TEMPLATE_VERSION,
  size: { model: null, w: 64, h: 32 },
  colourType: 'bw',
  elements: [{ type: 'rect', id: 'rect-1', x: 0, y: 0, w: 8, h: 8 }],
});
const ids = (d: TemplateDocument, page: number) => pageDoc(d, page).elements.map((e) => e.id);

describe('editor pages', () => {
  it('adds a page, edits it, switches back and deletes it; the stored document keeps page 1 first', () => {
    let s = addPage(createEditorState(doc));
    expect(s.page).toBe(2);
    expect(s.doc.elements).toEqual([]);
    s = change(s, (d) => addElement(d, { type: 'rect', id: 'rect-2', x: 1, y: 1, w: 4, h: 4 }));
    expect(ids(documentOf(s), 1)).toEqual(['rect-1']);
    expect(ids(documentOf(s), 2)).toEqual(['rect-2']);
    s = showPage(s, 1);
    expect(s.doc.elements.map((e) => e.id)).toEqual(['rect-1']);
    expect(documentOf(s)).toEqual(documentOf(showPage(s, 2)));
    // Undo goes back to page 2 as it was.
    s = undo(s);
    expect(s.page).toBe(2);
    expect(s.doc.elements.map((e) => e.id)).toEqual(['rect-2']);
    // Deleting page 1 makes page 2 the first.
    s = deletePage(showPage(s, 1));
    expect(pageCount(documentOf(s))).toBe(1);
    expect(documentOf(s).pages).toBeUndefined();
    expect(ids(documentOf(s), 1)).toEqual(['rect-2']);
    expect(deletePage(s)).toBe(s);
  });

  it('choosing a page changes nothing to save; an edit on a page does', () => {
    let s = addPage(createEditorState(doc));
    const saved = documentOf(s);
    s = showPage(showPage(s, 1), 2);
    expect(sameDocument(documentOf(s), saved)).toBe(true);
    s = change(s, (d) => addElement(d, { type: 'rect', id: 'rect-9', x: 1, y: 1, w: 4, h: 4 }));
    expect(sameDocument(documentOf(s), saved)).toBe(false);
    expect(sameDocument(documentOf(undo(s)), saved)).toBe(true);
  });

  it('stops at eight pages', () => {
    let s = createEditorState(doc);
    for (let i = 0; i < 10; i++) s = addPage(s);
    expect(pageCount(documentOf(s))).toBe(8);
  });
});
