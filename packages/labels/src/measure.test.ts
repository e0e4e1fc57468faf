import { describe, expect, test } from 'vitest';
import type { Canvas2D } from './canvas';
import { measuringContext } from './measure';

/** A fake context that records font sets and measurements, and restores the font like a real one. */
function fakeContext() {
  const calls = { fontSets: [] as string[], measured: [] as string[] };
  const stack: string[] = [];
  let font = '10px sans-serif';
  const ctx = {
    get font() {
      return font;
    },
    set font(value: string) {
      calls.fontSets.push(value);
      font = value;
    },
    save: () => stack.push(font),
    restore: () => {
      font = stack.pop() ?? font;
    },
    measureText: (text: string) => {
      calls.measured.push(`${font}|${text}`);
      return {
        width: text.length * Number.parseInt(font, 10),
        actualBoundingBoxAscent: 1,
        actualBoundingBoxDescent: 0,
      };
    },
  } as unknown as Canvas2D;
  return { ctx, calls, realFont: () => font };
}

describe('measuringContext', () => {
  test('measures each text once per font, and the width follows the font', () => {
    const { ctx, calls } = fakeContext();
    const m = measuringContext(ctx);
    m.font = '12px A';
    expect(m.measureText('abc').width).toBe(36);
    expect(m.measureText('abc').width).toBe(36);
    m.font = '20px A';
    expect(m.measureText('abc').width).toBe(60);
    expect(calls.measured).toEqual(['12px A|abc', '20px A|abc']);
  });

  test('skips setting the font it has, and knows the font restore brings back', () => {
    const { ctx, calls, realFont } = fakeContext();
    const m = measuringContext(ctx);
    m.font = '12px A';
    m.font = '12px A';
    m.save();
    m.font = '20px A';
    m.restore();
    expect(realFont()).toBe('12px A');
    m.font = '12px A'; // already so after restore: not set again
    m.save();
    m.font = '20px A';
    m.restore();
    m.font = '20px A'; // restore brought 12px back: must be set
    expect(realFont()).toBe('20px A');
    expect(calls.fontSets).toEqual(['12px A', '20px A', '20px A', '20px A']);
    expect(m.measureText('x').width).toBe(20);
  });

  test('a new drawing forgets the font (the context may have been changed in between)', () => {
    const { ctx, calls, realFont } = fakeContext();
    measuringContext(ctx).font = '12px A';
    ctx.font = '30px B'; // someone else draws on the context
    const again = measuringContext(ctx);
    again.font = '12px A';
    expect(realFont()).toBe('12px A');
    expect(calls.fontSets).toEqual(['12px A', '30px B', '12px A']);
  });

  test('skips setting the fill style and text baseline it has, and follows save/restore', () => {
    const sets: string[] = [];
    const stack: [unknown, string][] = [];
    let fill: unknown = '#000000';
    let baseline = 'alphabetic';
    const ctx = {
      get fillStyle() {
        return fill;
      },
      set fillStyle(value: unknown) {
        sets.push(`fill ${String(value)}`);
        fill = value;
      },
      get textBaseline() {
        return baseline;
      },
      set textBaseline(value: string) {
        sets.push(`baseline ${value}`);
        baseline = value;
      },
      save: () => stack.push([fill, baseline]),
      restore: () => {
        [fill, baseline] = stack.pop() ?? [fill, baseline];
      },
    } as unknown as Canvas2D;
    const m = measuringContext(ctx);
    m.fillStyle = 'rgb(0,0,0)';
    m.fillStyle = 'rgb(0,0,0)';
    m.textBaseline = 'alphabetic'; // unknown to the wrapper at first: set once
    m.textBaseline = 'alphabetic';
    m.save();
    m.fillStyle = 'rgb(255,0,0)';
    m.restore();
    m.fillStyle = 'rgb(0,0,0)'; // restore brought it back: not set again
    m.save();
    m.fillStyle = 'rgb(0,0,0)';
    m.textBaseline = 'top';
    m.restore();
    m.textBaseline = 'top'; // restore brought alphabetic back: must be set
    const gradient = {};
    m.fillStyle = gradient;
    m.fillStyle = gradient; // objects are always passed on
    expect(sets).toEqual([
      'fill rgb(0,0,0)',
      'baseline alphabetic',
      'fill rgb(255,0,0)',
      'baseline top',
      'baseline top',
      'fill [object Object]',
      'fill [object Object]',
    ]);
    expect([fill, baseline]).toEqual([gradient, 'top']);
  });
});
