import { toSpreadsheet } from '@esl/contract';

/**
 * One CSV cell: a text a spreadsheet would evaluate as a formula marked as text (`'`, as the
 * server's export does; the import takes the mark off), then quoted when it holds a delimiter, a
 * quote or a line break (RFC 4180).
 */
export function csvCell(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : toSpreadsheet(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of rows, CRLF line ends as spreadsheets write them. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** A CSV file for spreadsheets: the byte-order mark makes Excel read it as UTF-8 (the import skips it). */
export function csvBlob(rows: readonly (readonly (string | number)[])[]): Blob {
  return new Blob([`\uFEFF${toCsv(rows)}`], { type: 'text/csv;charset=utf-8' });
}

/** The file types an import takes. */
export function importFileType(name: string): 'csv' | 'xlsx' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  return null;
}
