import type { Canvas2D } from './canvas';
import { FONT_FAMILY, type Font } from './model/document';

/** Smallest size `shrink` goes down to (or the font's own size when that is smaller). */
export const MIN_FONT_SIZE = 8;
export const ELLIPSIS = '…';

/**
 * An element's font as text is drawn in it: `preferred` families (preferredFamilies: Noto Sans JP
 * for a text with kana) come between the element's family and the base font.
 */
export type TextFont = Pick<Font, 'family' | 'weight'> & { readonly preferred?: readonly string[] };

/**
 * The CSS font of a text: the element's family, the preferred families of its text, then the base
 * font (the canvas appends the fallback chain).
 */
export function cssFont(font: TextFont, size: number): string {
  let family = font.family === FONT_FAMILY ? '' : `"${font.family}", `;
  for (const preferred of font.preferred ?? []) if (preferred !== font.family) family += `"${preferred}", `;
  return `${font.weight === 'bold' ? 'bold' : 'normal'} ${size}px ${family}"${FONT_FAMILY}"`;
}

export interface FontMetrics {
  /** Ink above the baseline of tall Latin and CJK glyphs, in pixels. */
  readonly ascent: number;
  /** Ink below the baseline of descending glyphs, in pixels. */
  readonly descent: number;
  /** Height of the digits (for prices), in pixels. */
  readonly digitHeight: number;
}

const metricCache = new WeakMap<Canvas2D, Map<string, FontMetrics>>();

/** Vertical metrics of the context's current font, measured once per context and font. */
export function fontMetrics(ctx: Canvas2D): FontMetrics {
  let byFont = metricCache.get(ctx);
  if (!byFont) {
    byFont = new Map();
    metricCache.set(ctx, byFont);
  }
  const known = byFont.get(ctx.font);
  if (known) return known;
  const tall = ctx.measureText('Hd国');
  const low = ctx.measureText('gjy国');
  const digits = ctx.measureText('0123456789');
  const metrics = {
    ascent: Math.ceil(tall.actualBoundingBoxAscent),
    descent: Math.ceil(low.actualBoundingBoxDescent),
    digitHeight: Math.ceil(digits.actualBoundingBoxAscent),
  };
  byFont.set(ctx.font, metrics);
  return metrics;
}

/** Splits text into pieces a line may break after: each CJK character, or a word with its spaces. */
export function breakable(text: string): string[] {
  return (
    text.match(
      /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]+\s*|\s+/g,
    ) ?? []
  );
}

/**
 * Greedy line breaking at the context's current font: as many pieces as fit on each line; a piece
 * wider than a line is split by characters. Returns all lines (the caller decides how many fit).
 */
export function wrapLines(ctx: Canvas2D, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const piece of breakable(paragraph)) {
      const candidate = line + piece;
      if (ctx.measureText(candidate.trimEnd()).width <= width) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line.trimEnd());
      line = '';
      // A piece too long for a line on its own is split character by character.
      for (const char of piece) {
        if (line !== '' && ctx.measureText((line + char).trimEnd()).width > width) {
          lines.push(line.trimEnd());
          line = '';
        }
        line += char;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/**
 * Cuts text and appends "…" so it fits the width; returns "…" alone (or "") when nothing else fits.
 * `more` says text follows that was already cut away, so the ellipsis is due even if this fits.
 */
export function ellipsize(ctx: Canvas2D, text: string, width: number, more = false): string {
  if (!more && ctx.measureText(text).width <= width) return text;
  const chars = Array.from(text);
  let lo = 0;
  let hi = chars.length;
  // Binary search for the longest prefix that fits with the ellipsis.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(chars.slice(0, mid).join('').trimEnd() + ELLIPSIS).width <= width) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return ctx.measureText(ELLIPSIS).width <= width ? ELLIPSIS : '';
  return chars.slice(0, lo).join('').trimEnd() + ELLIPSIS;
}

export interface TextLayout {
  readonly size: number;
  readonly lines: readonly string[];
  readonly metrics: FontMetrics;
  /** Distance from one baseline to the next. */
  readonly pitch: number;
}

function linePitch(metrics: FontMetrics, size: number): number {
  return metrics.ascent + metrics.descent + Math.round(size * 0.15);
}

function blockHeight(metrics: FontMetrics, pitch: number, lines: number): number {
  return metrics.ascent + metrics.descent + (lines - 1) * pitch;
}

/**
 * Lays out text in a box. `shrink`: the largest size from the font's size down to MIN_FONT_SIZE at
 * which the wrapped text fits both width and height in at most `maxLines` lines; if even the floor
 * does not fit, it falls back to the ellipsis rule at the floor size. `ellipsis`: the font's size,
 * as many lines as fit, the last one cut with "…". Leaves ctx.font set to the chosen size.
 */
export function layoutText(
  ctx: Canvas2D,
  text: string,
  font: TextFont & Pick<Font, 'size'>,
  box: { w: number; h: number },
  fit: 'shrink' | 'ellipsis',
  maxLines: number,
): TextLayout {
  // One line: line breaks in the data become spaces rather than missing glyphs.
  const content = maxLines === 1 ? text.replace(/\s*\n\s*/g, ' ') : text;
  const floor = Math.min(font.size, MIN_FONT_SIZE);
  let size = Math.round(font.size);
  if (fit === 'shrink') {
    if (maxLines === 1) {
      // Start from the size where the single line would just fit: width scales with the size.
      ctx.font = cssFont(font, size);
      const width = ctx.measureText(content).width;
      if (width > box.w && width > 0) size = Math.max(floor, Math.min(size, Math.floor((size * box.w) / width) + 1));
    }
    for (; size >= floor; size--) {
      ctx.font = cssFont(font, size);
      const metrics = fontMetrics(ctx);
      const pitch = linePitch(metrics, size);
      const lines = maxLines === 1 ? [content] : wrapLines(ctx, content, box.w);
      const fitsWidth = lines.every((l) => ctx.measureText(l).width <= box.w);
      if (lines.length <= maxLines && fitsWidth && blockHeight(metrics, pitch, lines.length) <= box.h) {
        return { size, lines, metrics, pitch };
      }
    }
    size = Math.round(floor);
  }
  ctx.font = cssFont(font, size);
  const metrics = fontMetrics(ctx);
  const pitch = linePitch(metrics, size);
  let room = 1;
  while (room < maxLines && blockHeight(metrics, pitch, room + 1) <= box.h) room++;
  const wrapped = room === 1 ? [content.replace(/\n/g, ' ')] : wrapLines(ctx, content, box.w);
  const lines = wrapped.slice(0, room);
  const last = lines.length - 1;
  lines[last] = ellipsize(ctx, lines[last], box.w, wrapped.length > room);
  return { size, lines, metrics, pitch };
}
