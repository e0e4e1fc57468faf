import type { IndexImage } from '@esl/labels';
import { COLOUR_SETS } from '@esl/labels';
import jpeg from 'jpeg-js';
import type { OeplTagType } from './types';

/**
 * The picture for `/imgupload`: our index image at the type's canvas size, each pixel the exact
 * colour-table RGB of its ink, as a baseline JPEG at quality 100 with no chroma subsampling
 * (jpeg-js writes SOF0 with 1×1 sampling for all three components). Uploaded with dither=0, the
 * AP's nearest-colour mapping gives back every pixel's ink.
 *
 * An image drawn in the other orientation (the catalogue's reading orientation against a portrait
 * canvas) is turned a quarter: clockwise, or anticlockwise when the type's `rotatebuffer` is 3.
 */
export function toJpeg(paged: IndexImage, type: OeplTagType): Uint8Array {
  const image = firstPage(paged, type);
  const rgb = paletteRgb(image, type);
  const { width: w, height: h } = image;
  let outW = w;
  let outH = h;
  let at = (x: number, y: number) => y * w + x;
  if (w === type.width && h === type.height) {
    // as drawn
  } else if (w === type.height && h === type.width) {
    outW = h;
    outH = w;
    // Output (x, y) of a clockwise turn takes source (y, h-1-x); anticlockwise (w-1-y, x).
    at = type.rotatebuffer === 3 ? (x, y) => x * w + (w - 1 - y) : (x, y) => (h - 1 - x) * w + y;
  } else {
    throw new RangeError(`image ${w}×${h} does not fit tag type ${type.name} (${type.width}×${type.height})`);
  }
  const data = Buffer.alloc(outW * outH * 4);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const c = rgb[image.data[at(x, y)]];
      const o = (y * outW + x) * 4;
      data[o] = c[0];
      data[o + 1] = c[1];
      data[o + 2] = c[2];
      data[o + 3] = 255;
    }
  }
  return new Uint8Array(jpeg.encode({ data, width: outW, height: outH }, 100).data);
}

/**
 * Page 1 of a label of several pages (docs/PROTOCOL.md §5.15: the pages stacked along the panel's
 * height). An OEPL AP holds one picture per tag, so the bridge lists no `page` kind and its tags
 * show page 1 (docs/PAGES.md). A one-page image is answered as it is.
 */
export function firstPage(image: IndexImage, type: OeplTagType): IndexImage {
  const { width: w, height: h } = image;
  const along = w === type.width ? type.height : w === type.height ? type.width : 0;
  if (along === 0 || h <= along || h % along !== 0) return image;
  return { ...image, height: along, data: image.data.subarray(0, w * along) };
}

/** Our ink indices → the type's colour-table RGB, by ink name. */
function paletteRgb(image: IndexImage, type: OeplTagType): (readonly [number, number, number])[] {
  const table = new Map(Object.entries(type.colortable).map(([k, v]) => [k.toLowerCase(), v] as const));
  return COLOUR_SETS[image.colourType].map((ink) => {
    const c = table.get(ink);
    if (!c) throw new RangeError(`tag type ${type.name} has no ${ink}`);
    return c;
  });
}
