import type { Canvas2D, CanvasFactory, LabelData, LabelImage, TemplateDocument } from '@esl/labels';
import { imageSources } from '@esl/labels';

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
        // A browser context is a Canvas2D as it is (packages/labels checks the types fit).
        ctx = canvas.getContext('2d', { willReadFrequently: true });
        if (!ctx) throw new Error('this browser has no 2D canvas');
        bySize.set(key, ctx);
      }
      const shared = ctx;
      return { getContext: () => shared };
    },
  };
}

/** Decoded images by source; a few are kept, as a template holds a few images at most. */
const decoded = new Map<string, Promise<LabelImage | null>>();
const KEEP_IMAGES = 32;

function decode(src: string): Promise<LabelImage | null> {
  let pending = decoded.get(src);
  if (!pending) {
    const image = new Image();
    image.src = src;
    pending = image.decode().then(
      () => image,
      () => null,
    );
    if (decoded.size >= KEEP_IMAGES) decoded.delete(decoded.keys().next().value as string);
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
