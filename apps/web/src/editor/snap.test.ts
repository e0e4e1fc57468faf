import { describe, expect, it } from 'vitest';
import { type SnapTargets, snapMove, snapResize } from './snap';

const targets = (over: Partial<SnapTargets> = {}): SnapTargets => ({
  label: { w: 296, h: 152 },
  others: [],
  grid: 0,
  threshold: 4,
  ...over,
});

describe('snapping a move', () => {
  it('snaps an edge to the label edge within the threshold', () => {
    const r = snapMove({ x: 3, y: 50, w: 40, h: 20 }, targets());
    expect(r.dx).toBe(-3);
    expect(r.dy).toBe(0);
    expect(r.guides).toEqual([{ axis: 'x', at: 0 }]);
  });

  it('snaps the centre to the label centre', () => {
    // Centre x = 100 + 50 = 150, label centre 148.
    const r = snapMove({ x: 100, y: 66, w: 100, h: 20 }, targets());
    expect(r.dx).toBe(-2);
    expect(r.guides).toContainEqual({ axis: 'x', at: 148 });
    // Centre y = 66 + 10 = 76 = label centre: no correction, but a guide.
    expect(r.dy).toBe(0);
    expect(r.guides).toContainEqual({ axis: 'y', at: 76 });
  });

  it('snaps to the nearest of other elements edges', () => {
    const others = [{ x: 200, y: 10, w: 50, h: 30 }];
    // Right edge 198 → 200 (2 px) beats nothing else in reach.
    const r = snapMove({ x: 158, y: 90, w: 40, h: 20 }, targets({ others }));
    expect(r.dx).toBe(2);
    expect(r.guides).toEqual([{ axis: 'x', at: 200 }]);
  });

  it('leaves a box alone out of reach of every line', () => {
    expect(snapMove({ x: 50, y: 50, w: 40, h: 20 }, targets())).toEqual({ dx: 0, dy: 0, guides: [] });
  });

  it('falls back to the grid for the top-left corner', () => {
    const r = snapMove({ x: 53, y: 47, w: 40, h: 20 }, targets({ grid: 10 }));
    expect(r).toEqual({ dx: -3, dy: 3, guides: [] });
  });

  it('lands on whole pixels when a centre snaps to a half pixel', () => {
    const r = snapMove({ x: 127, y: 50, w: 41, h: 20 }, targets());
    // Centre 147.5 → 148: x would be 127.5, rounded to 128.
    expect(Number.isInteger(127 + r.dx)).toBe(true);
    expect(r.dx).toBe(1);
  });
});

describe('snapping a resize', () => {
  it('snaps only the dragged edges', () => {
    const r = snapResize({ x: 2, y: 10, w: 291, h: 40 }, 'e', targets());
    // Right edge 293 → 296; the left edge (2) is not dragged, so it does not snap to 0.
    expect(r.box).toEqual({ x: 2, y: 10, w: 294, h: 40 });
    expect(r.guides).toEqual([{ axis: 'x', at: 296 }]);
  });

  it('uses the grid for dragged edges with no line in reach', () => {
    const r = snapResize({ x: 20, y: 20, w: 33, h: 27 }, 'se', targets({ grid: 8 }));
    expect(r.box).toEqual({ x: 20, y: 20, w: 36, h: 28 });
  });

  it('keeps the box at least the minimum size', () => {
    const r = snapResize({ x: 20, y: 20, w: 1, h: 1 }, 'e', targets({ others: [{ x: 18, y: 0, w: 1, h: 1 }] }));
    expect(r.box.w).toBeGreaterThanOrEqual(1);
  });
});
