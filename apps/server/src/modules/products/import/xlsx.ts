import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { SheetRow } from './csv';

type Cell = ExcelJS.CellValue;

/** A cell's value as the text a person sees (formulas by their result, numbers in plain decimal). */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text as Cell);
  if ('formula' in value || 'sharedFormula' in value) return cellText((value.result ?? null) as Cell);
  return '';
}

/**
 * Reads the first worksheet of an XLSX file, streaming, into rows numbered as the spreadsheet
 * numbers them. Rows with no text are skipped.
 */
export async function readXlsx(bytes: Buffer): Promise<SheetRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const rows: SheetRow[] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = row.values as Cell[];
      const cells: string[] = [];
      // values[0] is unused: columns start at 1.
      for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
      if (cells.some((s) => s !== '')) rows.push({ line: row.number, cells });
    }
    break;
  }
  return rows;
}
