import type { Element } from '@esl/labels';
import { elementBox, type Handle, type Rect, resizeBox, unionBox } from './geometry';
import { type Guide, type SnapTargets, snapMove, snapResize } from './snap';

export interface DragResult {
  /** Where each dragged element's box goes. */
  readonly boxes: ReadonlyMap<string, Rect>;
  readonly guides: readonly Guide[];
}

/** What the elements not being dragged offer to snap to. */
export function snapTargetsFor(
  elements: readonly Element[],
  dragged: ReadonlySet<string>,
  label: { w: number; h: number },
  grid: number,
  threshold: number,
): SnapTargets {
  const others = elements.filter((e) => !dragged.has(e.id)).map(elementBox);
  return { label, others, grid, threshold };
}

/**
 * A move drag: the elements as they were when the drag began, shifted by the pointer's travel in
 * label pixels, with the box around them snapped when targets are given (null: snapping is off).
 * Computed from the start every time, so rounding never accumulates.
 */
export function dragMove(start: readonly Element[], dx: number, dy: number, targets: SnapTargets | null): DragResult {
  const boxes = start.map(elementBox);
  const around = unionBox(boxes);
  if (!around) return { boxes: new Map(), guides: [] };
  let ox = Math.round(dx);
  let oy = Math.round(dy);
  let guides: readonly Guide[] = [];
  if (targets) {
    const snap = snapMove({ ...around, x: around.x + ox, y: around.y + oy }, targets);
    ox += snap.dx;
    oy += snap.dy;
    guides = snap.guides;
  }
  const moved = new Map<string, Rect>();
  start.forEach((e, i) => {
    moved.set(e.id, { ...boxes[i], x: boxes[i].x + ox, y: boxes[i].y + oy });
  });
  return { boxes: moved, guides };
}

/** A resize drag of one element by a handle, snapped when targets are given. */
export function dragResize(
  start: Element,
  handle: Handle,
  dx: number,
  dy: number,
  targets: SnapTargets | null,
): DragResult {
  const raw = resizeBox(elementBox(start), handle, dx, dy);
  const snapped = targets ? snapResize(raw, handle, targets) : { box: raw, guides: [] };
  return { boxes: new Map([[start.id, snapped.box]]), guides: snapped.guides };
}
