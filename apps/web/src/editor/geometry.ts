import type { Element } from '@esl/labels';

/** An axis-aligned box in label pixels (design orientation). */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** The eight resize handles, by compass direction. */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/** The box an element covers on the label; a straight line is as thick as its stroke. */
export function elementBox(element: Element): Rect {
  if (element.type === 'line') {
    if (element.h === 0) return { x: element.x, y: element.y, w: element.w, h: element.strokeWidth };
    if (element.w === 0) return { x: element.x, y: element.y, w: element.strokeWidth, h: element.h };
  }
  return { x: element.x, y: element.y, w: element.w, h: element.h };
}

/** The smallest box around all the boxes, or null for none. */
export function unionBox(boxes: readonly Rect[]): Rect | null {
  if (boxes.length === 0) return null;
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const b of boxes) {
    left = Math.min(left, b.x);
    top = Math.min(top, b.y);
    right = Math.max(right, b.x + b.w);
    bottom = Math.max(bottom, b.y + b.h);
  }
  return { x: left, y: top, w: right - left, h: bottom - top };
}

export function containsPoint(box: Rect, px: number, py: number, slack = 0): boolean {
  return px >= box.x - slack && px <= box.x + box.w + slack && py >= box.y - slack && py <= box.y + box.h + slack;
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** A box from two corners, in any order. */
export function boxFromPoints(x1: number, y1: number, x2: number, y2: number): Rect {
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), w: Math.abs(x2 - x1), h: Math.abs(y2 - y1) };
}

/**
 * The topmost element under a point (elements are drawn in order, so the last one is on top).
 * `slack` widens thin boxes so a 1-pixel line can still be picked at a small zoom.
 */
export function hitTest(elements: readonly Element[], px: number, py: number, slack = 0): Element | null {
  for (let i = elements.length - 1; i >= 0; i--) {
    if (containsPoint(elementBox(elements[i]), px, py, slack)) return elements[i];
  }
  return null;
}

/** Elements whose box meets the marquee. */
export function elementsInBox(elements: readonly Element[], marquee: Rect): Element[] {
  return elements.filter((e) => intersects(elementBox(e), marquee));
}

/** Which handles an element offers: a straight line only lengthens along itself. */
export function handlesFor(element: Element): readonly Handle[] {
  if (element.type === 'line') {
    if (element.h === 0) return ['e', 'w'];
    if (element.w === 0) return ['n', 's'];
  }
  return HANDLES;
}

/** Where a handle sits on a box. */
export function handlePoint(box: Rect, handle: Handle): { x: number; y: number } {
  const x = handle.includes('w') ? box.x : handle.includes('e') ? box.x + box.w : box.x + box.w / 2;
  const y = handle.includes('n') ? box.y : handle.includes('s') ? box.y + box.h : box.y + box.h / 2;
  return { x, y };
}

/** Which edges a handle moves. */
export function handleEdges(handle: Handle): { left: boolean; right: boolean; top: boolean; bottom: boolean } {
  return {
    left: handle.includes('w'),
    right: handle.includes('e'),
    top: handle.includes('n'),
    bottom: handle.includes('s'),
  };
}

/**
 * The box after dragging a handle by (dx, dy) from `start`: the handle's edges follow the pointer,
 * the opposite edges stay, and an edge dragged past its opposite stops `min` pixels short of it.
 * Results are whole pixels.
 */
export function resizeBox(start: Rect, handle: Handle, dx: number, dy: number, min = 1): Rect {
  const edges = handleEdges(handle);
  let left = start.x;
  let right = start.x + start.w;
  let top = start.y;
  let bottom = start.y + start.h;
  if (edges.left) left = Math.min(Math.round(left + dx), right - min);
  if (edges.right) right = Math.max(Math.round(right + dx), left + min);
  if (edges.top) top = Math.min(Math.round(top + dy), bottom - min);
  if (edges.bottom) bottom = Math.max(Math.round(bottom + dy), top + min);
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** Zoom steps offered by the editor, from a quarter to sixteen times the tag's pixels. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16] as const;

/** The next zoom step in a direction (+1 in, −1 out), from any current zoom. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((z) => z > zoom + 1e-9) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
  return [...ZOOM_STEPS].reverse().find((z) => z < zoom - 1e-9) ?? ZOOM_STEPS[0];
}

/** The largest zoom step at which a label fits the room (at least the smallest step). */
export function fitZoom(label: { w: number; h: number }, room: { w: number; h: number }): number {
  const fits = ZOOM_STEPS.filter((z) => label.w * z <= room.w && label.h * z <= room.h);
  return fits.length > 0 ? fits[fits.length - 1] : ZOOM_STEPS[0];
}
