import { describe, expect, it } from 'vitest';
import { fromSpreadsheet, toSpreadsheet } from './formula';

describe('spreadsheet formula neutralisation', () => {
  it('marks every text a spreadsheet would evaluate', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\r=x', '=HYPERLINK("http://x","y")'])
      expect(toSpreadsheet(text), JSON.stringify(text)).toBe(`'${text}`);
    for (const text of ['', 'apple', '6901234567892', '12.50', "'quoted", "''", ' =x', '苹果=1'])
      expect(toSpreadsheet(text), JSON.stringify(text)).toBe(text);
    expect(toSpreadsheet("'=x")).toBe("''=x");
  });

  it('imports back exactly what was exported', () => {
    for (const text of ['=1', "'=1", "''=1", "'x", "''x", '-', '@', 'plain', "'", '\t'])
      expect(fromSpreadsheet(toSpreadsheet(text)), JSON.stringify(text)).toBe(text);
    expect(fromSpreadsheet("'=1")).toBe('=1');
    expect(fromSpreadsheet("'apple")).toBe("'apple");
  });
});
