import { describe, expect, it } from 'vitest';
import { dragMove, dragResize, snapTargetsFor } from './drag';
import { docWith, LABEL, rect } from './fixtures';

const doc = docWith(rect('a', 10, 10, 20, 20), rect('b', 40, 10, 20, 20), rect('c', 200, 100, 30, 30));

describe('move drags', () => {
  it('moves every dragged element by the same whole-pixel offset', () => {
    const r = dragMove(doc.elements.slice(0, 2), 5.4, 7.6, null);
    expect(r.boxes.get('a')).toEqual({ x: 15, y: 18, w: 20, h: 20 });
    expect(r.boxes.get('b')).toEqual({ x: 45, y: 18, w: 20, h: 20 });
    expect(r.guides).toEqual([]);
  });

  it('snaps the box around the dragged elements to the others', () => {
    const targets = snapTargetsFor(doc.elements, new Set(['a']), LABEL, 0, 4);
    // a's right edge, 30 + 168 = 198, lands 2 px short of c's left edge (200).
    const r = dragMove([doc.elements[0]], 168, 0, targets);
    expect(r.boxes.get('a')?.x).toBe(180);
    expect(r.guides).toContainEqual({ axis: 'x', at: 200 });
  });

  it('does not snap to the elements being dragged', () => {
    const targets = snapTargetsFor(doc.elements, new Set(['a', 'b']), LABEL, 0, 4);
    expect(targets.others).toEqual([{ x: 200, y: 100, w: 30, h: 30 }]);
  });
});

describe('resize drags', () => {
  it('resizes by a handle and snaps the moving edge', () => {
    const targets = snapTargetsFor(doc.elements, new Set(['a']), LABEL, 0, 4);
    const free = dragResize(doc.elements[0], 'e', 7, 0, null);
    expect(free.boxes.get('a')).toEqual({ x: 10, y: 10, w: 27, h: 20 });
    // Right edge 37 is 3 px from b's left edge (40).
    const snapped = dragResize(doc.elements[0], 'e', 7, 0, targets);
    expect(snapped.boxes.get('a')).toEqual({ x: 10, y: 10, w: 30, h: 20 });
  });
});
