import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../errors';
import { CALL_NAMES, CALLS, type CallName, operationName } from './index';

describe('operation names', () => {
  const names = Object.keys(CALLS) as CallName[];

  it('name every call in both languages, each name once per language', () => {
    expect(Object.keys(CALL_NAMES).sort()).toEqual([...names].sort());
    for (const lang of LANGUAGES) {
      const shown = names.map((n) => CALL_NAMES[n][lang]);
      expect(shown.every((s) => s.trim().length > 0)).toBe(true);
      expect(new Set(shown).size, lang).toBe(shown.length);
      // A name is words for a reader, never a path.
      expect(shown.filter((s) => s.includes('/'))).toEqual([]);
    }
    for (const n of names) expect(CALL_NAMES[n]['zh-CN'], n).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers by path, and the path itself for a path that is no call', () => {
    expect(operationName('/mgr/station/alert', 'zh-CN')).toBe('修改门店');
    expect(operationName('/mgr/station/alert', 'en')).toBe('Update a store');
    expect(operationName('/no/such/call', 'en')).toBe('/no/such/call');
  });
});
