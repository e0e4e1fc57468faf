import type { CanvasFactory, DecodedImage, LabelData, LabelFonts, LabelImage, TemplateDocument } from '@esl/labels';
import { decodePngDataUrl, imageSources, softCanvasFactory } from '@esl/labels';

/**
 * Canvases for the label renderer: the label rasteriser of @esl/labels, which the server draws
 * with too, so the editor's picture is the tag's pixels (a browser canvas would anti-alias text
 * its own way). One is kept per size and reused.
 */
export function browserCanvasFactory(fonts: LabelFonts): CanvasFactory {
  return softCanvasFactory(fonts);
}

/** Decoded images by source; a few are kept, as a template holds a few images at most. */
const decoded = new Map<string, Promise<LabelImage | null>>();
const KEEP_IMAGES = 32;

/**
 * An image as the label rasteriser draws it: a PNG by @esl/labels' own decoder (as on the server),
 * other formats (JPEG) by the browser, read back as RGBA.
 */
async function decodeImage(src: string): Promise<DecodedImage> {
  const png = decodePngDataUrl(src);
  if (png) return png;
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser has no 2D canvas');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

function decode(src: string): Promise<LabelImage | null> {
  let pending = decoded.get(src);
  if (!pending) {
    pending = decodeImage(src).catch(() => null);
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
