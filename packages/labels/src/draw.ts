import type { Canvas2D, LabelImage, PixelBlock, TextMeasure } from './canvas';
import { measuringContext } from './measure';
import { type ColourType, INK_RGB, type Ink, inkCss, inkInSet } from './model/colours';
import {
  type BarcodeElement,
  designSize,
  type Element,
  type ImageElement,
  type LabelData,
  type LineElement,
  type PriceElement,
  type QrElement,
  type RectElement,
  type TemplateDocument,
  type TextElement,
} from './model/document';
import { preferredFamilies } from './scripts';
import { encodeLinear, encodeQr, type LinearSymbol, type MatrixSymbol } from './symbols';
import { cssFont, ellipsize, fontMetrics, layoutText, MIN_FONT_SIZE, type TextFont, type TextLayout } from './text';
import { elementText, resolveValue, toNumber } from './values';

export interface DrawOptions {
  /** Decoded images by their source (data URL), as `imageSources` lists them. */
  readonly images?: ReadonlyMap<string, LabelImage>;
}

/** Something an element could not draw; the rest of the label is still drawn. */
export interface RenderProblem {
  readonly elementId: string;
  readonly message: string;
  /**
   * 'missingGlyph': characters that no font of the element (its family and the fallback chain)
   * can draw; they would show as empty boxes. 'unknownFont': the element names a font family the
   * label's fonts lack (a brand font of another tenant, or one deleted): drawn in the base font.
   * Absent for other problems.
   */
  readonly code?: 'missingGlyph' | 'unknownFont';
  /** The family the element names that no font of this label's fonts is (unknownFont). */
  readonly family?: string;
  /** The characters no font draws, each once (missingGlyph). */
  readonly chars?: string;
  /** The data field the element shows (its binding's key) when the text came from it, else null. */
  readonly field?: string | null;
}

