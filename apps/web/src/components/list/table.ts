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

/**
 * The columns as a table of this width can show them. Pinned columns (`fixed`: the first ones at
 * the left, the actions at the right) stay in view while the rest scroll; on a narrow screen they
 * would cover each other and the scrolling part (a phone showed the tag ID over half the actions).
 * So they stay pinned only while they take at most half the table's width (`extra`: the selection
 * column, pinned with the left ones); otherwise the whole table scrolls. `width` 0: not measured yet.
 */
export function pinnedWhileTheyFit<C extends { width?: unknown; fixed?: unknown }>(
  columns: C[],
  width: number,
  extra = 0,
): C[] {
  const pinned = columns.filter((c) => c.fixed);
  if (width === 0 || pinned.length === 0) return columns;
  const left = columns.some((c) => c.fixed === 'left' || c.fixed === true) ? extra : 0;
  if (tableWidth(pinned, left) <= width / 2) return columns;
  return columns.map((c) => (c.fixed ? { ...c, fixed: undefined } : c));
}
