import { describe, expect, it } from 'vitest';
import { nextSerials, storeCode } from './provision';
import { Random } from './random';

// The end-to-end run against a server is apps/server/src/delivery/provision.test.ts.

describe('provisioning helpers', () => {
  it('numbers new stations after the highest of the prefix, ignoring others', () => {
    expect(nextSerials('SIM', [], 2)).toEqual(['SIM-01', 'SIM-02']);
    expect(nextSerials('sim', ['SIM-07', 'SIM-02', 'AP-99', 'SIM-X'], 1)).toEqual(['SIM-08']);
    expect(nextSerials('A-B', ['A-B-10'], 1)).toEqual(['A-B-11']);
  });

  it('makes a valid store code from any name', () => {
    expect(storeCode('一号店', new Random(1))).toMatch(/^SIM-[0-9a-f]{4}$/i);
    expect(storeCode('North Hall 2', new Random(1))).toMatch(/^NorthHall2-[0-9a-f]{4}$/i);
  });
});
