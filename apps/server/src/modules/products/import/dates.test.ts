import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { formatKind, isoText, serialText, styleKinds } from './dates';
import { readXlsx } from './xlsx';

describe('dates in XLSX cells', () => {
  it('tells date, time and number formats apart by their code', () => {
    expect(formatKind('yyyy-mm-dd')).toBe('date');
    expect(formatKind('yyyy"年"m"月"d"日"')).toBe('date');
    expect(formatKind('[$-804]yyyy/m/d;@')).toBe('date');
    expect(formatKind('mmm-yy')).toBe('date');
    expect(formatKind('h:mm AM/PM')).toBe('time');
    expect(formatKind('hh:mm:ss')).toBe('time');
    expect(formatKind('yyyy-mm-dd hh:mm')).toBe('dateTime');
    expect(formatKind('General')).toBeNull();
    expect(formatKind('0.00')).toBeNull();
    expect(formatKind('#,##0.00;[Red]-#,##0.00')).toBeNull();
    expect(formatKind('0.0 "days"')).toBeNull();
    expect(formatKind('[$¥-804]#,##0.00')).toBeNull();
    expect(formatKind('0.00E+00')).toBeNull();
    expect(formatKind('[h]:mm')).toBeNull();
  });

  it("finds the format of each cell style, built in or the workbook's own", () => {
    const styles =
      '<styleSheet><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;"/>' +
      '<numFmt numFmtId="165" formatCode="0.000"/></numFmts>' +
      '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/>' +
      '<xf numFmtId="165"/><xf numFmtId="20"/><xf numFmtId="22"/></cellXfs></styleSheet>';
    expect(styleKinds(styles)).toEqual([null, 'date', 'date', null, 'time', 'dateTime']);
    expect(styleKinds(undefined)).toEqual([]);
  });

  it('reads a day serial as the calendar the spreadsheet shows', () => {
    expect(serialText(46346, 'date', false)).toBe('2026-11-20');
    expect(serialText(46346.5, 'date', false)).toBe('2026-11-20');
    expect(serialText(46346.75, 'dateTime', false)).toBe('2026-11-20 18:00');
    expect(serialText(0.3541666667, 'time', false)).toBe('08:30');
    expect(serialText(0.35434, 'time', false)).toBe('08:30:15');
    // Excel's 1900 calendar: day 1 is 1 January 1900, day 61 is 1 March (day 60 is its 29 February).
    expect(serialText(1, 'date', false)).toBe('1900-01-01');
    expect(serialText(59, 'date', false)).toBe('1900-02-28');
    expect(serialText(61, 'date', false)).toBe('1900-03-01');
    // Old Mac workbooks count from 1904.
    expect(serialText(44884, 'date', true)).toBe('2026-11-20');
    // No date shows for these: the number stays.
    expect(serialText(-3, 'date', false)).toBe('-3');
    expect(serialText(3e7, 'date', false)).toBe('30000000');
    expect(isoText('2026-11-20T00:00:00Z')).toBe('2026-11-20');
    expect(isoText('2026-11-20T08:30:15.000')).toBe('2026-11-20 08:30:15');
    expect(isoText('not a date')).toBe('not a date');
  });

  it('reads the dates of a workbook written by a spreadsheet program as dates, its numbers as numbers', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('价目表');
    sheet.addRow(['条码', '名称', '价格', '生产日期', '到货时间', '上架']);
    const row = sheet.addRow([
      '6901',
      '牛奶',
      12.5,
      new Date(Date.UTC(2026, 10, 20)),
      new Date(Date.UTC(2026, 10, 20, 18, 0)),
      46347,
    ]);
    row.getCell(3).numFmt = '0.00';
    row.getCell(4).numFmt = 'yyyy"年"m"月"d"日"';
    row.getCell(5).numFmt = 'yyyy-mm-dd hh:mm';
    row.getCell(6).numFmt = 'mm-dd-yy';
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await readXlsx(bytes)).toEqual([
      { line: 1, cells: ['条码', '名称', '价格', '生产日期', '到货时间', '上架'] },
      { line: 2, cells: ['6901', '牛奶', '12.5', '2026-11-20', '2026-11-20 18:00', '2026-11-21'] },
    ]);

    // The same workbook counting days from 1904: the serials are smaller, the dates the same.
    const parts = unzipSync(bytes);
    const book = strFromU8(parts['xl/workbook.xml'] as Uint8Array);
    const sheetXml = strFromU8(parts['xl/worksheets/sheet1.xml'] as Uint8Array);
    parts['xl/workbook.xml'] = strToU8(
      book.includes('<workbookPr')
        ? book.replace('<workbookPr', '<workbookPr date1904="1"')
        : book.replace('<sheets>', '<workbookPr date1904="1"/><sheets>'),
    );
    parts['xl/worksheets/sheet1.xml'] = strToU8(
      sheetXml.replace(/<v>(4634[67](?:\.\d+)?)<\/v>/g, (_m, v: string) => `<v>${Number(v) - 1462}</v>`),
    );
    const mac = await readXlsx(Buffer.from(zipSync(parts)));
    expect(mac[1]?.cells).toEqual(['6901', '牛奶', '12.5', '2026-11-20', '2026-11-20 18:00', '2026-11-21']);
  });
});
