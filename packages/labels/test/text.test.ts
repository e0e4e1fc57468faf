import { describe, expect, test, vi } from 'vitest';
import type { Canvas2D } from '../src/canvas';
import { Font } from '../src/model/document';
import { nodeCanvasFactory } from '../src/node';
import { breakable, cssFont, ELLIPSIS, layoutText, MIN_FONT_SIZE, wrapLines } from '../src/text';

// Rendering large labels takes a while when the machine is busy (CI runs everything at once).
vi.setConfig({ testTimeout: 30_000 });

const ctx = nodeCanvasFactory().createCanvas(400, 300).getContext('2d') as Canvas2D;
const font = Font.parse({ size: 32 });
const width = (text: string, size: number) => {
  ctx.font = cssFont(font, size);
  return ctx.measureText(text).width;
};

describe('text fitting', () => {
  test('line breaks fall between CJK characters and after Latin words', () => {
    expect(breakable('苹果 Fuji apples')).toEqual(['苹', '果', ' ', 'Fuji ', 'apples']);
  });

  test('shrink: a one-line text too wide for its box gets the largest size that fits', () => {
    const text = '新疆阿克苏冰糖心苹果 Aksu apples';
    const layout = layoutText(ctx, text, font, { w: 200, h: 40 }, 'shrink', 1);
    expect(layout.lines).toEqual([text]);
    expect(layout.size).toBeLessThan(32);
    expect(width(text, layout.size)).toBeLessThanOrEqual(200);
    expect(width(text, layout.size + 1)).toBeGreaterThan(200);
  });

  test('shrink: text that fits keeps its size', () => {
    expect(layoutText(ctx, '苹果', font, { w: 200, h: 40 }, 'shrink', 1).size).toBe(32);
  });

  test('shrink: wraps onto the allowed lines before shrinking further', () => {
    const text = '有机红富士苹果 Organic Fuji apples from Shandong';
    const layout = layoutText(ctx, text, font, { w: 200, h: 200 }, 'shrink', 3);
    expect(layout.lines.length).toBeGreaterThan(1);
    expect(layout.lines.length).toBeLessThanOrEqual(3);
    expect(layout.lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    for (const line of layout.lines) expect(width(line, layout.size)).toBeLessThanOrEqual(200);
  });

  test('shrink falls back to an ellipsis at the floor size', () => {
    const layout = layoutText(ctx, '很长'.repeat(40), font, { w: 100, h: 40 }, 'shrink', 1);
    expect(layout.size).toBe(MIN_FONT_SIZE);
    expect(layout.lines[0].endsWith(ELLIPSIS)).toBe(true);
    expect(width(layout.lines[0], MIN_FONT_SIZE)).toBeLessThanOrEqual(100);
  });

  test('ellipsis keeps the size and cuts the last line that fits the height', () => {
    const text = '一行放不下的很长很长的商品描述文字会在第二行的末尾用省略号截断';
    const layout = layoutText(ctx, text, font, { w: 200, h: 80 }, 'ellipsis', 5);
    expect(layout.size).toBe(32);
    expect(layout.lines).toHaveLength(2); // two 32 px lines fit in 80 px, three do not
    expect(layout.lines[1].endsWith(ELLIPSIS)).toBe(true);
    expect(width(layout.lines[1], 32)).toBeLessThanOrEqual(200);
  });

  test('a one-line box shows line breaks as spaces', () => {
    expect(layoutText(ctx, '苹果\n500g', font, { w: 300, h: 40 }, 'shrink', 1).lines).toEqual(['苹果 500g']);
  });

  test('a word longer than the line is split by characters', () => {
    ctx.font = cssFont(font, 32);
    const lines = wrapLines(ctx, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 150);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  });
});
