import type { ThemeConfig } from 'antd';

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
  "'PingFang SC'",
  "'Hiragino Sans GB'",
  "'Microsoft YaHei'",
  "'Noto Sans SC'",
  'sans-serif',
  "'Apple Color Emoji'",
  "'Segoe UI Emoji'",
].join(', ');

export function themeFor(size: Size, colour: string): ThemeConfig {
  const d = DENSITY[size];
  return {
    cssVar: { key: 'esl' },
    token: {
      colorPrimary: colour,
      colorInfo: colour,
      colorLink: colour,
      controlHeight: d.controlHeight,
      fontSize: d.fontSize,
      fontFamily: FONT_FAMILY,
      borderRadius: 4,
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
        darkItemSelectedColor: colour,
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