/** "U+D55C U+AD6D": code points as people look them up. */
function codePoints(chars: readonly string[]): string {
  return chars.map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/**
 * Reports the characters of a text no font of the context's current font can draw (never silent:
 * a label of boxes must not go out unnoticed). The context says only when it knows its fonts.
 */
function checkGlyphs(scene: Scene, element: Element, text: string): void {
  const missing = scene.ctx.missingGlyphs?.(text) ?? [];
  if (missing.length === 0) return;
  const resolved = resolveValue(element, scene.data);
  const field = resolved?.bound && element.binding ? element.binding.key : null;
  const chars = missing.join('');
  scene.problems.push({
    elementId: element.id,
    code: 'missingGlyph',
    chars,
    field,
    message: `no font can draw "${chars}" (${codePoints(missing)})${field ? ` in field "${field}"` : ''}`,
  });
}

/** Reports an element whose text is set in a family the context has no face of (drawn in the base font). */
function checkFamily(scene: Scene, element: Element): void {
  const drawsText =
    element.type === 'text' || element.type === 'price' || (element.type === 'barcode' && element.showText);
  if (!drawsText || scene.ctx.hasFont?.(element.font.family) !== false) return;
  scene.problems.push({
    elementId: element.id,
    code: 'unknownFont',
    family: element.font.family,
    message: `the font "${element.font.family}" is not available; drawn in the base font`,
  });
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

interface Scene {
  readonly ctx: Canvas2D;
  /** The label's background ink (already mapped into the colour set). */
  readonly background: Ink;
  readonly data: LabelData;
  readonly colourType: ColourType;
  readonly options: DrawOptions;
  readonly problems: RenderProblem[];
}

/**
 * Draws a template with data on a context of the design size (`designSize(doc)`), in design
 * orientation. Elements are drawn in order, each clipped to its box, at whole-pixel positions.
 */
export function drawTemplate(target: Canvas2D, doc: TemplateDocument, data: LabelData, options: DrawOptions = {}) {
  const ctx = measuringContext(target);
  const { w, h } = designSize(doc);
  const background = inkInSet(doc.background, doc.colourType);
  const scene: Scene = { ctx, data, background, colourType: doc.colourType, options, problems: [] };
  ctx.fillStyle = inkCss(background);
  ctx.fillRect(0, 0, w, h);
  // Every text is drawn on its alphabetic baseline: set once here, the elements' own sets are then
  // known to change nothing (measuringContext skips them).
  ctx.textBaseline = 'alphabetic';
  for (const element of doc.elements) {
    const box = pixelBox(element);
    if (box.w <= 0 && box.h <= 0) continue;
    const clipped = needsClip(element);
    if (clipped) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(box.x, box.y, box.w, box.h);
      ctx.clip();
    }
    if (element.fill !== null && element.type !== 'line') {
      ctx.fillStyle = ink(scene, element.fill);
      ctx.fillRect(box.x, box.y, box.w, box.h);
    }
    checkFamily(scene, element);
    try {
      drawElement(scene, element, box);
    } catch (error) {
      scene.problems.push({ elementId: element.id, message: (error as Error).message });
    }
    if (clipped) ctx.restore();
  }
  return { problems: scene.problems };
}

/**
 * Whether an element is drawn clipped to its box (inside save and restore) whatever it draws.
 * Lines are never clipped; rectangles are whole-pixel fills inside the box; QR codes and barcode
 * bars are written with putImageData (which no clip affects) and cut to the box by paintModules;
 * texts, prices and barcode digits clip themselves only when their measured ink leaves the box
 * (clipTo). A clip that changes no pixel only costs time: five native calls. Every element sets
 * the state it draws with (fill, font, line width), so none needs restoring after.
 */
function needsClip(element: Element): boolean {
  switch (element.type) {
    case 'line':
    case 'rect':
    case 'qrcode':
    case 'text':
    case 'price':
    case 'barcode':
      // Texts, prices and a barcode's digits clip themselves, only when their ink would leave the
      // box (clipTo); a barcode's bars are written with putImageData.
      return false;
    default:
      return true;
  }
}

/** Image sources a template needs decoded before drawing (data URLs), for DrawOptions.images. */
export function imageSources(doc: TemplateDocument, data: LabelData): string[] {
  const sources = new Set<string>();
  for (const element of doc.elements) {
    if (element.type !== 'image') continue;
    const value = resolveValue(element, data);
    if (value !== null) sources.add(String(value.value));
  }
  return [...sources];
}

/**
 * The texts a template draws with data (texts, prices' currency signs, barcodes' digits): what
 * decides which script fonts a label needs (scriptFontsFor).
 */
export function labelTexts(doc: TemplateDocument, data: LabelData): string[] {
  const texts: string[] = [];
  for (const element of doc.elements) {
    if (element.type === 'text' || element.type === 'barcode') {
      const text = elementText(element, data);
      if (text !== null) texts.push(text);
    } else if (element.type === 'price' && element.currency !== '') texts.push(element.currency);
  }
  return texts;
}

function pixelBox(element: Element): Box {
  const x = Math.round(element.x);
  const y = Math.round(element.y);
  return { x, y, w: Math.round(element.x + element.w) - x, h: Math.round(element.y + element.h) - y };
}

function ink(scene: Scene, colour: Ink): string {
  return inkCss(inkInSet(colour, scene.colourType));
}

function drawElement(scene: Scene, element: Element, box: Box): void {
  switch (element.type) {
    case 'text':
      drawText(scene, element, box);
      break;
    case 'price':
      drawPrice(scene, element, box);
      break;
    case 'barcode':
      drawBarcode(scene, element, box);
      break;
    case 'qrcode':
      drawQr(scene, element, box);
      break;
    case 'rect':
      drawRect(scene, element, box);
      break;
    case 'line':
      drawLine(scene, element, box);
      break;
    case 'image':
      drawImage(scene, element, box);
      break;
  }
}

function alignX(box: Box, width: number, align: Element['align']): number {
  if (align === 'center') return box.x + Math.round((box.w - width) / 2);
  if (align === 'right') return box.x + Math.round(box.w - width);
  return box.x;
}

function alignY(box: Box, height: number, valign: Element['valign']): number {
  if (valign === 'middle') return box.y + Math.round((box.h - height) / 2);
  if (valign === 'bottom') return box.y + box.h - height;
  return box.y;
}

/** Where ink may land, in canvas pixels. */
interface InkRect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/**
 * The ink of a text drawn at (x, baseline), from its measured bounding box; null when the context
 * does not say how far the ink reaches left and right (then the text is clipped).
 */
function textInk(measure: TextMeasure, x: number, baseline: number): InkRect | null {
  const { actualBoundingBoxLeft: left, actualBoundingBoxRight: right } = measure;
  if (left === undefined || right === undefined) return null;
  return {
    left: x - left,
    top: baseline - measure.actualBoundingBoxAscent,
    right: x + right,
    bottom: baseline + measure.actualBoundingBoxDescent,
  };
}

/**
 * Draws clipped to the box unless all the ink stays inside it: glyph edges are anti-aliased within
 * their outline's bounds, which measureText gives, so a clip there would change no pixel (a test
 * draws texts both ways and compares the pixels).
 */
function clipTo(scene: Scene, box: Box, inks: readonly (InkRect | null)[], draw: () => void): void {
  const inside = inks.every(
    (r) => r !== null && r.left >= box.x && r.right <= box.x + box.w && r.top >= box.y && r.bottom <= box.y + box.h,
  );
  if (inside) {
    draw();
    return;
  }
  const { ctx } = scene;
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.w, box.h);
  ctx.clip();
  try {
    draw();
  } finally {
    ctx.restore();
  }
}

