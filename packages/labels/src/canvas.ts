/**
 * The part of CanvasRenderingContext2D the renderer uses. Labels are drawn on the label
 * rasteriser (raster.ts), in the editor and on the server alike, so both give the same pixels; a
 * browser canvas or an @napi-rs/canvas context satisfy it too (tests draw on them), but their text
 * differs from the rasteriser's by anti-aliasing. Styles are typed loosely (`unknown`) because the two libraries type them differently;
 * the renderer only ever assigns CSS colour strings.
 */
export interface Canvas2D {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineCap: string;
  font: string;
  textBaseline: string;
  imageSmoothingEnabled: boolean;
  save(): void;
  restore(): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  fill(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): TextMeasure;
  /**
   * Characters of a text that no font of the current font list can draw (the label rasteriser
   * knows; a browser or @napi-rs/canvas context does not say, and then nothing is reported).
   */
  missingGlyphs?(text: string): string[];
  /**
   * Whether a font family has a face on this context (the label rasteriser knows; a tenant's brand
   * family is known only on that tenant's canvases). A family it lacks is drawn in the base font
   * and reported. Absent: not known, nothing reported.
   */
  hasFont?(family: string): boolean;
  /**
   * Changes when the context's fonts change (a script font or the shaper loaded): what was
   * measured before is then measured again.
   */
  readonly fontsVersion?: number;
  /**
   * `image` is one the caller decoded for this kind of canvas (DrawOptions.images). It is typed
   * `never` so that every library's own image type (CanvasImageSource, @napi-rs/canvas Image) fits.
   */
  drawImage(image: never, dx: number, dy: number, dw: number, dh: number): void;
  getImageData(x: number, y: number, w: number, h: number): RgbaImage;
  createImageData(w: number, h: number): PixelBlock;
  putImageData(image: PixelBlock, x: number, y: number): void;
}

/** ImageData as createImageData makes it, loosely typed so every canvas library's type fits. */
export interface PixelBlock {
  readonly width: number;
  readonly height: number;
  readonly data: { [index: number]: number; readonly length: number };
}

export interface TextMeasure {
  readonly width: number;
  readonly actualBoundingBoxAscent: number;
  readonly actualBoundingBoxDescent: number;
  /** Ink left and right of the drawing point; where a context gives them, a text that stays inside its box is drawn unclipped. */
  readonly actualBoundingBoxLeft?: number;
  readonly actualBoundingBoxRight?: number;
}

/** A decoded image the canvas can draw (HTMLImageElement, ImageBitmap, @napi-rs/canvas Image). */
export interface LabelImage {
  readonly width: number;
  readonly height: number;
}

/** Pixels as ImageData holds them: RGBA, 4 bytes a pixel, rows top to bottom. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray | Uint8Array;
}

/** Makes canvases: `softCanvasFactory` (raster.ts) on both sides. */
export interface CanvasFactory {
  createCanvas(width: number, height: number): LabelCanvas;
}

/** A canvas as the renderer uses it. */
export interface LabelCanvas {
  getContext(kind: '2d'): Canvas2D | null;
  /**
   * Optional fast read of the whole canvas as straight (not premultiplied) RGBA, the same bytes
   * `getImageData(0, 0, width, height).data` gives; used instead of it when present. Only for
   * opaque canvases, where premultiplied and straight pixels are the same (@napi-rs/canvas's
   * `canvas.data()` with `alpha: false`, about a third cheaper than its getImageData).
   */
  readPixels?(): Uint8Array | Uint8ClampedArray;
}
