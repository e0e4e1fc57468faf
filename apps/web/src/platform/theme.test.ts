import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME_PRESETS } from '../store/settings';
import { contrast, MONO_FAMILY, readable, SIDEBAR_BACKGROUNDS, STATUS_TOKENS, themeColours, themeFor } from './theme';

describe('theme colours read at WCAG 2.1 AA', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#1890ff', '#ffffff')).toBeCloseTo(3.24, 2);
  });

  it('darkens a colour only as far as it must', () => {
    expect(readable('#000000', '#ffffff')).toBe('#000000');
    const shade = readable('#1890ff', '#ffffff');
    expect(contrast(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(shade).not.toBe('#000000');
  });

  it.each(THEME_PRESETS)(
    'theme %s: white on the primary, the primary on the page greys and in the sidebar',
    (colour) => {
      const { primary, onDark } = themeColours(colour);
      expect(contrast(primary, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(primary, '#f0f2f5')).toBeGreaterThanOrEqual(4.5);
      for (const background of SIDEBAR_BACKGROUNDS) expect(contrast(onDark, background)).toBeGreaterThanOrEqual(4.5);
      const { token, components } = themeFor('medium', colour);
      expect(token?.colorPrimary).toBe(primary);
      expect(components?.Menu?.darkItemSelectedColor).toBe(onDark);
    },
  );

  it('puts dialogs and pop-ups above the fixed sidebar', () => {
    const css = readFileSync(new URL('../shell/layout/layout.css', import.meta.url), 'utf8');
    const sidebar = /\.sidebar-container \{[^}]*z-index: (\d+)/.exec(css);
    expect(sidebar).not.toBeNull();
    expect(themeFor('medium', THEME_PRESETS[0]).token?.zIndexPopupBase).toBeGreaterThan(Number(sidebar?.[1]));
  });

  it('status colours read on white and on their own light fills', () => {
    const t = STATUS_TOKENS;
    for (const [colour, fill] of [
      [t.colorSuccess, t.colorSuccessBg],
      [t.colorWarning, t.colorWarningBg],
      [t.colorError, t.colorErrorBg],
    ] as const) {
      expect(contrast(colour, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colour, fill)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('tag text colours read on their fills', () => {
    const { token } = themeFor('medium', '#1890ff');
    const tokens = token as Record<string, string>;
    expect(contrast(tokens.green7 ?? '', '#f6ffed')).toBeGreaterThanOrEqual(4.5);
    expect(tokens['green-7']).toBe(tokens.green7);
    expect(contrast(tokens.volcano7 ?? '', '#fff2e8')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('fonts', () => {
  // A bare machine's generic monospace has no Chinese: the add-tags box's placeholder showed boxes.
  it('every monospace font stack of the console ends with a Chinese font that ships with it', () => {
    expect(MONO_FAMILY.split(', ').at(-1)).toBe("'Noto Sans SC'");
    const src = new URL('..', import.meta.url).pathname;
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      // MONO_FAMILY's own definition aside
      (f) => /\.(tsx?|css)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith(join('platform', 'theme.ts')),
    );
    const offenders = files.flatMap((f) =>
      readFileSync(join(src, f), 'utf8')
        .split('\n')
        .filter((line) => /monospace/.test(line) && !/Noto Sans SC|MONO_FAMILY|^\s*(\/\/|\*|\/\*)/.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