/** Each text element's font with its preferred families, per list of them (few: one per set of preferred fonts). */
const preferredFonts = new WeakMap<TextElement, Map<readonly string[], TextFont & TextElement['font']>>();

/**
 * The font a text element draws a text in: its own, or with the families the text prefers before
 * the base font (a text with kana: Noto Sans JP), for the whole text, every line and the ellipsis.
 */
function textFont(element: TextElement, text: string): TextFont & TextElement['font'] {
  const preferred = preferredFamilies(text);
  if (preferred.length === 0) return element.font;
  let byList = preferredFonts.get(element);
  if (!byList) {
    byList = new Map();
    preferredFonts.set(element, byList);
  }
  let font = byList.get(preferred);
  if (!font) {
    font = { ...element.font, preferred };
    byList.set(preferred, font);
  }
  return font;
}

/** A text element's layout for one text, with each line's measure. */
interface PlacedText {
  readonly layout: TextLayout;
  readonly measures: readonly TextMeasure[];
}

function drawText(scene: Scene, element: TextElement, box: Box): void {
  const text = elementText(element, scene.data);
  if (text === null) return;
  const { ctx } = scene;
  const font = textFont(element, text);
  let placed = remembered(textLayouts, ctx, element, text);
  if (placed) {
    ctx.font = cssFont(font, placed.layout.size);
  } else {
    const layout = layoutText(ctx, text, font, box, element.fit, element.lines);
    placed = remember(textLayouts, ctx, element, text, {
      layout,
      measures: layout.lines.map((line) => ctx.measureText(line)),
    });
  }
  checkGlyphs(scene, element, text);
  const { layout, measures } = placed;
  const { ascent, descent } = layout.metrics;
  const height = ascent + descent + (layout.lines.length - 1) * layout.pitch;
  const first = alignY(box, height, element.valign) + ascent;
  const at = measures.map((m, i) => ({ x: alignX(box, m.width, element.align), baseline: first + i * layout.pitch }));
  clipTo(
    scene,
    box,
    at.map(({ x, baseline }, i) => textInk(measures[i], x, baseline)),
    () => {
      ctx.fillStyle = ink(scene, element.colour);
      ctx.textBaseline = 'alphabetic';
      layout.lines.forEach((line, i) => {
        ctx.fillText(line, at[i].x, at[i].baseline);
      });
    },
  );
}

/**
 * Layouts already worked out, per context (what it measures with), element (a parsed document's
 * elements are frozen objects, the same from label to label) and text: fitting a text or a price
 * measures it at several sizes, each a font change on the native context; a store's labels repeat
 * their texts and prices. The layout is a function of these three only, so reusing it draws the
 * same pixels.
 */
