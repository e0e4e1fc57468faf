import type { ImportColumn } from '@esl/contract';

/** A spreadsheet's column letters for a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * The fields of the columns after the user gives column `index` the field `field` ('' for none):
 * a field is filled by one column, so another column that had it is left without one.
 */
export function chooseField(columns: readonly ImportColumn[], index: number, field: string): string[] {
  return columns.map((c) => {
    if (c.index === index) return field;
    if (field !== '' && c.field === field) return '';
    return c.field ?? '';
  });
}
