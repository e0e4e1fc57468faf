import { describe, expect, it } from 'vitest';
import { screenVersions } from './presenter';

describe('screenVersions', () => {
  const hash = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
  it('is pending while the tag reports another version than the desired one', () => {
    expect(screenVersions('0000000000000000', hash)).toEqual({
      shownVer: '0000000000000000',
      desiredVer: 'a1b2c3d4e5f60718',
      pending: true,
    });
    expect(screenVersions(null, hash).pending).toBe(true);
  });
  it('is not pending once the tag shows the desired version, or when nothing is desired', () => {
    expect(screenVersions('a1b2c3d4e5f60718', hash).pending).toBe(false);
    expect(screenVersions('a1b2c3d4e5f60718', null)).toEqual({
      shownVer: 'a1b2c3d4e5f60718',
      desiredVer: null,
      pending: false,
    });
  });
});
