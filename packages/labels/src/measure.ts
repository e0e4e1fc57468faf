import type { Canvas2D, PixelBlock, RgbaImage, TextMeasure } from './canvas';

const MEASURE_LIMIT = 4096;

/** The state the wrapper tracks, as last set through it; null when unknown. */
interface Tracked {
  font: string | null;
  fillStyle: unknown;
  textBaseline: string | null;
}

/**
 * A Canvas2D in front of a real context that skips what the native side would repeat: setting
 * the font, fill style or text baseline it already has (each set parses a string natively), and
 * measuring the same text in the same font again (a label measures each line while fitting and
 * again while drawing; prices and units repeat across products). Everything else goes straight
 * through, so the pixels are the same. save/restore keep track of that state as the real context
 * does. The wrapper is valid while only it draws on the context: `drawTemplate` makes one per call
 * (`measuringContext`), and forgets the state at the start.
 */
class MeasuringContext implements Canvas2D {
  private current: Tracked = { font: null, fillStyle: null, textBaseline: null };
  private readonly saved: Tracked[] = [];
  private readonly measures = new Map<string, TextMeasure>();
  private readonly missing = new Map<string, string[]>();

  constructor(
    readonly ctx: Canvas2D,
    readonly fontsVersion: number,
  ) {}

  /** Starts a drawing: the real context's state may have changed since the last one. */
  reset(): void {
    this.current = { font: null, fillStyle: null, textBaseline: null };
    this.saved.length = 0;
  }

  get font(): string {
    return this.current.font ?? this.ctx.font;
  }
  set font(value: string) {
    if (value === this.current.font) return;
    this.ctx.font = value;
    this.current.font = value;
  }
  get fillStyle(): unknown {
    return this.ctx.fillStyle;
  }
  set fillStyle(value: unknown) {
    // Only strings are compared: a gradient or pattern object may have changed since it was set.
    if (typeof value === 'string' && value === this.current.fillStyle) return;
    this.ctx.fillStyle = value;
    this.current.fillStyle = typeof value === 'string' ? value : null;
  }
  get strokeStyle(): unknown {
    return this.ctx.strokeStyle;
  }
  set strokeStyle(value: unknown) {
    this.ctx.strokeStyle = value;
  }
  get lineWidth(): number {
    return this.ctx.lineWidth;
  }
  set lineWidth(value: number) {
    this.ctx.lineWidth = value;
  }
  get lineCap(): string {
    return this.ctx.lineCap;
  }
  set lineCap(value: string) {
    this.ctx.lineCap = value;
  }
  get textBaseline(): string {
    return this.ctx.textBaseline;
  }
  set textBaseline(value: string) {
    if (value === this.current.textBaseline) return;
    this.ctx.textBaseline = value;
    this.current.textBaseline = value;
  }
  get imageSmoothingEnabled(): boolean {
    return this.ctx.imageSmoothingEnabled;
  }
  set imageSmoothingEnabled(value: boolean) {
    this.ctx.imageSmoothingEnabled = value;
  }

  save(): void {
    this.saved.push({ ...this.current });
    this.ctx.save();
  }
  restore(): void {
    // An unbalanced restore changes nothing on a real context either.
    const saved = this.saved.pop();
    if (saved) this.current = saved;
    this.ctx.restore();
  }
  measureText(text: string): TextMeasure {
    const font = this.font;
    const key = `${font}\n${text}`;
    let measure = this.measures.get(key);
    if (!measure) {
      const m = this.ctx.measureText(text);
      // Only the fields the renderer reads, copied: a native TextMetrics may be a live object.
      measure = {
        width: m.width,
        actualBoundingBoxAscent: m.actualBoundingBoxAscent,
        actualBoundingBoxDescent: m.actualBoundingBoxDescent,
        actualBoundingBoxLeft: m.actualBoundingBoxLeft,
        actualBoundingBoxRight: m.actualBoundingBoxRight,
      };
      if (this.measures.size >= MEASURE_LIMIT) this.measures.clear();
      this.measures.set(key, measure);
    }
    return measure;
  }
  missingGlyphs(text: string): string[] {
    // Kept with the measures: a store's labels repeat their texts.
    const key = `${this.font}\n\u0000${text}`;
    const known = this.missing.get(key);
    if (known) return known;
    const missing = this.ctx.missingGlyphs?.(text) ?? [];
    if (this.missing.size >= MEASURE_LIMIT) this.missing.clear();
    this.missing.set(key, missing);
    return missing;
  }
  hasFont(family: string): boolean {
    return this.ctx.hasFont?.(family) ?? true;
  }
  beginPath(): void {
    this.ctx.beginPath();
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.ctx.rect(x, y, w, h);
  }
  clip(): void {
    this.ctx.clip();
  }
  fill(): void {
    this.ctx.fill();
  }
  moveTo(x: number, y: number): void {
    this.ctx.moveTo(x, y);
  }
  lineTo(x: number, y: number): void {
    this.ctx.lineTo(x, y);
  }
  stroke(): void {
    this.ctx.stroke();
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    this.ctx.fillRect(x, y, w, h);
  }
  fillText(text: string, x: number, y: number): void {
    this.ctx.fillText(text, x, y);
  }
  drawImage(image: never, dx: number, dy: number, dw: number, dh: number): void {
    this.ctx.drawImage(image, dx, dy, dw, dh);
  }
  getImageData(x: number, y: number, w: number, h: number): RgbaImage {
    return this.ctx.getImageData(x, y, w, h);
  }
  createImageData(w: number, h: number): PixelBlock {
    return this.ctx.createImageData(w, h);
  }
  putImageData(image: PixelBlock, x: number, y: number): void {
    this.ctx.putImageData(image, x, y);
  }
}

const wrappers = new WeakMap<Canvas2D, MeasuringContext>();

/**
 * The measuring wrapper of a context, made once per context so its measurements are kept from
 * one label to the next, and reset: the font is re-set on first use, whatever happened to the
 * context in between.
 */
export function measuringContext(ctx: Canvas2D): Canvas2D {
  if (ctx instanceof MeasuringContext) return ctx;
  let wrapper = wrappers.get(ctx);
  const version = ctx.fontsVersion ?? 0;
  // Fonts changed: a new wrapper, so no measure nor layout (draw.ts keeps them per wrapper) is reused.
  if (!wrapper || wrapper.fontsVersion !== version) {
    wrapper = new MeasuringContext(ctx, version);
    wrappers.set(ctx, wrapper);
  }
  wrapper.reset();
  return wrapper;
}
