import { type CanvasFactory, designSize, type Element, type LabelData, type TemplateDocument } from '@esl/labels';
import { type PointerEvent as ReactPointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { loadLabelImages } from '../../../editor/canvas';
import { setBoxes } from '../../../editor/commands';
import { dragMove, dragResize, snapTargetsFor } from '../../../editor/drag';
import { prepareLabelFonts } from '../../../editor/fonts';
import {
  boxFromPoints,
  elementBox,
  elementsInBox,
  type Handle,
  handlePoint,
  handlesFor,
  hitTest,
  type Rect,
} from '../../../editor/geometry';
import { type LabelRender, paintRender, renderLabel } from '../../../editor/paint';
import type { Guide } from '../../../editor/snap';
import { change, type EditorState, endGesture, select } from '../../../editor/state';
import type { EditorStore } from '../../../editor/store';

/** How near, in screen pixels, an edge must come to a line to snap to it. */
const SNAP_SCREEN_PX = 6;
/** Extra room around thin elements for picking them, in screen pixels. */
const PICK_SCREEN_PX = 4;

type Drag =
  | { kind: 'move'; x: number; y: number; start: Element[]; gesture: string }
  | { kind: 'resize'; x: number; y: number; start: Element; handle: Handle; gesture: string }
  | { kind: 'marquee'; x: number; y: number; base: readonly string[] };

interface Props {
  store: EditorStore;
  state: EditorState;
  data: LabelData;
  canvas: CanvasFactory;
  zoom: number;
  /** Grid pitch in label pixels (0: none). */
  grid: number;
  snap: boolean;
  outlines: boolean;
  /** Called after each render with the document and data it was drawn from. */
  onRendered: (render: LabelRender, doc: TemplateDocument, data: LabelData) => void;
}

let gestures = 0;

/**
 * The label at its pixel size, zoomed: the quantised render of the document (exactly what the tag
 * shows) on a canvas, with selection, handles, snap guides and the marquee drawn over it in HTML.
 */
export function Stage({ store, state, data, canvas, zoom, grid, snap, outlines, onRendered }: Props) {
  const { doc, selection } = state;
  const label = designSize(doc);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const [guides, setGuides] = useState<readonly Guide[]>([]);
  const [marquee, setMarquee] = useState<Rect | null>(null);
  const rendered = useRef(onRendered);
  rendered.current = onRendered;

  // Drawing is kept out of React: the newest document and data are drawn once per frame, after
  // their images have loaded (a drag changes the document many times a frame).
  useEffect(() => {
    let live = true;
    let frame = 0;
    // A script font that fails to load leaves its characters as boxes, which the render reports.
    const fonts = prepareLabelFonts(doc, data).catch(() => null);
    void Promise.all([loadLabelImages(doc, data), fonts]).then(([images]) => {
      if (!live) return;
      frame = requestAnimationFrame(() => {
        const target = canvasRef.current;
        if (!live || !target) return;
        const render = renderLabel(doc, data, canvas, images);
        paintRender(target, render);
        rendered.current(render, doc, data);
      });
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, [doc, data, canvas]);

  const selected = useMemo(() => doc.elements.filter((e) => selection.includes(e.id)), [doc, selection]);

  const point = (e: { clientX: number; clientY: number }) => {
    const r = overlayRef.current?.getBoundingClientRect();
    return { x: (e.clientX - (r?.left ?? 0)) / zoom, y: (e.clientY - (r?.top ?? 0)) / zoom };
  };

  const targets = (moving: ReadonlySet<string>, off: boolean) =>
    snap && !off ? snapTargetsFor(store.getState().doc.elements, moving, label, grid, SNAP_SCREEN_PX / zoom) : null;

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    overlayRef.current?.focus({ preventScroll: true });
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = point(e);
    const current = store.getState();
    const handle = (e.target as HTMLElement).dataset.handle as Handle | undefined;
    if (handle && selected.length === 1) {
      drag.current = { kind: 'resize', x: p.x, y: p.y, start: selected[0], handle, gesture: `resize-${++gestures}` };
      return;
    }
    const hit = hitTest(current.doc.elements, p.x, p.y, PICK_SCREEN_PX / zoom);
    if (!hit) {
      const base = e.shiftKey ? current.selection : [];
      store.update((s) => select(s, base));
      drag.current = { kind: 'marquee', x: p.x, y: p.y, base };
      return;
    }
    if (e.shiftKey) {
      const on = current.selection.includes(hit.id);
      store.update((s) => select(s, on ? s.selection.filter((id) => id !== hit.id) : [...s.selection, hit.id]));
      return;
    }
    const ids = current.selection.includes(hit.id) ? current.selection : [hit.id];
    store.update((s) => select(s, ids));
    const start = current.doc.elements.filter((el) => ids.includes(el.id));
    drag.current = { kind: 'move', x: p.x, y: p.y, start, gesture: `move-${++gestures}` };
  };

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const p = point(e);
    if (d.kind === 'marquee') {
      const box = boxFromPoints(d.x, d.y, p.x, p.y);
      setMarquee(box);
      const inside = elementsInBox(store.getState().doc.elements, box).map((el) => el.id);
      store.update((s) => select(s, [...d.base, ...inside.filter((id) => !d.base.includes(id))]));
      return;
    }
    if (d.kind === 'move') {
      const result = dragMove(d.start, p.x - d.x, p.y - d.y, targets(new Set(d.start.map((el) => el.id)), e.altKey));
      store.update((s) => change(s, (doc) => setBoxes(doc, result.boxes), { gesture: d.gesture }));
      setGuides(result.guides);
      return;
    }
    const result = dragResize(d.start, d.handle, p.x - d.x, p.y - d.y, targets(new Set([d.start.id]), e.altKey));
    store.update((s) => change(s, (doc) => setBoxes(doc, result.boxes), { gesture: d.gesture }));
    setGuides(result.guides);
  };

  const onPointerUp = () => {
    drag.current = null;
    setGuides([]);
    setMarquee(null);
    store.update(endGesture);
  };

  const px = (v: number) => v * zoom;
  const gridStyle =
    grid > 0 && grid * zoom >= 6
      ? {
          backgroundImage:
            'linear-gradient(to right, rgba(22,119,255,0.15) 1px, transparent 1px), linear-gradient(to bottom, rgba(22,119,255,0.15) 1px, transparent 1px)',
          backgroundSize: `${grid * zoom}px ${grid * zoom}px`,
        }
      : undefined;

  return (
    <div className="tmpl-stage" style={{ width: px(label.w), height: px(label.h) }}>
      <canvas
        ref={canvasRef}
        width={label.w}
        height={label.h}
        className="tmpl-stage-canvas"
        style={{ width: px(label.w), height: px(label.h) }}
        data-testid="editor-canvas"
      />
      <div
        ref={overlayRef}
        className="tmpl-stage-overlay"
        style={gridStyle}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas takes keyboard shortcuts when focused
        tabIndex={0}
        role="application"
        aria-label="label canvas"
        data-testid="editor-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        {outlines &&
          doc.elements.map((el) => {
            const b = elementBox(el);
            return (
              <div
                key={el.id}
                className="tmpl-outline"
                style={{ left: px(b.x), top: px(b.y), width: px(b.w), height: px(b.h) }}
              />
            );
          })}
        {selected.map((el) => {
          const b = elementBox(el);
          return (
            <div
              key={el.id}
              className="tmpl-selection"
              data-element={el.id}
              style={{ left: px(b.x), top: px(b.y), width: px(b.w), height: px(b.h) }}
            />
          );
        })}
        {selected.length === 1 &&
          handlesFor(selected[0]).map((h) => {
            const at = handlePoint(elementBox(selected[0]), h);
            return (
              <div
                key={h}
                className={`tmpl-handle tmpl-handle-${h}`}
                data-handle={h}
                style={{ left: px(at.x), top: px(at.y) }}
              />
            );
          })}
        {guides.map((g) => (
          <div
            key={`${g.axis}${g.at}`}
            className={`tmpl-guide tmpl-guide-${g.axis}`}
            style={g.axis === 'x' ? { left: px(g.at) } : { top: px(g.at) }}
          />
        ))}
        {marquee && (
          <div
            className="tmpl-marquee"
            style={{ left: px(marquee.x), top: px(marquee.y), width: px(marquee.w), height: px(marquee.h) }}
          />
        )}
      </div>
    </div>
  );
}