type LayoutCache<E extends Element, T> = WeakMap<Canvas2D, WeakMap<E, Map<string, T>>>;
const textLayouts: LayoutCache<TextElement, PlacedText> = new WeakMap();
const priceLayouts: LayoutCache<PriceElement, PriceLayout> = new WeakMap();
const LAYOUTS_PER_ELEMENT = 1024;

function remembered<E extends Element, T>(cache: LayoutCache<E, T>, ctx: Canvas2D, element: E, key: string) {
  return cache.get(ctx)?.get(element)?.get(key);
}

function remember<E extends Element, T>(cache: LayoutCache<E, T>, ctx: Canvas2D, element: E, key: string, value: T): T {
  let byElement = cache.get(ctx);
  if (!byElement) {
    byElement = new WeakMap();
    cache.set(ctx, byElement);
  }
  let byKey = byElement.get(element);
  if (!byKey) {
    byKey = new Map();
    byElement.set(element, byKey);
  }
  if (byKey.size >= LAYOUTS_PER_ELEMENT) byKey.clear();
  byKey.set(key, value);
  return value;
}

/** Sizes and widths of a price's parts at the size that fits, with their measures (null: no such part). */
interface PriceLayout {
  readonly size: number;
  readonly minorSize: number;
  readonly signWidth: number;
  readonly minorWidth: number;
  readonly majorWidth: number;
  readonly gap: number;
  readonly digitHeight: number;
  readonly minorDigits: number;
  readonly signMeasure: TextMeasure | null;
  readonly minorMeasure: TextMeasure | null;
  readonly majorMeasure: TextMeasure;
}

function drawPrice(scene: Scene, element: PriceElement, box: Box): void {
  const resolved = resolveValue(element, scene.data);
  if (resolved === null) return;
  const amount = toNumber(resolved.value);
  if (amount === null) throw new Error(`price "${resolved.value}" is not a number`);
  if (element.onlyIfAbove !== null) {
    const other = toNumber(scene.data[element.onlyIfAbove]);
    if (other !== null && !(amount > other)) return;
  }
  const { ctx } = scene;
  const fixed = amount.toFixed(element.decimals);
  const point = fixed.indexOf('.');
  const major = point < 0 ? fixed : fixed.slice(0, point);
  const minor = point < 0 ? '' : fixed.slice(point);
  const sign = element.currency;
  const k = element.minorScale;

  const measure = (size: number): PriceLayout => {
    const minorSize = Math.max(1, Math.round(size * k));
    ctx.font = cssFont(element.font, minorSize);
    const signMeasure = sign === '' ? null : ctx.measureText(sign);
    const minorMeasure = minor === '' ? null : ctx.measureText(minor);
    const minorDigits = fontMetrics(ctx).digitHeight;
    ctx.font = cssFont(element.font, size);
    const majorMeasure = ctx.measureText(major);
    const gap = sign === '' ? 0 : Math.max(1, Math.round(size * 0.04));
    const digitHeight = fontMetrics(ctx).digitHeight;
    return {
      size,
      minorSize,
      signWidth: signMeasure?.width ?? 0,
      minorWidth: minorMeasure?.width ?? 0,
      majorWidth: majorMeasure.width,
      gap,
      digitHeight,
      minorDigits,
      signMeasure,
      minorMeasure,
      majorMeasure,
    };
  };
  const widthOf = (m: PriceLayout) => m.signWidth + m.gap + m.majorWidth + m.minorWidth;
  const fit = () => {
    // Largest size from the font's size down whose digits fit the box: width scales with the size.
    let size = Math.round(element.font.size);
    let m = measure(size);
    const scale = Math.min(box.w / Math.max(1, widthOf(m)), box.h / Math.max(1, m.digitHeight));
    if (scale < 1) {
      size = Math.max(MIN_FONT_SIZE, Math.min(size, Math.floor(size * scale) + 1));
      m = measure(size);
    }
    while (size > MIN_FONT_SIZE && (widthOf(m) > box.w || m.digitHeight > box.h)) m = measure(--size);
    return m;
  };
  const m = remembered(priceLayouts, ctx, element, fixed) ?? remember(priceLayouts, ctx, element, fixed, fit());
  if (sign !== '') {
    ctx.font = cssFont(element.font, m.minorSize);
    checkGlyphs(scene, element, sign);
  }

  const width = widthOf(m);
  const left = alignX(box, width, element.align);
  const top = alignY(box, m.digitHeight, element.valign);
  const baseline = top + m.digitHeight;
  const minorBaseline = element.minorPosition === 'top' ? top + m.minorDigits : baseline;
  const minorX = Math.round(left + m.signWidth + m.gap + m.majorWidth);
  const majorX = Math.round(left + m.signWidth + m.gap);
  const thickness = Math.max(1, Math.round(m.size / 14));
  const strikeY = Math.round(top + m.digitHeight / 2 - thickness / 2);
  const inks = [textInk(m.majorMeasure, majorX, baseline)];
  if (m.signMeasure) inks.push(textInk(m.signMeasure, left, baseline));
  if (m.minorMeasure) inks.push(textInk(m.minorMeasure, minorX, minorBaseline));
  if (element.strike) inks.push({ left, top: strikeY, right: left + Math.ceil(width), bottom: strikeY + thickness });
  clipTo(scene, box, inks, () => {
    ctx.fillStyle = ink(scene, element.colour);
    ctx.textBaseline = 'alphabetic';
    ctx.font = cssFont(element.font, m.minorSize);
    if (sign !== '') ctx.fillText(sign, left, baseline);
    if (minor !== '') ctx.fillText(minor, minorX, minorBaseline);
    ctx.font = cssFont(element.font, m.size);
    ctx.fillText(major, majorX, baseline);
    if (element.strike) ctx.fillRect(left, strikeY, Math.ceil(width), thickness);
  });
}

