/** Width of the row-selection column. */
export const SELECTION_WIDTH = 40;

/** Above this many rows on a page a table renders only the rows in view (antd's virtual table). */
export const VIRTUAL_FROM = 100;

/** Height of a virtual table's scrolling body. */
export const VIRTUAL_HEIGHT = 560;

/**
 * The sum of the columns' widths (plus `extra`, e.g. the selection column). A virtual table
 * lays its header and body out separately, so its scroll width must be exactly this, or the
 * header drifts from the rows.
 */
export function tableWidth(columns: readonly { width?: unknown }[], extra = 0): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), extra);
}
