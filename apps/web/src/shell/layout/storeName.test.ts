import { describe, expect, it } from 'vitest';
import { currentStoreName } from './storeName';

describe('currentStoreName', () => {
  const stores = [
    { id: 1, name: 'North' },
    { id: 2, name: 'South' },
  ];
  it('names the current store when it is in the list', () => {
    expect(currentStoreName({ id: 2, name: 'old name' }, stores)).toBe('South');
  });
  it("gives null ('Store not set') when there is no current store or it is not in the list", () => {
    expect(currentStoreName(null, stores)).toBeNull();
    expect(currentStoreName({ id: 9, name: 'Gone' }, stores)).toBeNull();
    expect(currentStoreName({ id: 1, name: 'North' }, [])).toBeNull();
  });
});
