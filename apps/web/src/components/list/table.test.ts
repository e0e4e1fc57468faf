import { describe, expect, it } from 'vitest';
import { lastPage } from './paging';
import { pinnedWhileTheyFit, tableWidth } from './table';

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

describe('pinnedWhileTheyFit', () => {
  // The tags screen: the tag ID pinned left (with the selection column), the actions right.
  const columns = [
    { key: 'id', width: 150, fixed: 'left' as const },
    { key: 'screen', width: 200 },
    { key: 'product', width: 220 },
    { key: 'actions', width: 160, fixed: 'right' as const },
  ];

  it('keeps the pinned columns pinned while they take at most half the table', () => {
    expect(pinnedWhileTheyFit(columns, 1000, 40)).toBe(columns);
    expect(pinnedWhileTheyFit(columns, 700, 40)).toBe(columns); // 350 of 700
  });

  it('lets the whole table scroll on a phone, every column kept and none pinned', () => {
    const narrow = pinnedWhileTheyFit(columns, 294, 40);
    expect(narrow.map((c) => c.key)).toEqual(['id', 'screen', 'product', 'actions']);
    expect(narrow.map((c) => c.fixed)).toEqual([undefined, undefined, undefined, undefined]);
    expect(narrow.map((c) => c.width)).toEqual([150, 200, 220, 160]);
    expect(pinnedWhileTheyFit(columns, 699, 40).some((c) => c.fixed)).toBe(false); // 350 of 699
  });

  it('counts the selection column only with columns pinned at the left, and waits for a width', () => {
    const right = [{ width: 100 }, { width: 160, fixed: 'right' as const }];
    expect(pinnedWhileTheyFit(right, 320, 40)).toBe(right);
    expect(pinnedWhileTheyFit(columns, 0, 40)).toBe(columns);
  });
});
