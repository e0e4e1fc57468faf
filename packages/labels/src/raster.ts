import type { Canvas2D, CanvasFactory, LabelCanvas, PixelBlock, RgbaImage, TextMeasure } from './canvas';
import type { FontFile, Glyph } from './font';
import { FONT_FAMILY } from './model/document';
import { glyphOf, needsGlyph } from './scripts';
import { needsShaping, type ShapedLine, type Shaper, shapeLine } from './shape';

/**
 * The label rasteriser: a Canvas2D drawn by this TypeScript code alone, into an RGBA buffer. The
 * editor (in the browser) and the server draw labels through it, so the designer's picture and the
 * tag's image are the same pixels: nothing depends on a canvas library, a font engine or a GPU.
 * Only IEEE arithmetic (+ − × ÷ and square roots, which every JavaScript engine rounds alike)
 * decides a pixel.
 *
 * It does what the renderer asks of a canvas (draw.ts), no more:
 * - fillRect, and fill/stroke of paths made of rect, moveTo and lineTo (straight lines, butt caps);
 * - clip to rectangles (the renderer clips only to element boxes, whole pixels);
 * - fillText / measureText with the alphabetic baseline, glyphs drawn from the TrueType outlines
 *   of the registered font files (font.ts), anti-aliased by exact area coverage, placed at quarter
 *   pixels; a character the first family lacks is taken from the next family of the font list;
 * - drawImage of decoded RGBA pixels (DecodedImage), resampled by averaging 4 × 4 samples a pixel;
 * - getImageData, createImageData, putImageData.
 * Colours are CSS `rgb(r,g,b)` or `#rrggbb` strings.
 */

/** A decoded image as the rasteriser draws it: straight (not premultiplied) RGBA. */
export interface DecodedImage extends RgbaImage {}

/** The font files text is drawn with, by family and weight. */
export interface LabelFonts {
  /** The face of a family (bold or regular; a family without bold gives its regular), or null. */
  face(family: string, bold: boolean): FontFile | null;
  /**
   * Faces tried, in order, for a character none of an element's families has (the fallback
   * chain: every registered family, in the order registered). Optional for hand-made sets.
   */
  fallbacks?(bold: boolean): readonly FontFile[];
  /** Changes when faces are added: a canvas then forgets the fonts it resolved. */
  readonly version?: number;
  /** Shapes texts (shape.ts, `needsShaping`); without one every text is drawn a glyph a character. */
  readonly shaper?: Shaper | null;
}

/** A face of a family at a weight; weight 600 and above is bold. */
export interface FontFace {
  readonly family: string;
  readonly weight: number | string;
  readonly font: FontFile;
}

/**
 * A font set faces may be added to (the editor loads a script's font when a text first needs it):
 * each family is a link of the fallback chain, in the order its first face was added.
 */
export class FontLibrary implements LabelFonts {
  private readonly byFamily = new Map<string, { regular?: FontFile; bold?: FontFile }>();
  private changes = 0;

  /**
   * `order`: the families of the fallback chain, in order (a family not named there, a
   * tenant's brand font, is drawn only where an element names it); without it every family is
   * a link, in the order added.
   */
  constructor(
    faces: readonly FontFace[] = [],
    private readonly order?: readonly string[],
  ) {
    this.add(faces);
  }

  private shaping: Shaper | null = null;

  get version(): number {
    return this.changes;
  }

  get shaper(): Shaper | null {
    return this.shaping;
  }

  /** Sets the shaper (once HarfBuzz has loaded); texts are drawn anew with it. */
  set shaper(shaper: Shaper | null) {
    if (shaper === this.shaping) return;
    this.shaping = shaper;
    this.changes++;
  }

  /** Whether a family has a face. */
  has(family: string): boolean {
    return this.byFamily.has(family.toLowerCase());
  }

  add(faces: readonly FontFace[]): void {
    for (const { family, weight, font } of faces) {
      const key = family.toLowerCase();
      const entry = this.byFamily.get(key) ?? {};
      if (Number(weight) >= 600) entry.bold = font;
      else entry.regular = font;
      this.byFamily.set(key, entry);
    }
    if (faces.length > 0) this.changes++;
  }

