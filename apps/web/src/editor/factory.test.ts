import { ELEMENT_TYPES } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { addElement } from './commands';
import { newElement } from './factory';
import { docWith, LABEL } from './fixtures';
import { elementBox } from './geometry';

describe('new elements', () => {
  it('makes a valid element of every type, inside the label', () => {
    for (const type of ELEMENT_TYPES) {
      const e = newElement(docWith(), LABEL, type, { text: '文本' });
      expect(e.type).toBe(type);
      const b = elementBox(e);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(LABEL.w);
      expect(b.y + b.h).toBeLessThanOrEqual(LABEL.h);
    }
  });

  it('gives each new element a fresh id and a slightly different place', () => {
    let doc = docWith();
    const first = newElement(doc, LABEL, 'text', { text: 'A' });
    doc = addElement(doc, first);
    const second = newElement(doc, LABEL, 'text', { text: 'B' });
    expect(second.id).not.toBe(first.id);
    expect([second.x, second.y]).not.toEqual([first.x, first.y]);
    expect(second.type === 'text' && second.text).toBe('B');
  });

  it('fits a tiny label', () => {
    const tiny = { w: 40, h: 20 };
    const e = newElement(docWith(), tiny, 'barcode', { text: '' });
    expect(e.w).toBeLessThanOrEqual(40);
    expect(e.h).toBeLessThanOrEqual(20);
  });
});
