import { describe, expect, it } from 'vitest';
import { crc32, xlsxBytes } from './xlsx';

/** The stored files of a ZIP (no compression), by name. */
function unzipStored(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const files = new Map<string, string>();
  let at = 0;
  const decoder = new TextDecoder();
  while (view.getUint32(at, true) === 0x04034b50) {
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const name = decoder.decode(bytes.subarray(at + 30, at + 30 + nameLength));
    const data = bytes.subarray(at + 30 + nameLength, at + 30 + nameLength + size);
    expect(crc32(data), name).toBe(view.getUint32(at + 14, true));
    files.set(name, decoder.decode(data));
    at += 30 + nameLength + size;
  }
  return files;
}

describe('the import template as an XLSX workbook (issue 27: Excel users expect one)', () => {
  it('checks with the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('holds the title row as text cells on a named sheet, formulas kept as text', () => {
    const files = unzipStored(xlsxBytes([['条码', 'Name & size', '=SUM(A1)']], '商品'));
    expect([...files.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="商品"');
    const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
    expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t>条码</t></is></c>');
    expect(sheet).toContain('<t>Name &amp; size</t>');
    expect(sheet).toContain("<t>'=SUM(A1)</t>");
  });
});
