import { Element } from '@esl/labels';
import { LIMITS } from '@esl/labels/model';
import { describe, expect, it } from 'vitest';
import {
  addElement,
  alignElements,
  deleteElements,
  distributeElements,
  duplicateElements,
  moveElements,
  nextId,
  patchElement,
  reorder,
  setBoxes,
  setColourType,
  setDocument,
  updateElements,
} from './commands';
import { docWith, LABEL, rect } from './fixtures';
import { change, createEditorState, redo, sameDocument, undo } from './state';

const ids = (doc: { elements: readonly { id: string }[] }) => doc.elements.map((e) => e.id);

describe('patching elements', () => {
  it('validates a patch and refuses an invalid one', () => {
    const [r] = docWith(rect('a', 0, 0, 10, 10)).elements;
    expect(patchElement(r, { x: 5 }).x).toBe(5);
    expect(patchElement(r, { w: -3 })).toBe(r);
    expect(patchElement(r, { colour: 'purple' as never })).toBe(r);
  });

  it('answers the same object when nothing changes', () => {
    const doc = docWith(rect('a', 0, 0, 10, 10));
    expect(patchElement(doc.elements[0], { x: 0 })).toBe(doc.elements[0]);
    expect(updateElements(doc, ['a'], { x: 0 })).toBe(doc);
    expect(updateElements(doc, ['missing'], { x: 5 })).toBe(doc);
  });

  it('never lets a patch change an id or a type', () => {
    const doc = docWith(rect('a', 0, 0, 10, 10));
    const next = updateElements(doc, ['a'], { id: 'b', type: 'text', x: 3 } as never);
    expect(next.elements[0]).toMatchObject({ id: 'a', type: 'rect', x: 3 });
  });
});

describe('adding, deleting, duplicating', () => {
  it('gives the first free id of a type', () => {
    const doc = docWith(rect('rect-1', 0, 0, 1, 1), rect('rect-3', 0, 0, 1, 1));
    expect(nextId(doc, 'rect')).toBe('rect-2');
    expect(nextId(doc, 'text')).toBe('text-1');
  });

  it('adds on top and refuses a duplicate id or too many elements', () => {
    const doc = docWith(rect('a', 0, 0, 1, 1));
    const b = Element.parse(rect('b', 0, 0, 1, 1));
    expect(ids(addElement(doc, b))).toEqual(['a', 'b']);
    expect(addElement(doc, { ...b, id: 'a' })).toBe(doc);
    const full = docWith(...Array.from({ length: LIMITS.elements }, (_, i) => rect(`r${i}`, 0, 0, 1, 1)));
    expect(addElement(full, b)).toBe(full);
  });

  it('deletes the listed elements only', () => {
    const doc = docWith(rect('a', 0, 0, 1, 1), rect('b', 0, 0, 1, 1), rect('c', 0, 0, 1, 1));
    expect(ids(deleteElements(doc, ['a', 'c']))).toEqual(['b']);
    expect(deleteElements(doc, ['zzz'])).toBe(doc);
  });

  it('duplicates with fresh ids, shifted, on top', () => {
    const doc = docWith(rect('rect-1', 10, 10, 5, 5), rect('b', 0, 0, 1, 1));
    const { doc: next, ids: copies } = duplicateElements(doc, ['rect-1'], 8);
    expect(copies).toEqual(['rect-2']);
    expect(next.elements[2]).toMatchObject({ id: 'rect-2', x: 18, y: 18, w: 5, h: 5 });
  });
});

describe('moving and resizing', () => {
  it('moves by whole pixels', () => {
    const doc = docWith(rect('a', 10, 10, 5, 5));
    expect(moveElements(doc, ['a'], 2.6, -1.2).elements[0]).toMatchObject({ x: 13, y: 9 });
    expect(moveElements(doc, ['a'], 0, 0)).toBe(doc);
  });

  it('keeps a straight line straight when its box is set', () => {
    const doc = docWith({ id: 'l', type: 'line', x: 0, y: 0, w: 50, h: 0, strokeWidth: 2 }, rect('r', 0, 0, 5, 5));
    const next = setBoxes(
      doc,
      new Map([
        ['l', { x: 5, y: 6, w: 70, h: 2 }],
        ['r', { x: 1, y: 2, w: 30, h: 40 }],
      ]),
    );
    expect(next.elements[0]).toMatchObject({ x: 5, y: 6, w: 70, h: 0 });
    expect(next.elements[1]).toMatchObject({ x: 1, y: 2, w: 30, h: 40 });
  });
});

describe('z-order', () => {
  const doc = docWith(rect('a', 0, 0, 1, 1), rect('b', 0, 0, 1, 1), rect('c', 0, 0, 1, 1), rect('d', 0, 0, 1, 1));

  it('brings to the front and sends to the back, keeping relative order', () => {
    expect(ids(reorder(doc, ['b', 'a'], 'front'))).toEqual(['c', 'd', 'a', 'b']);
    expect(ids(reorder(doc, ['d', 'c'], 'back'))).toEqual(['c', 'd', 'a', 'b']);
  });

  it('steps forward and backward past one neighbour', () => {
    expect(ids(reorder(doc, ['b'], 'forward'))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(reorder(doc, ['c'], 'backward'))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(reorder(doc, ['a', 'b'], 'forward'))).toEqual(['c', 'a', 'b', 'd']);
  });

  it('answers the same document when the order cannot change', () => {
    expect(reorder(doc, ['d'], 'front')).toBe(doc);
    expect(reorder(doc, ['a'], 'backward')).toBe(doc);
    expect(reorder(doc, [], 'front')).toBe(doc);
  });
});