function drawBarcode(scene: Scene, element: BarcodeElement, box: Box): void {
  const text = elementText(element, scene.data);
  if (text === null) return;
  const symbol = encodeLinear(element.symbology, text);
  const { ctx } = scene;
  let textHeight = 0;
  let label = '';
  if (element.showText) {
    ctx.font = cssFont(element.font, Math.round(element.font.size));
    const metrics = fontMetrics(ctx);
    textHeight = metrics.digitHeight + Math.max(1, Math.round(element.font.size * 0.2));
    label = ellipsize(ctx, symbol.text, box.w);
  }
  const barHeight = box.h - textHeight;
  if (barHeight < 1) throw new Error('the box is too low for the bars');
  const [quietLeft, quietRight] = symbol.quiet;
  let module = Math.floor(box.w / (symbol.modules + quietLeft + quietRight));
  if (module < 1) module = Math.floor(box.w / symbol.modules);
  if (module < 1) throw new Error(`the box is ${box.w} px wide; the symbol needs ${symbol.modules}`);
  const width = symbol.modules * module;
  const row = barRow(symbol, module);
  paintModules(scene, element, box.x + Math.floor((box.w - width) / 2), box.y, width, barHeight, () => row);
  if (label !== '') {
    const measure = ctx.measureText(label);
    const labelX = box.x + Math.round((box.w - measure.width) / 2);
    clipTo(scene, box, [textInk(measure, labelX, box.y + box.h)], () => {
      ctx.fillStyle = ink(scene, element.colour);
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(label, labelX, box.y + box.h);
    });
  }
}

function drawQr(scene: Scene, element: QrElement, box: Box): void {
  const text = elementText(element, scene.data);
  if (text === null) return;
  const symbol = encodeQr(text, element.errorCorrection);
  const side = Math.min(box.w, box.h);
  let scale = Math.floor(side / (symbol.size + 2 * element.margin));
  if (scale < 1) scale = Math.floor(side / symbol.size);
  if (scale < 1) throw new Error(`the box is ${side} px; the QR code needs ${symbol.size}`);
  const extent = symbol.size * scale;
  const left = alignX(box, extent, element.align);
  const top = alignY(box, extent, element.valign);
  const rows = matrixRows(symbol, scale);
  paintModules(scene, element, left, top, extent, extent, (py) => rows[Math.floor(py / scale)]);
}

