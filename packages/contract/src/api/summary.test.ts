import { describe, expect, it } from 'vitest';
import { CALLS } from '../calls';
import { TAG_CHANGE_CALLS, TAG_CHANGE_KINDS, TagChangeStatBody } from './summary';

describe('dashboard statistics contract', () => {
  it('counts only calls that exist and change data, each under one kind', () => {
    const changing = new Set(
      Object.values(CALLS)
        .filter((d) => d.changes)
        .map((d) => d.path),
    );
    const counted = TAG_CHANGE_KINDS.flatMap((kind) => [...TAG_CHANGE_CALLS[kind]]);
    for (const path of counted) expect(changing.has(path), path).toBe(true);
    expect(new Set(counted).size).toBe(counted.length);
  });

  it('bounds the days of the change statistic to 7–90, 7 by default', () => {
    expect(TagChangeStatBody.parse({})).toEqual({ days: 7, utcOffset: 0 });
    expect(TagChangeStatBody.parse({ days: '90', utcOffset: 480 })).toEqual({ days: 90, utcOffset: 480 });
    for (const days of [6, 91, 7.5, 'x'])
      expect(TagChangeStatBody.safeParse({ days }).success, String(days)).toBe(false);
    for (const utcOffset of [-721, 841]) expect(TagChangeStatBody.safeParse({ utcOffset }).success).toBe(false);
  });

  it('marks the four statistics ready, read-only and dashboard.read', () => {
    for (const name of ['shopStatic', 'tagModelDistribution', 'tagShopDistribution', 'tagChangeStat'] as const) {
      expect(CALLS[name]).toMatchObject({ access: 'dashboard.read', ready: true, changes: false, list: false });
    }
  });
});
