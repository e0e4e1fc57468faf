import { describe, expect, it } from 'vitest';
import { lastPage } from './paging';
import { tableWidth } from './table';

describe('tableWidth', () => {
  it('adds the numeric widths and the extra, ignoring columns without one', () => {
    expect(tableWidth([{ width: 100 }, { width: 50 }, {}, { width: '20%' }], 40)).toBe(190);
    expect(tableWidth([])).toBe(0);
  });
});

describe('lastPage', () => {
  it('is the page holding the last row, and 1 for an empty list', () => {
    expect(lastPage(41, 20)).toBe(3);
    expect(lastPage(40, 20)).toBe(2);
    expect(lastPage(0, 20)).toBe(1);
  });
});
