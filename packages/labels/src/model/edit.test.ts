import { describe, expect, test } from 'vitest';
import { doc } from '../../test/fixtures';
import { addElement, bytesToDataUrl, nextElementId, removeElements, reorderElement, updateElement } from './edit';

const base = doc({ size: { w: 296, h: 152 }, colourType: 'bwr' });

describe('edits', () => {
  test('add, update, reorder and remove leave the original untouched', () => {
    const one = addElement(base, { type: 'text', id: 'a', x: 0, y: 0, w: 10, h: 10 });
    const two = addElement(one, { type: 'rect', id: nextElementId(one, 'rect'), x: 0, y: 0, w: 5, h: 5 });
    expect(two.elements.map((e) => e.id)).toEqual(['a', 'rect-1']);
    expect(base.elements).toEqual([]);
    const moved = updateElement(two, 'a', { x: 12, colour: 'red' });
    expect(moved.elements[0]).toMatchObject({ id: 'a', type: 'text', x: 12, colour: 'red' });
    expect(two.elements[0].x).toBe(0);
    expect(reorderElement(moved, 'a', 'front').elements.map((e) => e.id)).toEqual(['rect-1', 'a']);
    expect(reorderElement(moved, 'a', 'backward').elements.map((e) => e.id)).toEqual(['a', 'rect-1']);
    expect(removeElements(moved, ['a']).elements.map((e) => e.id)).toEqual(['rect-1']);
  });

  test('invalid edits are refused', () => {
    const one = addElement(base, { type: 'text', id: 'a', x: 0, y: 0, w: 10, h: 10 });
    expect(() => addElement(one, { type: 'text', id: 'a', x: 0, y: 0, w: 1, h: 1 })).toThrow(/taken/);
    expect(() => updateElement(one, 'a', { w: -5 })).toThrow();
  });

  test('bytes become a base64 data URL', () => {
    expect(bytesToDataUrl(Uint8Array.of(0x89, 0x50, 0x4e, 0x47))).toBe('data:image/png;base64,iVBORw==');
    expect(bytesToDataUrl(new TextEncoder().encode('Man'), 'image/jpeg')).toBe('data:image/jpeg;base64,TWFu');
  });
});
