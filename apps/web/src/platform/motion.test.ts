import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefersReducedMotion, REDUCED_MOTION_QUERY } from './motion';
import { themeFor } from './theme';

afterEach(() => vi.unstubAllGlobals());

describe('reduced motion', () => {
  it('reads the user’s setting through the media query, and is off without a window', () => {
    expect(prefersReducedMotion()).toBe(false);
    const asked: string[] = [];
    const matchMedia = (query: string) => {
      asked.push(query);
      return { matches: query === REDUCED_MOTION_QUERY } as MediaQueryList;
    };
    vi.stubGlobal('window', { matchMedia });
    expect(prefersReducedMotion()).toBe(true);
    expect(asked).toEqual(['(prefers-reduced-motion: reduce)']);
  });

  it('turns antd’s motion off in the theme, and keeps it on by default', () => {
    expect(themeFor('medium', '#1890ff').token?.motion).toBe(true);
    expect(themeFor('medium', '#1890ff', false).token?.motion).toBe(false);
  });
});
