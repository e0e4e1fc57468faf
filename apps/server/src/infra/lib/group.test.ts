import { describe, expect, it } from 'vitest';
import { groupBy } from './group';

describe('groupBy', () => {
  it('keeps each key’s items in the order given and the keys in the order first seen', () => {
    const g = groupBy([3, 1, 4, 1, 5, 9, 2, 6], (n) => n % 3);
    expect([...g]).toEqual([
      [0, [3, 9, 6]],
      [1, [1, 4, 1]],
      [2, [5, 2]],
    ]);
    expect(groupBy([], (n: number) => n).size).toBe(0);
  });
});
