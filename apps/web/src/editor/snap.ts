import { type Handle, handleEdges, type Rect } from './geometry';

/** A line something snapped to, for the editor to show while dragging. */
export interface Guide {
  readonly axis: 'x' | 'y';
  /** Position on the axis: x of a vertical guide, y of a horizontal one. */
  readonly at: number;
}

export interface SnapTargets {
  /** Label size: its edges and centre lines are targets. */
  readonly label: { readonly w: number; readonly h: number };
  /** Boxes of the elements not being moved: their edges and centre lines are targets. */
  readonly others: readonly Rect[];
  /** Grid pitch in pixels, or 0 for no grid. */
  readonly grid: number;
  /** How near (in label pixels) an edge or centre must come to a target line to snap to it. */
  readonly threshold: number;
}

export interface SnapResult {
  readonly dx: number;
  readonly dy: number;
  readonly guides: readonly Guide[];
}

/** Target lines on one axis: label edges and centre, then every other box's edges and centre. */
function lines(targets: SnapTargets, axis: 'x' | 'y'): number[] {
  const size = axis === 'x' ? targets.label.w : targets.label.h;
  const out = [0, size / 2, size];
  for (const b of targets.others) {
    const start = axis === 'x' ? b.x : b.y;
    const extent = axis === 'x' ? b.w : b.h;
    out.push(start, start + extent / 2, start + extent);
  }
  return out;
}

interface AxisSnap {
  readonly delta: number;
  readonly at: number | null;
}

/**
 * The smallest correction that puts one of `features` on a target line within the threshold;
 * failing that, the correction that puts the first feature on the grid; else none.
 */
function snapAxis(
  features: readonly number[],
  targetLines: readonly number[],
  grid: number,
  threshold: number,
): AxisSnap {
  let best: AxisSnap | null = null;
  for (const f of features) {
    for (const line of targetLines) {
      const delta = line - f;
      if (Math.abs(delta) <= threshold && (best === null || Math.abs(delta) < Math.abs(best.delta))) {
        best = { delta, at: line };
      }
    }
  }
  if (best) return best;
  if (grid > 0 && features.length > 0) return { delta: Math.round(features[0] / grid) * grid - features[0], at: null };
  return { delta: 0, at: null };
}

/**
 * Snaps a box being moved: its left, centre or right to a vertical target line, its top, middle
 * or bottom to a horizontal one, or its top-left corner to the grid. Answers the correction to add
 * to the move, rounded so the box lands on whole pixels.
 */
export function snapMove(box: Rect, targets: SnapTargets): SnapResult {
  const sx = snapAxis([box.x, box.x + box.w / 2, box.x + box.w], lines(targets, 'x'), targets.grid, targets.threshold);
  const sy = snapAxis([box.y, box.y + box.h / 2, box.y + box.h], lines(targets, 'y'), targets.grid, targets.threshold);
  const dx = Math.round(box.x + sx.delta) - box.x;
  const dy = Math.round(box.y + sy.delta) - box.y;
  const guides: Guide[] = [];
  if (sx.at !== null) guides.push({ axis: 'x', at: sx.at });
  if (sy.at !== null) guides.push({ axis: 'y', at: sy.at });
  return { dx, dy, guides };
}

/**
 * Snaps the edges a resize handle moves (and only those) to target lines or the grid. Answers the
 * box after snapping, in whole pixels and at least `min` wide and high, and the guides it used.
 */
export function snapResize(
  box: Rect,
  handle: Handle,
  targets: SnapTargets,
  min = 1,
): { box: Rect; guides: readonly Guide[] } {
  const edges = handleEdges(handle);
  let left = box.x;
  let right = box.x + box.w;
  let top = box.y;
  let bottom = box.y + box.h;
  const guides: Guide[] = [];
  const xs = lines(targets, 'x');
  const ys = lines(targets, 'y');
  const snapEdge = (value: number, targetLines: number[], axis: 'x' | 'y'): number => {
    const s = snapAxis([value], targetLines, targets.grid, targets.threshold);
    if (s.at !== null) guides.push({ axis, at: s.at });
    return Math.round(value + s.delta);
  };
  if (edges.left) left = Math.min(snapEdge(left, xs, 'x'), right - min);
  if (edges.right) right = Math.max(snapEdge(right, xs, 'x'), left + min);
  if (edges.top) top = Math.min(snapEdge(top, ys, 'y'), bottom - min);
  if (edges.bottom) bottom = Math.max(snapEdge(bottom, ys, 'y'), top + min);
  return { box: { x: left, y: top, w: right - left, h: bottom - top }, guides };
}
