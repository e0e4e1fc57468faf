import { type ThemeConfig, theme } from 'antd';

/** The size selector's choices (SPEC.md §2), kept in cookie `size`. */
export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];

/**
 * The four densities of the size selector (SPEC.md §2), as antd tokens: control height,
 * font size and table cell padding shrink together from 'default' to 'mini'.
 */
const DENSITY: Record<Size, { controlHeight: number; fontSize: number; cellBlock: number; cellInline: number }> = {
  default: { controlHeight: 40, fontSize: 15, cellBlock: 16, cellInline: 16 },
  medium: { controlHeight: 36, fontSize: 14, cellBlock: 12, cellInline: 12 },
  small: { controlHeight: 32, fontSize: 13, cellBlock: 8, cellInline: 8 },
  mini: { controlHeight: 28, fontSize: 12, cellBlock: 4, cellInline: 6 },
};

/** Chinese: a system CJK font when there is one, else the shipped Noto Sans SC (always last). */
const CHINESE_FAMILIES = ["'PingFang SC'", "'Hiragino Sans GB'", "'Microsoft YaHei'", "'Noto Sans SC'"];

/**
 * Latin text uses the system fonts; Chinese uses a system CJK font when there is one, else the
 * shipped Noto Sans SC (so screenshots on a machine without CJK fonts still show Chinese).
 */
export const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  "'Segoe UI'",
  'Roboto',
  "'Helvetica Neue'",
  'Arial',
  ...CHINESE_FAMILIES,
  'sans-serif',
  "'Apple Color Emoji'",
  "'Segoe UI Emoji'",
].join(', ');

/**
 * Codes and ids (hardware ids, barcodes, a station's terminal): a monospace font, and for the
 * Chinese of a placeholder or a message in the same field the Chinese fonts of FONT_FAMILY,
 * ending with the shipped Noto Sans SC (the browser's generic monospace has no Chinese on a bare
 * machine).
 */
export const MONO_FAMILY = [
  'ui-monospace',
  'SFMono-Regular',
  'Menlo',
  'Consolas',
  "'Liberation Mono'",
  'monospace',
  ...CHINESE_FAMILIES,
].join(', ');

/** WCAG 2.1 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2.1 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(hex: string, toward: number, amount: number): string {
  let out = '#';
  for (let i = 0; i < 3; i++) {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    out += Math.round(c + (toward - c) * amount)
      .toString(16)
      .padStart(2, '0');
  }
  return out;
}

/**
 * The colour, darkened (on a light background) or lightened (on a dark one) just enough that text
 * in it, or white text on it, reads at `ratio` (WCAG 2.1 AA: 4.5 for normal text). A colour that
 * already reads is answered unchanged.
 */
export function readable(colour: string, background: string, ratio = 4.5): string {
  const c = colour.toLowerCase();
  const toward = luminance(background) > 0.18 ? 0 : 255;
  for (let step = 0; step <= 40; step++) {
    const candidate = mix(c, toward, step / 40);
    if (contrast(candidate, background) >= ratio) return candidate;
  }
  return toward === 0 ? '#000000' : '#ffffff';
}

/** The sidebar's backgrounds (group title and item), against which its active colour must read. */
export const SIDEBAR_BACKGROUNDS = ['#304156', '#263445', '#1f2d3d'] as const;

/**
 * The theme colour as drawn: the chosen colour, darkened where needed so that it reads as text on
 * the console's light greys and white text reads on it; `onDark` is the shade for the sidebar.
 */
export function themeColours(colour: string): { primary: string; onDark: string } {
  const primary = readable(colour, '#f0f2f5', 4.6);
  let onDark = colour.toLowerCase();
  for (const background of SIDEBAR_BACKGROUNDS) onDark = readable(onDark, background, 4.6);
  return { primary, onDark };
}

/** antd's preset colours whose tag text (shade 7) is darkened to read on the tag's own light fill. */
const PRESETS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'gold',
  'lime',
] as const;

let presetText: Record<string, string> | undefined;

/** Tag text colours (`green7` …) that read at 4.5:1 on the tag's fill (`green1` …). */
function presetTextTokens(): Record<string, string> {
  if (presetText) return presetText;
  const base = theme.getDesignToken() as unknown as Record<string, string>;
  presetText = {};
  for (const name of PRESETS) {
    const fill = base[`${name}1`];
    const text = base[`${name}7`];
    if (!fill || !text) continue;
    // antd keeps each palette step under two names (green7, green-7), both written to --ant-green-7.
    presetText[`${name}7`] = readable(text, fill, 4.6);
    presetText[`${name}-7`] = presetText[`${name}7`];
  }
  return presetText;
}

/** Status colours (success, warning, error) dark enough for text on their light fills and on white. */
export const STATUS_TOKENS = {
  colorSuccess: readable('#52c41a', '#f6ffed', 4.6),
  colorWarning: readable('#faad14', '#fffbe6', 4.6),
  colorError: readable('#ff4d4f', '#fff2f0', 4.6),
  // antd derives the fills from the status colour; from the darker shades it would make greys
  // (#b9bfb2 behind a 'Success' tag), so the light fills and borders are kept as they were.
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorErrorBg: '#fff2f0',
  colorErrorBorder: '#ffccc7',
} as const;

/**
 * Text greys that read at 4.5:1 on white and on the page's #f0f2f5 (antd's defaults, 45 % and
 * 25 % black, do not): secondary text, descriptions, placeholders.
 */
const TEXT_TOKENS = {
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextDescription: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
} as const;

/** antd's base z-index of dialogs and pop-ups: above the sidebar's 1001, below the tab menu's 3000. */
export const POPUP_Z_INDEX = 2000;

/** `motion: false` when the user asks for reduced motion (platform/motion.ts). */
export function themeFor(size: Size, colour: string, motion = true): ThemeConfig {
  const d = DENSITY[size];
  const { primary, onDark } = themeColours(colour);
  return {
    cssVar: { key: 'esl' },
    token: {
      colorPrimary: primary,
      colorInfo: primary,
      colorLink: primary,
      ...STATUS_TOKENS,
      ...TEXT_TOKENS,
      ...presetTextTokens(),
      controlHeight: d.controlHeight,
      fontSize: d.fontSize,
      fontFamily: FONT_FAMILY,
      borderRadius: 4,
      motion,
      // Dialogs, drawers and pop-ups above the fixed sidebar (z-index 1001, layout.css): at antd's
      // 1000 a wide dialog's left part slid under the sidebar and the mask left the menu clickable.
      zIndexPopupBase: POPUP_Z_INDEX,
    },
    components: {
      Table: {
        cellPaddingBlock: d.cellBlock,
        cellPaddingInline: d.cellInline,
        cellPaddingBlockMD: d.cellBlock,
        cellPaddingInlineMD: d.cellInline,
        cellPaddingBlockSM: Math.max(2, d.cellBlock - 4),
        cellPaddingInlineSM: Math.max(4, d.cellInline - 4),
      },
      Menu: {
        darkItemBg: '#304156',
        darkSubMenuItemBg: '#1f2d3d',
        darkItemColor: '#bfcbd9',
        darkItemHoverBg: '#263445',
        darkItemSelectedBg: '#263445',
        darkItemSelectedColor: onDark,
        itemBorderRadius: 0,
        itemMarginInline: 0,
        itemMarginBlock: 0,
        itemHeight: 50,
        collapsedWidth: 54,
        fontSize: 14,
      },
    },
  };
}