// Pixel rows of symbols (1 = dark) at a module size, kept with the (cached) symbol they belong to.
const barRows = new WeakMap<LinearSymbol, Map<number, Uint8Array>>();
const qrRows = new WeakMap<MatrixSymbol, Map<number, Uint8Array[]>>();

/** One pixel row of a linear symbol, `module` pixels a module. */
function barRow(symbol: LinearSymbol, module: number): Uint8Array {
  let byModule = barRows.get(symbol);
  if (!byModule) {
    byModule = new Map();
    barRows.set(symbol, byModule);
  }
  let row = byModule.get(module);
  if (!row) {
    row = new Uint8Array(symbol.modules * module);
    let x = 0;
    for (let i = 0; i < symbol.widths.length; i++) {
      const run = symbol.widths[i] * module;
      if (i % 2 === 0) row.fill(1, x, x + run);
      x += run;
    }
    byModule.set(module, row);
  }
  return row;
}

/** The pixel rows of a QR code's module rows, `scale` pixels a module. */
function matrixRows(symbol: MatrixSymbol, scale: number): Uint8Array[] {
  let byScale = qrRows.get(symbol);
  if (!byScale) {
    byScale = new Map();
    qrRows.set(symbol, byScale);
  }
  let rows = byScale.get(scale);
  if (!rows) {
    const n = symbol.size;
    rows = Array.from({ length: n }, (_, r) => {
      const row = new Uint8Array(n * scale);
      for (let c = 0; c < n; c++) if (symbol.modules[r * n + c] !== 0) row.fill(1, c * scale, (c + 1) * scale);
      return row;
    });
    byScale.set(scale, rows);
  }
  return rows;
}

/**
 * Writes a symbol's pixels straight into the canvas (putImageData): dark modules in the element's
 * ink, light ones in its fill or else the label's background. Exact whole pixels, one call however
 * many modules, and opaque: a symbol's light modules cover what lies beneath, as a quiet zone must.
 * `rowAt(py)` gives row py of the symbol (1 = dark); returning the same array as for the row
 * above repeats that row. The block is clipped to the element's box and the canvas.
 */
function paintModules(
  scene: Scene,
  element: BarcodeElement | QrElement,
  x: number,
  y: number,
  w: number,
  h: number,
  rowAt: (py: number) => Uint8Array,
): void {
  const box = pixelBox(element);
  const left = Math.max(x, box.x, 0);
  const top = Math.max(y, box.y, 0);
  const right = Math.min(x + w, box.x + box.w);
  const bottom = Math.min(y + h, box.y + box.h);
  if (right <= left || bottom <= top) return;
  const on = INK_RGB[inkInSet(element.colour, scene.colourType)];
  const off = INK_RGB[element.fill === null ? scene.background : inkInSet(element.fill, scene.colourType)];
  const image = pixelBlock(scene.ctx, right - left, bottom - top);
  const { data } = image;
  const width = right - left;
  // Whole pixels as 32-bit words when the block's bytes allow it (a typed array on a 4-byte boundary).
  const words =
    data instanceof Uint8ClampedArray && data.byteOffset % 4 === 0
      ? new Uint32Array(data.buffer, data.byteOffset, width * (bottom - top))
      : null;
  const onWord = rgbaWord(on);
  const offWord = rgbaWord(off);
  let previous: Uint8Array | null = null;
  for (let py = top; py < bottom; py++) {
    const row = rowAt(py - y);
    const start = (py - top) * width;
    if (words !== null) {
      if (row === previous) {
        // Rows repeating the one above (a barcode's bars, a QR module's height): copied in
        // doubling blocks, so a few copies fill them however many there are.
        let end = py + 1;
        while (end < bottom && rowAt(end - y) === row) end++;
        const first = start - width;
        const stop = (end - top) * width;
        for (let filled = start; filled < stop; ) {
          const next = Math.min(stop, filled + (filled - first));
          words.copyWithin(filled, first, first + (next - filled));
          filled = next;
        }
        py = end - 1;
        continue;
      }
      for (let px = left, p = start; px < right; px++, p++) words[p] = row[px - x] === 1 ? onWord : offWord;
    } else {
      for (let px = left, p = start * 4; px < right; px++, p += 4) {
        const [r, g, b] = row[px - x] === 1 ? on : off;
        data[p] = r;
        data[p + 1] = g;
        data[p + 2] = b;
        data[p + 3] = 255;
      }
    }
    previous = row;
  }
  scene.ctx.putImageData(image, left, top);
}

