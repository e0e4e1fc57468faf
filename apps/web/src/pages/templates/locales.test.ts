import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const locales = new URL('../../locales/', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;

function flatten(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

function keysOf(lang: string, ns: string): Set<string> {
  const json: unknown = JSON.parse(readFileSync(join(locales, lang, `${ns}.json`), 'utf8'));
  // Plural forms (count_one) answer for their base key.
  return new Set(flatten(json).map((k) => k.replace(/_(one|other)$/, '')));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.tsx') ? [join(dir, d.name)] : [],
  );
}

describe('template page texts', () => {
  for (const ns of ['templates', 'editor']) {
    it(`has the same ${ns} keys in zh-CN and en`, () => {
      expect([...keysOf('en', ns)].sort()).toEqual([...keysOf('zh-CN', ns)].sort());
    });
  }

  it('has every literal key the pages ask for, in both languages', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources(here)) {
      const text = readFileSync(file, 'utf8');
      const defaultNs = /useTranslation\(\[?'(\w+)'/.exec(text)?.[1] ?? 'common';
      for (const match of text.matchAll(/\bt\('((?:(\w+):)?([\w.]+))'/g)) {
        const ns = match[2] ?? defaultNs;
        if (ns !== 'templates' && ns !== 'editor') continue;
        checked++;
        for (const lang of ['zh-CN', 'en']) {
          if (!keysOf(lang, ns).has(match[3])) missing.push(`${lang}/${ns}:${match[3]} (${file.slice(here.length)})`);
        }
      }
    }
    expect(missing).toEqual([]);
    // The scan itself must find the pages' keys, or this test would pass on nothing.
    expect(checked).toBeGreaterThan(100);
  });
});
