import { Element } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import {
  boxFromPoints,
  elementBox,
  elementsInBox,
  fitZoom,
  handlePoint,
  handlesFor,
  hitTest,
  resizeBox,
  stepZoom,
  unionBox,
} from './geometry';

const line = (w: number, h: number) => Element.parse({ id: 'l', type: 'line', x: 10, y: 20, w, h, strokeWidth: 3 });
const box = (id: string, x: number, y: number, w: number, h: number) => Element.parse({ id, type: 'rect', x, y, w, h });

describe('element boxes', () => {
  it('gives a straight line the thickness of its stroke', () => {
    expect(elementBox(line(50, 0))).toEqual({ x: 10, y: 20, w: 50, h: 3 });
    expect(elementBox(line(0, 40))).toEqual({ x: 10, y: 20, w: 3, h: 40 });
    expect(elementBox(line(30, 40))).toEqual({ x: 10, y: 20, w: 30, h: 40 });
  });

  it('unites boxes, and has no union of nothing', () => {
    expect(unionBox([])).toBeNull();
    expect(
      unionBox([
        { x: 10, y: 5, w: 10, h: 10 },
        { x: 0, y: 20, w: 5, h: 5 },
      ]),
    ).toEqual({ x: 0, y: 5, w: 20, h: 20 });
  });

  it('makes a box from two corners in any order', () => {
    expect(boxFromPoints(30, 40, 10, 5)).toEqual({ x: 10, y: 5, w: 20, h: 35 });
  });
});

describe('hit testing', () => {
  const elements = [box('under', 0, 0, 100, 100), box('over', 50, 50, 100, 100)];

  it('picks the topmost element under the point', () => {
    expect(hitTest(elements, 60, 60)?.id).toBe('over');
    expect(hitTest(elements, 10, 10)?.id).toBe('under');
    expect(hitTest(elements, 200, 10)).toBeNull();
  });

  it('widens thin boxes by the slack', () => {
    const thin = [line(50, 0)];
    expect(hitTest(thin, 30, 25)).toBeNull();
    expect(hitTest(thin, 30, 25, 3)?.id).toBe('l');
  });

  it('finds what a marquee touches', () => {
    expect(elementsInBox(elements, { x: 120, y: 120, w: 10, h: 10 }).map((e) => e.id)).toEqual(['over']);
    expect(elementsInBox(elements, { x: 40, y: 40, w: 20, h: 20 }).map((e) => e.id)).toEqual(['under', 'over']);
  });
});

describe('handles and resizing', () => {
  it('lets a straight line only lengthen', () => {
    expect(handlesFor(line(50, 0))).toEqual(['e', 'w']);
    expect(handlesFor(line(0, 50))).toEqual(['n', 's']);
    expect(handlesFor(line(50, 50))).toHaveLength(8);
  });

  it('places handles on corners and mid-edges', () => {
    const b = { x: 10, y: 20, w: 40, h: 30 };
    expect(handlePoint(b, 'nw')).toEqual({ x: 10, y: 20 });
    expect(handlePoint(b, 'e')).toEqual({ x: 50, y: 35 });
    expect(handlePoint(b, 'se')).toEqual({ x: 50, y: 50 });
  });

  it('moves only the dragged edges, in whole pixels', () => {
    const b = { x: 10, y: 10, w: 40, h: 20 };
    expect(resizeBox(b, 'se', 5.4, 2.6)).toEqual({ x: 10, y: 10, w: 45, h: 23 });
    expect(resizeBox(b, 'nw', -5, -5)).toEqual({ x: 5, y: 5, w: 45, h: 25 });
    expect(resizeBox(b, 'e', 10, 99)).toEqual({ x: 10, y: 10, w: 50, h: 20 });
  });

  it('never turns a box inside out', () => {
    const b = { x: 10, y: 10, w: 40, h: 20 };
    expect(resizeBox(b, 'w', 100, 0)).toEqual({ x: 49, y: 10, w: 1, h: 20 });
    expect(resizeBox(b, 's', 0, -100)).toEqual({ x: 10, y: 10, w: 40, h: 1 });
  });
});

describe('zoom', () => {
  it('steps through the zoom levels and stops at the ends', () => {
    expect(stepZoom(1, 1)).toBe(1.5);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(1.2, 1)).toBe(1.5);
    expect(stepZoom(16, 1)).toBe(16);
    expect(stepZoom(0.25, -1)).toBe(0.25);
  });

  it('fits a label into the room with the largest step', () => {
    expect(fitZoom({ w: 296, h: 152 }, { w: 900, h: 600 })).toBe(3);
    expect(fitZoom({ w: 1304, h: 984 }, { w: 900, h: 600 })).toBe(0.5);
    expect(fitZoom({ w: 4000, h: 4000 }, { w: 100, h: 100 })).toBe(0.25);
  });
});
