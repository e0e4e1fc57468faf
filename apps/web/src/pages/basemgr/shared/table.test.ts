import { describe, expect, it } from 'vitest';
import { tableWidth } from './table';

describe('tableWidth', () => {
  it('adds the numeric widths and the extra, ignoring columns without one', () => {
    expect(tableWidth([{ width: 100 }, { width: 50 }, {}, { width: '20%' }], 40)).toBe(190);
    expect(tableWidth([])).toBe(0);
  });
});