describe('aligning and distributing', () => {
  const doc = docWith(rect('a', 10, 10, 20, 10), rect('b', 50, 40, 40, 30), rect('c', 100, 5, 10, 10));

  it('aligns several elements to the box around them', () => {
    const left = alignElements(doc, ['a', 'b'], 'left', LABEL);
    expect(left.elements.map((e) => e.x)).toEqual([10, 10, 100]);
    const right = alignElements(doc, ['a', 'b'], 'right', LABEL);
    expect(right.elements.map((e) => e.x + e.w)).toEqual([90, 90, 110]);
    const middle = alignElements(doc, ['a', 'b'], 'vcenter', LABEL);
    // Around them: y 10 … 70, centre 40.
    expect(middle.elements.slice(0, 2).map((e) => e.y + e.h / 2)).toEqual([40, 40]);
    const bottom = alignElements(doc, ['a', 'b', 'c'], 'bottom', LABEL);
    expect(bottom.elements.map((e) => e.y + e.h)).toEqual([70, 70, 70]);
  });

  it('aligns a single element to the label', () => {
    const centred = alignElements(doc, ['a'], 'hcenter', LABEL);
    expect(centred.elements[0].x).toBe(138);
    expect(alignElements(doc, ['a'], 'bottom', LABEL).elements[0].y).toBe(142);
  });

  it('spaces three elements evenly', () => {
    const spaced = distributeElements(doc, ['a', 'b', 'c'], 'x');
    // Span 10 … 110 = 100, widths 70, two gaps of 15.
    expect(spaced.elements.map((e) => e.x)).toEqual([10, 45, 100]);
    expect(distributeElements(doc, ['a', 'b'], 'x')).toBe(doc);
  });
});

describe('colour type', () => {
  it('turns inks the new set lacks into the nearest it has', () => {
    const doc = docWith({ ...rect('a', 0, 0, 5, 5), colour: 'red', fill: 'red' }, rect('b', 0, 0, 5, 5));
    const bw = setColourType(doc, 'bw');
    expect(bw.colourType).toBe('bw');
    expect(bw.elements[0]).toMatchObject({ colour: 'black', fill: 'black' });
    expect(bw.elements[1]).toBe(doc.elements[1]);
    expect(setColourType(doc, 'bwr')).toBe(doc);
  });
});

describe('NFC content (setDocument)', () => {
  it('binds a data field with its record type, changes it, and takes it out again', () => {
    const doc = docWith(rect('a', 0, 0, 5, 5));
    expect(doc.nfc).toBeUndefined();
    const url = setDocument(doc, { nfc: { key: 'qrcode', type: 'uri' } });
    expect(url.nfc).toEqual({ key: 'qrcode', type: 'uri' });
    expect(url.elements).toBe(doc.elements);
    const text = setDocument(url, { nfc: { key: 'origin', type: 'text' } });
    expect(text.nfc).toEqual({ key: 'origin', type: 'text' });
    const none = setDocument(text, { nfc: null });
    // Taken out, not left undefined: the stored document has no nfc field, as one never bound.
    expect('nfc' in none).toBe(false);
    expect(sameDocument(none, doc)).toBe(true);
  });

  it('answers the same document when nothing changes', () => {
    const doc = docWith(rect('a', 0, 0, 5, 5));
    expect(setDocument(doc, { nfc: null })).toBe(doc);
    const url = setDocument(doc, { nfc: { key: 'qrcode', type: 'uri' } });
    expect(setDocument(url, { nfc: { key: 'qrcode', type: 'uri' } })).toBe(url);
    expect(setDocument(url, { rotation: url.rotation })).toBe(url);
  });

  it('keeps other fields of the same patch and leaves the binding alone when not named', () => {
    const url = setDocument(docWith(), { nfc: { key: 'qrcode', type: 'uri' } });
    const turned = setDocument(url, { rotation: 90 });
    expect(turned).toMatchObject({ rotation: 90, nfc: { key: 'qrcode', type: 'uri' } });
    const both = setDocument(url, { rotation: 180, nfc: null });
    expect(both.rotation).toBe(180);
    expect(both.nfc).toBeUndefined();
  });

  it('is one undo step each way', () => {
    let s = createEditorState(docWith(rect('a', 0, 0, 5, 5)));
    s = change(s, (d) => setDocument(d, { nfc: { key: 'qrcode', type: 'uri' } }));
    s = change(s, (d) => setDocument(d, { nfc: { key: 'qrcode', type: 'text' } }));
    expect(s.doc.nfc).toEqual({ key: 'qrcode', type: 'text' });
    s = undo(s);
    expect(s.doc.nfc).toEqual({ key: 'qrcode', type: 'uri' });
    s = undo(s);
    expect(s.doc.nfc).toBeUndefined();
    s = redo(s);
    expect(s.doc.nfc).toEqual({ key: 'qrcode', type: 'uri' });
  });
});
