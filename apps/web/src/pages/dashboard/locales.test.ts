import { readFileSync } from 'node:fs';
import { TAG_CHANGE_KINDS } from '@esl/contract';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`)));
}

const load = (lang: string): Tree =>
  JSON.parse(readFileSync(new URL(`../../locales/${lang}/dashboard.json`, import.meta.url), 'utf8')) as Tree;

const source = ['panels.tsx', 'StatPanel.tsx', 'index.tsx']
  .map((f) => readFileSync(new URL(`./${f}`, import.meta.url), 'utf8'))
  .join('\n');

describe('dashboard texts', () => {
  it('has the same texts in zh-CN and en, none empty', () => {
    const zh = load('zh-CN');
    const en = load('en');
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const tree of [zh, en]) {
      for (const key of keys(tree)) {
        const value = key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part], tree);
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('has every literal key the dashboard asks for', () => {
    const en = keys(load('en'));
    const used = [...source.matchAll(/\bt\('([a-zA-Z.]+)'/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(10);
    for (const key of used) expect(en, key).toContain(key);
    for (const kind of TAG_CHANGE_KINDS) expect(en).toContain(`change.${kind}`);
  });
});