/** Each opaque ink as the 32-bit word its RGBA bytes make in this platform's byte order. */
const INK_WORDS = new Map(
  Object.values(INK_RGB).map((rgb) => [rgb, new Uint32Array(Uint8Array.of(rgb[0], rgb[1], rgb[2], 255).buffer)[0]]),
);

function rgbaWord(rgb: readonly [number, number, number]): number {
  return INK_WORDS.get(rgb) ?? new Uint32Array(Uint8Array.of(rgb[0], rgb[1], rgb[2], 255).buffer)[0];
}

const blocks = new WeakMap<Canvas2D, Map<string, PixelBlock>>();
const BLOCKS_PER_CONTEXT = 16;

/**
 * A pixel block of a size for putImageData on this context, made once and reused: putImageData
 * copies it, and the caller writes every pixel of it before each use. A label's symbols keep their
 * sizes from product to product, so this saves allocating and clearing one per symbol and label.
 */
function pixelBlock(ctx: Canvas2D, w: number, h: number): PixelBlock {
  let bySize = blocks.get(ctx);
  if (!bySize) {
    bySize = new Map();
    blocks.set(ctx, bySize);
  }
  const key = `${w}x${h}`;
  let block = bySize.get(key);
  if (!block) {
    if (bySize.size >= BLOCKS_PER_CONTEXT) bySize.clear();
    block = ctx.createImageData(w, h);
    bySize.set(key, block);
  }
  return block;
}

function drawRect(scene: Scene, element: RectElement, box: Box): void {
  const t = Math.min(element.strokeWidth, Math.ceil(box.w / 2), Math.ceil(box.h / 2));
  if (t <= 0) return;
  const { ctx } = scene;
  ctx.fillStyle = ink(scene, element.colour);
  ctx.fillRect(box.x, box.y, box.w, t);
  ctx.fillRect(box.x, box.y + box.h - t, box.w, t);
  ctx.fillRect(box.x, box.y + t, t, box.h - 2 * t);
  ctx.fillRect(box.x + box.w - t, box.y + t, t, box.h - 2 * t);
}

function drawLine(scene: Scene, element: LineElement, box: Box): void {
  const { ctx } = scene;
  const t = element.strokeWidth;
  ctx.fillStyle = ink(scene, element.colour);
  if (box.h === 0 || box.w === 0) {
    ctx.fillRect(box.x, box.y, box.h === 0 ? box.w : t, box.h === 0 ? t : box.h);
    return;
  }
  ctx.strokeStyle = ink(scene, element.colour);
  ctx.lineWidth = t;
  ctx.lineCap = 'butt';
  ctx.beginPath();
  if (element.flip) {
    ctx.moveTo(box.x, box.y + box.h);
    ctx.lineTo(box.x + box.w, box.y);
  } else {
    ctx.moveTo(box.x, box.y);
    ctx.lineTo(box.x + box.w, box.y + box.h);
  }
  ctx.stroke();
}

function drawImage(scene: Scene, element: ImageElement, box: Box): void {
  const resolved = resolveValue(element, scene.data);
  if (resolved === null) return;
  const image = scene.options.images?.get(String(resolved.value));
  if (!image) throw new Error('image not loaded (pass it in DrawOptions.images)');
  if (image.width <= 0 || image.height <= 0) return;
  const { ctx } = scene;
  ctx.imageSmoothingEnabled = true;
  if (element.fit === 'stretch') {
    ctx.drawImage(image as never, box.x, box.y, box.w, box.h);
    return;
  }
  const scale =
    element.fit === 'contain'
      ? Math.min(box.w / image.width, box.h / image.height)
      : Math.max(box.w / image.width, box.h / image.height);
  const w = Math.round(image.width * scale);
  const h = Math.round(image.height * scale);
  ctx.drawImage(image as never, alignX(box, w, element.align), alignY(box, h, element.valign), w, h);
}
