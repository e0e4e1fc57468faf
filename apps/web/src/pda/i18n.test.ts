import { describe, expect, it } from 'vitest';
import { LANGUAGES, translator } from './i18n';

describe('handheld words', () => {
  it('has every word in both languages, with the same placeholders', () => {
    const en = LANGUAGES.en;
    const zh = LANGUAGES['zh-CN'];
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[key].trim(), key).not.toBe('');
      expect(en[key].trim(), key).not.toBe('');
      expect(holes(zh[key]), key).toEqual(holes(en[key]));
    }
  });

  it('fills placeholders', () => {
    expect(translator('en')('tagNotFound', { code: 'A1B2C3D4' })).toBe('No tag A1B2C3D4 in this store.');
    expect(translator('zh-CN')('unbound', { hw: 'A1B2C3D4' })).toBe('价签 A1B2C3D4 已解绑。');
  });
});