  face(family: string, bold: boolean): FontFile | null {
    const entry = this.byFamily.get(family.toLowerCase());
    if (!entry) return null;
    return (bold ? (entry.bold ?? entry.regular) : (entry.regular ?? entry.bold)) ?? null;
  }

  fallbacks(bold: boolean): FontFile[] {
    const families = this.order ?? [...this.byFamily.keys()];
    return families.flatMap((family) => this.face(family, bold) ?? []);
  }
}

/** A font set from parsed font files; weight 600 and above is bold. */
export function labelFonts(faces: readonly FontFace[]): FontLibrary {
  return new FontLibrary(faces);
}

/** Canvases drawn by the label rasteriser, one kept per size and reused (renders are synchronous). */
export function softCanvasFactory(fonts: LabelFonts): CanvasFactory {
  const bySize = new Map<string, SoftCanvas>();
  return {
    createCanvas(width: number, height: number): LabelCanvas {
      const key = `${width}x${height}`;
      let canvas = bySize.get(key);
      if (!canvas) {
        canvas = new SoftCanvas(width, height, fonts);
        bySize.set(key, canvas);
      }
      return canvas;
    },
  };
}

/** Glyphs are placed at quarter pixels across; a glyph's pixels are kept per quarter. */
const SUBPIXELS = 4;
const GLYPHS_PER_FONT = 4096;

interface GlyphBitmap {
  /** Offset of the bitmap's top left from the pen position (whole pixels; top is up from the baseline). */
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  /** Coverage 0–255, rows top to bottom. */
  readonly alpha: Uint8Array;
}

interface Font {
  readonly size: number;
  /** Fonts to take glyphs from, in order; the first is the main one. */
  readonly faces: readonly FontFile[];
  /**
   * Lines shaped in these faces, by text, at size 1 (positions in ems): shared by every size of
   * the same faces, so fitting a text at several sizes shapes each candidate line once.
   */
  readonly shaped: Map<string, ShapedLine>;
}

const SHAPED_PER_FONT = 2048;

interface State {
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  lineCap: string;
  font: string;
  textBaseline: string;
  imageSmoothingEnabled: boolean;
  /** The clip rectangle, whole pixels: [left, top, right, bottom). */
  clip: [number, number, number, number];
}

type Rgb = readonly [number, number, number];

const colours = new Map<string, Rgb>();

function parseColour(css: string): Rgb {
  let rgb = colours.get(css);
  if (rgb) return rgb;
  const hex = /^#([0-9a-f]{6})$/i.exec(css.trim());
  const fn = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*1(?:\.0*)?\s*)?\)$/i.exec(css.trim());
  if (hex) {
    const n = Number.parseInt(hex[1], 16);
    rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  } else if (fn) {
    rgb = [Math.min(255, Number(fn[1])), Math.min(255, Number(fn[2])), Math.min(255, Number(fn[3]))];
  } else {
    throw new Error(`the label rasteriser takes opaque rgb() or #rrggbb colours, not "${css}"`);
  }
  colours.set(css, rgb);
  return rgb;
}

const glyphBitmaps = new WeakMap<FontFile, Map<string, GlyphBitmap>>();

