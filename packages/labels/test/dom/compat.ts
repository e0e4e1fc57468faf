// Compiled against the DOM library by dom-types.test.ts: a browser canvas must be a Canvas2D.
import type { Canvas2D, CanvasFactory, LabelImage } from '../../src/canvas';

declare const element: HTMLCanvasElement;
declare const picture: HTMLImageElement;

export const ctx: Canvas2D | null = element.getContext('2d');
export const onPage: CanvasFactory = {
  createCanvas: (w, h) => Object.assign(document.createElement('canvas'), { width: w, height: h }),
};
export const offscreen: CanvasFactory = { createCanvas: (w, h) => new OffscreenCanvas(w, h) };
export const image: LabelImage = picture;
