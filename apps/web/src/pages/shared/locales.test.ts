import { readFileSync } from 'node:fs';
import { VALIDATION_DETAILS } from '@esl/contract';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`)));
}

function load(lang: string, ns: string): Tree {
  return JSON.parse(readFileSync(new URL(`../../locales/${lang}/${ns}.json`, import.meta.url), 'utf8')) as Tree;
}

// English adds `_one` forms; Chinese has a single plural form, so those are left out of the comparison.
const withoutSingular = (list: string[]) => list.filter((k) => !k.endsWith('_one')).sort();

describe.each([
  'stations',
  'tags',
  'products',
  'logs',
  'firmware',
  'schedule',
  'promotions',
  'proof',
  'problems',
  'wall',
])('locale %s', (ns) => {
  it('has the same texts in zh-CN and en, none empty', () => {
    const zh = load('zh-CN', ns);
    const en = load('en', ns);
    expect(withoutSingular(keys(zh))).toEqual(withoutSingular(keys(en)));
    for (const tree of [zh, en]) {
      for (const key of keys(tree)) {
        const value = key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part], tree);
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('says "Please set store first" as SPEC.md §5 does', () => {
    expect(load('en', ns).needStore).toBe('Please set store first');
    expect(load('zh-CN', ns).needStore).toBe('请先设置门店');
  });
});

describe('tag validation', () => {
  it("words 'please select a model or an ID' as the server does", () => {
    for (const lang of ['zh-CN', 'en'] as const) {
      const rule = (load(lang, 'tags').rule as Tree).modelOrId as string;
      expect(rule.toLowerCase()).toBe(VALIDATION_DETAILS.modelOrId[lang].toLowerCase());
    }
  });
});