/** A canvas whose pixels this code draws: see the file's comment. */
export class SoftCanvas implements LabelCanvas, Canvas2D {
  readonly data: Uint8ClampedArray;
  private readonly words: Uint32Array;
  private state: State;
  private readonly stack: State[] = [];
  /** The current path: closed polygons (rect) and open polylines (moveTo/lineTo), flat x, y pairs. */
  private path: { points: number[]; closed: boolean }[] = [];
  private readonly fonts = new Map<string, Font>();
  /** Shaped lines by faces (weight and families), for every size: Font.shaped. */
  private readonly shapedByFaces = new Map<string, Map<string, ShapedLine>>();
  private resolvedVersion = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly fontSet: LabelFonts,
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
    this.words = new Uint32Array(this.data.buffer);
    this.state = {
      fillStyle: '#000000',
      strokeStyle: '#000000',
      lineWidth: 1,
      lineCap: 'butt',
      font: `10px "${FONT_FAMILY}"`,
      textBaseline: 'alphabetic',
      imageSmoothingEnabled: true,
      clip: [0, 0, width, height],
    };
  }

  getContext(): Canvas2D {
    return this;
  }
  get fontsVersion(): number {
    return this.fontSet.version ?? 0;
  }
  readPixels(): Uint8ClampedArray {
    return this.data;
  }

  get fillStyle(): unknown {
    return this.state.fillStyle;
  }
  set fillStyle(value: unknown) {
    if (typeof value !== 'string') throw new Error('the label rasteriser takes colour strings only');
    parseColour(value);
    this.state.fillStyle = value;
  }
  get strokeStyle(): unknown {
    return this.state.strokeStyle;
  }
  set strokeStyle(value: unknown) {
    if (typeof value !== 'string') throw new Error('the label rasteriser takes colour strings only');
    parseColour(value);
    this.state.strokeStyle = value;
  }
  get lineWidth(): number {
    return this.state.lineWidth;
  }
  set lineWidth(value: number) {
    if (Number.isFinite(value) && value > 0) this.state.lineWidth = value;
  }
  get lineCap(): string {
    return this.state.lineCap;
  }
  set lineCap(value: string) {
    this.state.lineCap = value;
  }
  get font(): string {
    return this.state.font;
  }
  set font(value: string) {
    this.state.font = value;
  }
  get textBaseline(): string {
    return this.state.textBaseline;
  }
  set textBaseline(value: string) {
    this.state.textBaseline = value;
  }
  get imageSmoothingEnabled(): boolean {
    return this.state.imageSmoothingEnabled;
  }
  set imageSmoothingEnabled(value: boolean) {
    this.state.imageSmoothingEnabled = value;
  }

  save(): void {
    this.stack.push({ ...this.state, clip: [...this.state.clip] });
  }
  restore(): void {
    const saved = this.stack.pop();
    if (saved) this.state = saved;
  }

  beginPath(): void {
    this.path = [];
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.path.push({ points: [x, y, x + w, y, x + w, y + h, x, y + h], closed: true });
  }
  moveTo(x: number, y: number): void {
    this.path.push({ points: [x, y], closed: false });
  }
  lineTo(x: number, y: number): void {
    const last = this.path[this.path.length - 1];
    if (!last || last.closed) this.path.push({ points: [x, y], closed: false });
    else last.points.push(x, y);
  }
  clip(): void {
    const [only] = this.path;
    const p = only?.points;
    const isRect =
      this.path.length === 1 && only.closed && p.length === 8 && p[1] === p[3] && p[2] === p[4] && p[5] === p[7];
    if (!isRect) throw new Error('the label rasteriser clips to one rectangle only');
    const [l, t, r, b] = this.state.clip;
    const x0 = Math.round(Math.min(p[0], p[2]));
    const x1 = Math.round(Math.max(p[0], p[2]));
    const y0 = Math.round(Math.min(p[1], p[5]));
    const y1 = Math.round(Math.max(p[1], p[5]));
    this.state.clip = [Math.max(l, x0), Math.max(t, y0), Math.min(r, x1), Math.min(b, y1)];
  }
  fill(): void {
    // Every subpath is closed for filling, as a canvas does.
    this.fillPolygons(
      this.path.map((s) => s.points),
      parseColour(this.state.fillStyle),
    );
  }
  stroke(): void {
    const half = this.state.lineWidth / 2;
    const polygons: number[][] = [];
    for (const { points, closed } of this.path) {
      const n = points.length / 2;
      const segments = closed ? n : n - 1;
      for (let i = 0; i < segments; i++) {
        const j = (i + 1) % n;
        const [x0, y0, x1, y1] = [points[2 * i], points[2 * i + 1], points[2 * j], points[2 * j + 1]];
        const length = Math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
        if (length === 0) continue;
        // Butt caps: the segment widened by half the line width to each side.
        const nx = (-(y1 - y0) / length) * half;
        const ny = ((x1 - x0) / length) * half;
        polygons.push([x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny]);
      }
    }
    this.fillPolygons(polygons, parseColour(this.state.strokeStyle));
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    if (w < 0) [x, w] = [x + w, -w];
    if (h < 0) [y, h] = [y + h, -h];
    const rgb = parseColour(this.state.fillStyle);
    if (!(Number.isInteger(x) && Number.isInteger(y) && Number.isInteger(w) && Number.isInteger(h))) {
      this.fillPolygons([[x, y, x + w, y, x + w, y + h, x, y + h]], rgb);
      return;
    }
    const [l, t, r, b] = this.state.clip;
    const x0 = Math.max(l, x);
    const x1 = Math.min(r, x + w);
    const y0 = Math.max(t, y);
    const y1 = Math.min(b, y + h);
    if (x1 <= x0 || y1 <= y0) return;
    const word = rgbaWord(rgb);
    for (let row = y0; row < y1; row++) this.words.fill(word, row * this.width + x0, row * this.width + x1);
  }

  fillText(text: string, x: number, y: number): void {
    if (this.state.textBaseline !== 'alphabetic')
      throw new Error('the label rasteriser draws on the alphabetic baseline');
    const font = this.currentFont();
    const rgb = parseColour(this.state.fillStyle);
    const baseline = Math.round(y);
    const shaped = this.shaped(font, text);
    if (shaped) {
      for (const g of shaped.glyphs) {
        const glyph = g.face.glyph(g.glyph);
        if (glyph.contours.length === 0) continue;
        const placed = Math.round((x + g.x * font.size) * SUBPIXELS) / SUBPIXELS;
        const whole = Math.floor(placed);
        const bitmap = glyphBitmap(g.face, glyph, font.size, placed - whole);
        const top = baseline - Math.round(g.y * font.size) - bitmap.top;
        this.blend(bitmap.alpha, bitmap.width, bitmap.height, whole + bitmap.left, top, rgb);
      }
      return;
    }
    let pen = x;
    for (const char of text) {
      const [face, glyph] = this.glyphFor(font, char);
      const s = font.size / face.unitsPerEm;
      if (glyph.contours.length > 0) {
        const placed = Math.round(pen * SUBPIXELS) / SUBPIXELS;
        const whole = Math.floor(placed);
        const bitmap = glyphBitmap(face, glyph, font.size, placed - whole);
        this.blend(bitmap.alpha, bitmap.width, bitmap.height, whole + bitmap.left, baseline - bitmap.top, rgb);
      }
      pen += glyph.advance * s;
    }
  }

  measureText(text: string): TextMeasure {
    const font = this.currentFont();
    let pen = 0;
    let left = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    let ascent = Number.NEGATIVE_INFINITY;
    let descent = Number.NEGATIVE_INFINITY;
    const shaped = this.shaped(font, text);
    for (const g of shaped?.glyphs ?? []) {
      const glyph = g.face.glyph(g.glyph);
      if (glyph.contours.length === 0) continue;
      const s = font.size / g.face.unitsPerEm;
      const placed = Math.round(g.x * font.size * SUBPIXELS) / SUBPIXELS;
      const dy = Math.round(g.y * font.size);
      left = Math.min(left, placed + glyph.xMin * s);
      right = Math.max(right, placed + glyph.xMax * s);
      ascent = Math.max(ascent, dy + glyph.yMax * s);
      descent = Math.max(descent, -dy - glyph.yMin * s);
    }
    if (shaped) pen = shaped.width * font.size;
    for (const char of shaped ? '' : text) {
      const [face, glyph] = this.glyphFor(font, char);
      const s = font.size / face.unitsPerEm;
      if (glyph.contours.length > 0) {
        // Where fillText puts this glyph from a whole-pixel origin.
        const placed = Math.round(pen * SUBPIXELS) / SUBPIXELS;
        left = Math.min(left, placed + glyph.xMin * s);
        right = Math.max(right, placed + glyph.xMax * s);
        ascent = Math.max(ascent, glyph.yMax * s);
        descent = Math.max(descent, -glyph.yMin * s);
      }
      pen += glyph.advance * s;
    }
    if (left === Number.POSITIVE_INFINITY) {
      return {
        width: pen,
        actualBoundingBoxAscent: 0,
        actualBoundingBoxDescent: 0,
        actualBoundingBoxLeft: 0,
        actualBoundingBoxRight: 0,
      };
    }
    return {
      width: pen,
      actualBoundingBoxAscent: ascent,
      actualBoundingBoxDescent: descent,
      actualBoundingBoxLeft: -left,
      actualBoundingBoxRight: right,
    };
  }

  /** Whether a family has a face in this canvas's font set (else text in it is drawn in the base font). */
  hasFont(family: string): boolean {
    return this.fontSet.face(family, false) !== null;
  }

  /** Characters of a text that no face of the current font (its families and the fallbacks) can draw. */
  missingGlyphs(text: string): string[] {
    const font = this.currentFont();
    const missing: string[] = [];
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      if (!needsGlyph(code) || missing.includes(char)) continue;
      if (font.faces.every((face) => glyphOf(face, code) === 0)) missing.push(char);
    }
    return missing;
  }

  drawImage(image: never, dx: number, dy: number, dw: number, dh: number): void {
    const source = image as Partial<DecodedImage>;
    if (!source.data || !source.width || !source.height) {
      throw new Error('the label rasteriser draws decoded images only (RGBA pixels)');
    }
    const { width: sw, height: sh, data: src } = source as DecodedImage;
    const [l, t, r, b] = this.state.clip;
    const x0 = Math.max(l, Math.round(dx));
    const y0 = Math.max(t, Math.round(dy));
    const x1 = Math.min(r, Math.round(dx + dw));
    const y1 = Math.min(b, Math.round(dy + dh));
    if (x1 <= x0 || y1 <= y0 || dw <= 0 || dh <= 0) return;
    const out = this.data;
    const N = 4;
    for (let py = y0; py < y1; py++) {
      for (let px = x0; px < x1; px++) {
        let ra = 0;
        let ga = 0;
        let ba = 0;
        let aa = 0;
        for (let j = 0; j < N; j++) {
          const sy = Math.min(sh - 1, Math.max(0, Math.floor(((py - dy + (j + 0.5) / N) * sh) / dh)));
          for (let i = 0; i < N; i++) {
            const sx = Math.min(sw - 1, Math.max(0, Math.floor(((px - dx + (i + 0.5) / N) * sw) / dw)));
            const p = (sy * sw + sx) * 4;
            const a = src[p + 3];
            ra += src[p] * a;
            ga += src[p + 1] * a;
            ba += src[p + 2] * a;
            aa += a;
          }
        }
        if (aa === 0) continue;
        const alpha = Math.round(aa / (N * N));
        const q = (py * this.width + px) * 4;
        out[q] = mix(out[q], Math.round(ra / aa), alpha);
        out[q + 1] = mix(out[q + 1], Math.round(ga / aa), alpha);
        out[q + 2] = mix(out[q + 2], Math.round(ba / aa), alpha);
        out[q + 3] = 255;
      }
    }
  }

  getImageData(x: number, y: number, w: number, h: number): RgbaImage {
    const data = new Uint8ClampedArray(w * h * 4);
    for (let row = 0; row < h; row++) {
      const sy = y + row;
      if (sy < 0 || sy >= this.height) continue;
      for (let col = 0; col < w; col++) {
        const sx = x + col;
        if (sx < 0 || sx >= this.width) continue;
        const from = (sy * this.width + sx) * 4;
        data.set(this.data.subarray(from, from + 4), (row * w + col) * 4);
      }
    }
    return { width: w, height: h, data };
  }
  createImageData(w: number, h: number): PixelBlock {
    return { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  }
  putImageData(image: PixelBlock, x: number, y: number): void {
    const { width: w, height: h, data } = image;
    const bytes =
      data instanceof Uint8ClampedArray || data instanceof Uint8Array
        ? data
        : Uint8Array.from(data as ArrayLike<number>);
    const col0 = Math.max(0, -x);
    const col1 = Math.min(w, this.width - x);
    if (col1 <= col0) return;
    for (let row = Math.max(0, -y); row < h && y + row < this.height; row++) {
      const from = (row * w + col0) * 4;
      this.data.set(bytes.subarray(from, (row * w + col1) * 4), ((y + row) * this.width + x + col0) * 4);
    }
  }

  private currentFont(): Font {
    const css = this.state.font;
    const version = this.fontSet.version ?? 0;
    if (version !== this.resolvedVersion) {
      // Faces were added (a script's font loaded): resolve every font again.
      this.fonts.clear();
      this.shapedByFaces.clear();
      this.resolvedVersion = version;
    }
    let font = this.fonts.get(css);
    if (!font) {
      const match = /^\s*(?:(normal|bold|[1-9]00)\s+)?([\d.]+)px\s+(.+)$/.exec(css);
      if (!match) throw new Error(`the label rasteriser cannot read the font "${css}"`);
      const bold = match[1] === 'bold' || Number(match[1]) >= 600;
      const families = match[3].split(',').map((f) => f.trim().replace(/^["']|["']$/g, ''));
      const faces = families.flatMap((family) => this.fontSet.face(family, bold) ?? []);
      if (faces.length === 0) {
        const fallback = this.fontSet.face(FONT_FAMILY, bold);
        if (!fallback) throw new Error(`no font file for "${css}"`);
        faces.push(fallback);
      }
      for (const face of this.fontSet.fallbacks?.(bold) ?? []) if (!faces.includes(face)) faces.push(face);
      const key = `${bold ? 'bold' : 'regular'} ${families.join(',')}`;
      let shaped = this.shapedByFaces.get(key);
      if (!shaped) {
        shaped = new Map();
        this.shapedByFaces.set(key, shaped);
      }
      font = { size: Number(match[2]), faces, shaped };
      this.fonts.set(css, font);
    }
    return font;
  }

  /**
   * A text shaped (kerning, ligatures, bidi, marks) when it needs it and a shaper is loaded, else
   * null; at size 1 (ems), kept for every size of these faces.
   */
  private shaped(font: Font, text: string): ShapedLine | null {
    const shaper = this.fontSet.shaper;
    if (!shaper || !needsShaping(text)) return null;
    let line = font.shaped.get(text);
    if (!line) {
      line = shapeLine(shaper, font.faces, 1, text);
      if (font.shaped.size >= SHAPED_PER_FONT) font.shaped.clear();
      font.shaped.set(text, line);
    }
    return line;
  }

  /** The glyph of a character: from the first face that has it, else the first face's "missing" glyph. */
  private glyphFor(font: Font, char: string): [FontFile, Glyph] {
    const code = char.codePointAt(0) ?? 0;
    for (const face of font.faces) {
      const id = glyphOf(face, code);
      if (id !== 0) return [face, face.glyph(id)];
    }
    return [font.faces[0], font.faces[0].glyph(0)];
  }

  /** Paints coverage (0–255) in a colour at (x, y), inside the clip. */
  private blend(alpha: Uint8Array, w: number, h: number, x: number, y: number, rgb: Rgb): void {
    const [l, t, r, b] = this.state.clip;
    const col0 = Math.max(0, l - x);
    const col1 = Math.min(w, r - x);
    const row0 = Math.max(0, t - y);
    const row1 = Math.min(h, b - y);
    const out = this.data;
    const word = rgbaWord(rgb);
    for (let row = row0; row < row1; row++) {
      let q = (y + row) * this.width + x + col0;
      for (let col = col0, a = row * w + col0; col < col1; col++, a++, q++) {
        const cover = alpha[a];
        if (cover === 0) continue;
        if (cover === 255) {
          this.words[q] = word;
          continue;
        }
        const p = q * 4;
        out[p] = mix(out[p], rgb[0], cover);
        out[p + 1] = mix(out[p + 1], rgb[1], cover);
        out[p + 2] = mix(out[p + 2], rgb[2], cover);
        out[p + 3] = 255;
      }
    }
  }

  private fillPolygons(polygons: readonly (readonly number[])[], rgb: Rgb): void {
    let [xMin, yMin, xMax, yMax] = [
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (const p of polygons) {
      for (let i = 0; i < p.length; i += 2) {
        xMin = Math.min(xMin, p[i]);
        xMax = Math.max(xMax, p[i]);
        yMin = Math.min(yMin, p[i + 1]);
        yMax = Math.max(yMax, p[i + 1]);
      }
    }
    const [l, t, r, b] = this.state.clip;
    const x0 = Math.max(l, Math.floor(xMin));
    const y0 = Math.max(t, Math.floor(yMin));
    const x1 = Math.min(r, Math.ceil(xMax));
    const y1 = Math.min(b, Math.ceil(yMax));
    if (x1 <= x0 || y1 <= y0) return;
    const cover = new Coverage(x1 - x0, y1 - y0);
    for (const p of polygons) {
      const n = p.length / 2;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        cover.line(p[2 * i] - x0, p[2 * i + 1] - y0, p[2 * j] - x0, p[2 * j + 1] - y0);
      }
    }
    this.blend(cover.alpha(), x1 - x0, y1 - y0, x0, y0, rgb);
  }
}

/** `from` moved towards `to` by cover/255, rounded. */
function mix(from: number, to: number, cover: number): number {
  return from + Math.round(((to - from) * cover) / 255);
}

const words = new Map<Rgb, number>();

/** An opaque colour as the 32-bit word its RGBA bytes make in this platform's byte order. */
function rgbaWord(rgb: Rgb): number {
  let word = words.get(rgb);
  if (word === undefined) {
    word = new Uint32Array(Uint8Array.of(rgb[0], rgb[1], rgb[2], 255).buffer)[0];
    words.set(rgb, word);
  }
  return word;
}

/**
 * Exact area coverage of polygons (non-zero winding, overlaps counted once), by accumulating each
 * edge's signed area into the cells it crosses and summing along rows. Edges may lie outside the
 * area: what lies left of it covers the whole row, what lies above or below or right does nothing.
 */
class Coverage {
  private readonly acc: Float64Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.acc = new Float64Array((width + 2) * height);
  }

  line(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return;
    let dir = 1;
    if (y0 > y1) {
      [x0, y0, x1, y1] = [x1, y1, x0, y0];
      dir = -1;
    }
    const dxdy = (x1 - x0) / (y1 - y0);
    const end = Math.min(this.height, Math.ceil(y1));
    for (let row = Math.max(0, Math.floor(y0)); row < end; row++) {
      const ya = Math.max(row, y0);
      const yb = Math.min(row + 1, y1);
      if (yb <= ya) continue;
      this.cells(row, x0 + (ya - y0) * dxdy, x0 + (yb - y0) * dxdy, (yb - ya) * dir);
    }
  }

  /** One row's share of an edge: from xa to xb (either order), `dy` of the row's height, signed. */
  private cells(row: number, xa: number, xb: number, dy: number): void {
    const w = this.width;
    const base = row * (w + 2);
    let lo = Math.min(Math.max(Math.min(xa, xb), 0), w);
    const hi = Math.min(Math.max(Math.max(xa, xb), 0), w);
    const first = Math.floor(lo);
    if (hi - lo === 0 || Math.floor(hi) === first || hi === first + 1) {
      const mid = (lo + hi) / 2 - first;
      this.acc[base + first] += dy * (1 - mid);
      this.acc[base + first + 1] += dy * mid;
      return;
    }
    const span = hi - lo;
    for (let cell = first; lo < hi; cell++) {
      const next = Math.min(cell + 1, hi);
      const part = (dy * (next - lo)) / span;
      const mid = (lo + next) / 2 - cell;
      this.acc[base + cell] += part * (1 - mid);
      this.acc[base + cell + 1] += part * mid;
      lo = next;
    }
  }

  /** Coverage 0–255 per pixel. */
  alpha(): Uint8Array {
    const { width: w, height: h, acc } = this;
    const out = new Uint8Array(w * h);
    for (let row = 0; row < h; row++) {
      let sum = 0;
      const base = row * (w + 2);
      for (let col = 0; col < w; col++) {
        sum += acc[base + col];
        const c = sum < 0 ? -sum : sum;
        out[row * w + col] = c >= 1 ? 255 : Math.round(c * 255);
      }
    }
    return out;
  }
}

/** A glyph's coverage at a size, placed `shift` (a multiple of 1/SUBPIXELS) right of a whole pixel. */
function glyphBitmap(face: FontFile, glyph: Glyph, size: number, shift: number): GlyphBitmap {
  let cache = glyphBitmaps.get(face);
  if (!cache) {
    cache = new Map();
    glyphBitmaps.set(face, cache);
  }
  const key = `${glyph.id} ${size} ${shift}`;
  let bitmap = cache.get(key);
  if (bitmap) return bitmap;
  const s = size / face.unitsPerEm;
  const left = Math.floor(shift + glyph.xMin * s);
  const right = Math.ceil(shift + glyph.xMax * s);
  const top = Math.ceil(glyph.yMax * s);
  const bottom = Math.floor(glyph.yMin * s);
  const width = Math.max(1, right - left);
  const height = Math.max(1, top - bottom);
  const cover = new Coverage(width, height);
  const px = (x: number) => shift + x * s - left;
  const py = (y: number) => top - y * s;
  for (const contour of glyph.contours) {
    const n = contour.length;
    // Start on a point on the curve; with none at either end, at the implied one between them.
    const last = contour[n - 1];
    let points: readonly { x: number; y: number; on: boolean }[];
    let start: { x: number; y: number };
    if (contour[0].on) [start, points] = [contour[0], contour.slice(1)];
    else if (last.on) [start, points] = [last, contour.slice(0, n - 1)];
    else [start, points] = [{ x: (last.x + contour[0].x) / 2, y: (last.y + contour[0].y) / 2 }, contour];
    const [fx, fy] = [px(start.x), py(start.y)];
    let [cx, cy] = [fx, fy];
    let control: [number, number] | null = null;
    for (const q of points) {
      const [qx, qy] = [px(q.x), py(q.y)];
      if (q.on) {
        if (control) curve(cover, cx, cy, control[0], control[1], qx, qy);
        else cover.line(cx, cy, qx, qy);
        [cx, cy] = [qx, qy];
        control = null;
      } else if (control) {
        // Two control points in a row: an on-curve point is implied halfway between them.
        const [mx, my] = [(control[0] + qx) / 2, (control[1] + qy) / 2];
        curve(cover, cx, cy, control[0], control[1], mx, my);
        [cx, cy] = [mx, my];
        control = [qx, qy];
      } else {
        control = [qx, qy];
      }
    }
    if (control) curve(cover, cx, cy, control[0], control[1], fx, fy);
    else cover.line(cx, cy, fx, fy);
  }
  bitmap = { left, top, width, height, alpha: cover.alpha() };
  if (cache.size >= GLYPHS_PER_FONT) cache.clear();
  cache.set(key, bitmap);
  return bitmap;
}

/** A quadratic curve as straight segments, fine enough that no pixel's coverage changes visibly. */
function curve(cover: Coverage, x0: number, y0: number, cx: number, cy: number, x1: number, y1: number): void {
  const ex = x0 - 2 * cx + x1;
  const ey = y0 - 2 * cy + y1;
  const bend = Math.sqrt(ex * ex + ey * ey);
  const steps = Math.min(32, Math.max(1, Math.ceil(Math.sqrt(bend * 2.5))));
  let [px, py] = [x0, y0];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    const nx = u * u * x0 + 2 * u * t * cx + t * t * x1;
    const ny = u * u * y0 + 2 * u * t * cy + t * t * y1;
    cover.line(px, py, nx, ny);
    [px, py] = [nx, ny];
  }
}
