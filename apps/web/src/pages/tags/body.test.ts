import { TagListBody } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { isHardwareId, parseHardwareIds, tagFilter } from './body';

describe('parseHardwareIds', () => {
  it('reads IDs split by lines, spaces, commas and semicolons, upper case and each once', () => {
    expect(parseHardwareIds('a1b2c3d4\n A1B2C3D4, 0011223344556677;deadBEEF')).toEqual({
      ids: ['A1B2C3D4', '0011223344556677', 'DEADBEEF'],
      invalid: [],
    });
  });

  it('reports what is not an ID: too short, too long, not hex', () => {
    expect(parseHardwareIds('1234567 12345678 00112233445566778 XYZ12345')).toEqual({
      ids: ['12345678'],
      invalid: ['1234567', '00112233445566778', 'XYZ12345'],
    });
  });

  it('answers nothing for blank text', () => {
    expect(parseHardwareIds(' \n ')).toEqual({ ids: [], invalid: [] });
    expect(parseHardwareIds(undefined)).toEqual({ ids: [], invalid: [] });
  });

  it('checks a single scanned ID', () => {
    expect(isHardwareId(' 0A0B0C0D ')).toBe(true);
    expect(isHardwareId('0A0B0C0')).toBe(false);
  });
});

describe('tagFilter', () => {
  it('turns the filter bar into list filters the contract accepts', () => {
    const filter = tagFilter({ status: 'lost', model: '1c', bound: 'unbound', text: '  milk ' });
    expect(filter).toEqual({ status: 'lost', model: '1c', bound: false, text: 'milk' });
    const parsed = TagListBody.parse({ page: 1, limit: 20, ...filter });
    expect(parsed.model).toBe('1C');
    expect(parsed.bound).toBe(false);
  });

  it('leaves unset choices out', () => {
    expect(tagFilter({ text: '  ' })).toEqual({
      status: undefined,
      model: undefined,
      bound: undefined,
      text: undefined,
    });
    expect(tagFilter({ bound: 'bound' }).bound).toBe(true);
  });

  it("passes a roll call's start on, so the list shows who did not answer", () => {
    const filter = tagFilter({ notSeenSince: 1_700_000_000_000 });
    expect(TagListBody.parse({ page: 1, limit: 20, ...filter }).notSeenSince).toBe(1_700_000_000_000);
  });
});
