import { IMPORT_TIME_FIELD, type ImportColumn, type ImportOptions } from '@esl/contract';

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

/** The wizard's choice of when the rows take effect (docs/SCHEDULE.md). */
export interface TimeChoice {
  /** One time for the whole file (a row's own "takes effect at" cell still wins). */
  wholeFile: boolean;
  /** That time, `YYYY-MM-DDTHH:mm` on the stores' clocks; null until picked. */
  at: string | null;
  scope: 'store' | 'chain';
}

/** Whether some rows will become scheduled changes: a "takes effect at" column, or one time for the file. */
export function schedules(columns: readonly ImportColumn[], time: TimeChoice): boolean {
  return time.wholeFile || columns.some((c) => c.field === IMPORT_TIME_FIELD);
}

/** The import options the time choice adds; null when the whole-file time is asked for but not picked yet. */
export function timeOptions(
  columns: readonly ImportColumn[],
  time: TimeChoice,
): Pick<ImportOptions, 'at' | 'scope'> | null {
  if (time.wholeFile && time.at === null) return null;
  if (!schedules(columns, time)) return {};
  return { ...(time.wholeFile && time.at !== null ? { at: time.at } : {}), scope: time.scope };
}
