import type { Canvas2D, CanvasFactory, LabelData, LabelImage, TemplateDocument } from '@esl/labels';
import { imageSources } from '@esl/labels';

function drawable(image: LabelImage): CanvasImageSource {
  if (image instanceof HTMLImageElement || image instanceof ImageBitmap || image instanceof HTMLCanvasElement) {
    return image;
  }
  throw new Error('not a browser image');
}

/**
 * The browser's 2D context seen through the renderer's Canvas2D interface. The DOM types its
 * styles and images more narrowly than the interface (which also fits @napi-rs/canvas), so each
 * member is passed through here, checked where the types differ.
 */
export function adaptContext(ctx: CanvasRenderingContext2D): Canvas2D {
  return {
    get fillStyle() {
      return ctx.fillStyle;
    },
    set fillStyle(v: unknown) {
      if (typeof v === 'string') ctx.fillStyle = v;
    },
    get strokeStyle() {
      return ctx.strokeStyle;
    },
    set strokeStyle(v: unknown) {
      if (typeof v === 'string') ctx.strokeStyle = v;
    },
    get lineWidth() {
      return ctx.lineWidth;
    },
    set lineWidth(v: number) {
      ctx.lineWidth = v;
    },
    get lineCap() {
      return ctx.lineCap;
    },
    set lineCap(v: string) {
      if (v === 'butt' || v === 'round' || v === 'square') ctx.lineCap = v;
    },
    get font() {
      return ctx.font;
    },
    set font(v: string) {
      ctx.font = v;
    },
    get textBaseline() {
      return ctx.textBaseline;
    },
    set textBaseline(v: string) {
      const values: readonly CanvasTextBaseline[] = ['alphabetic', 'bottom', 'hanging', 'ideographic', 'middle', 'top'];
      const found = values.find((b) => b === v);
      if (found) ctx.textBaseline = found;
    },
    get imageSmoothingEnabled() {
      return ctx.imageSmoothingEnabled;
    },
    set imageSmoothingEnabled(v: boolean) {
      ctx.imageSmoothingEnabled = v;
    },
    save: () => ctx.save(),
    restore: () => ctx.restore(),
    beginPath: () => ctx.beginPath(),
    rect: (x, y, w, h) => ctx.rect(x, y, w, h),
    clip: () => ctx.clip(),
    fill: () => ctx.fill(),
    moveTo: (x, y) => ctx.moveTo(x, y),
    lineTo: (x, y) => ctx.lineTo(x, y),
    stroke: () => ctx.stroke(),
    fillRect: (x, y, w, h) => ctx.fillRect(x, y, w, h),
    fillText: (text, x, y) => ctx.fillText(text, x, y),
    measureText: (text) => ctx.measureText(text),
    drawImage(image: LabelImage, ...args: number[]) {
      const source = drawable(image);
      if (args.length === 8) {
        const [sx, sy, sw, sh, dx, dy, dw, dh] = args;
        ctx.drawImage(source, sx, sy, sw, sh, dx, dy, dw, dh);
      } else {
        const [dx, dy, dw, dh] = args;
        ctx.drawImage(source, dx, dy, dw, dh);
      }
    },
    getImageData: (x, y, w, h) => ctx.getImageData(x, y, w, h),
    createImageData: (w, h) => ctx.createImageData(w, h),
    putImageData(image, x, y) {
      if (!(image instanceof ImageData)) throw new Error('not browser image data');
      ctx.putImageData(image, x, y);
    },
  };
}

/**
 * Browser canvases for the label renderer, one kept per size and reused (drawing and reading back
 * happen in one synchronous call, so renders never share pixels). Read back often, so the context
 * is asked to keep its pixels in memory.
 */
export function browserCanvasFactory(): CanvasFactory {
  const bySize = new Map<string, Canvas2D>();
  return {
    createCanvas(width: number, height: number) {
      const key = `${width}x${height}`;
      let ctx = bySize.get(key) ?? null;
      if (!ctx) {
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const made = canvas.getContext('2d', { willReadFrequently: true });
        if (!made) throw new Error('this browser has no 2D canvas');
        ctx = adaptContext(made);
        bySize.set(key, ctx);
      }
      const shared = ctx;
      return { getContext: () => shared };
    },
  };
}

const decoded = new Map<string, Promise<LabelImage | null>>();

function decode(src: string): Promise<LabelImage | null> {
  let pending = decoded.get(src);
  if (!pending) {
    const image = new Image();
    image.src = src;
    pending = image.decode().then(
      () => image,
      () => null,
    );
    decoded.set(src, pending);
  }
  return pending;
}

/** Decodes the images a label needs (data URLs); those that fail are left out, as on the server. */
export async function loadLabelImages(doc: TemplateDocument, data: LabelData): Promise<Map<string, LabelImage>> {
  const images = new Map<string, LabelImage>();
  await Promise.all(
    imageSources(doc, data).map(async (src) => {
      const image = await decode(src);
      if (image) images.set(src, image);
    }),
  );
  return images;
}
