import { describe, expect, it } from 'vitest';
import { parseCsv, sniffDelimiter } from './csv';

describe('CSV parsing', () => {
  it('reads quoted cells, doubled quotes, every line ending, and numbers records by their first line', () => {
    const text = 'a,b,c\r\n1,"x, y",3\n"multi\nline","say ""hi""",\r\n\r\nlast,,"end"\rx';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['1', 'x, y', '3'] },
      { line: 3, cells: ['multi\nline', 'say "hi"', ''] },
      { line: 6, cells: ['last', '', 'end'] },
      { line: 7, cells: ['x'] },
    ]);
  });

  it('keeps an unclosed quote to the end and a trailing delimiter as an empty cell', () => {
    expect(parseCsv('a,"open\nstill')).toEqual([{ line: 1, cells: ['a', 'open\nstill'] }]);
    expect(parseCsv('a,\n')).toEqual([{ line: 1, cells: ['a', ''] }]);
  });

  it('finds the delimiter of the title line', () => {
    expect(sniffDelimiter('条码;名称;价格\n1;2;3')).toBe(';');
    expect(sniffDelimiter('a\tb\tc')).toBe('\t');
    expect(sniffDelimiter('"a;b",c')).toBe(',');
    expect(parseCsv('a;b\n1;"2;3"')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', '2;3'] },
    ]);
  });
});
