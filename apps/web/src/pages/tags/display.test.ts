import { describe, expect, it } from 'vitest';
import { themeColours, themeFor } from '../../platform/theme';
import { STATUS_COLOURS } from './display';

describe('tag status colours', () => {
  it('do not follow the theme colour', () => {
    // The theme colour is antd's primary and info colour; 'processing' tags are drawn in it.
    const { token } = themeFor('default', '#f5222d');
    expect(token?.colorInfo).toBe(themeColours('#f5222d').primary);
    for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
      expect(['processing', '#f5222d', themeColours('#f5222d').primary], status).not.toContain(colour);
    }
  });
});
