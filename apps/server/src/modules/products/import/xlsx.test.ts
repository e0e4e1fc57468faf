import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readXlsx } from './xlsx';

/** A zip of the given files (deflated; CRCs left at 0, which the reader does not check). */
function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = deflateRawSync(Buffer.from(content));
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Buffer.byteLength(content), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(Buffer.byteLength(content), 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('XLSX reading', () => {
  it('reads shared, inline, rich and formula strings, numbers, booleans, gaps and row numbers', async () => {
    const file = zip({
      'xl/workbook.xml':
        '<workbook xmlns:r="r"><sheets><sheet name="商品" sheetId="1" r:id="rId7"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<Relationships><Relationship Id="rId1" Target="styles.xml"/><Relationship Id="rId7" Target="worksheets/data.xml"/></Relationships>',
      'xl/sharedStrings.xml':
        '<sst><si><t>条码</t></si><si><r><t>名</t></r><r><t xml:space="preserve">称 </t></r><rPh><t>ミョウ</t></rPh></si><si><t>A &amp; B &lt;1&gt; &#x4e2d;&#25991;</t></si><si/></sst>',
      'xl/worksheets/data.xml': [
        '<worksheet><sheetData>',
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>价格</t></is></c></row>',
        '<row r="3"><c r="A3"><v>6901234567892</v></c><c r="C3"><v>12.50</v></c><c r="D3" t="b"><v>1</v></c></row>',
        '<row r="4"/>',
        '<row r="5"><c r="B5" t="s"><v>3</v></c></row>',
        '<row r="6"><c r="A6" t="str"><f>CONCAT("x","y")</f><v>xy</v></c><c r="B6" t="s"><v>2</v></c><c r="C6" t="e"><v>#N/A</v></c><c r="E6" s="1"/></row>',
        '</sheetData></worksheet>',
      ].join(''),
    });
    expect(await readXlsx(file)).toEqual([
      { line: 1, cells: ['条码', '名称 ', '价格'] },
      { line: 3, cells: ['6901234567892', '', '12.5', 'TRUE'] },
      { line: 6, cells: ['xy', 'A & B <1> 中文', '', '', ''] },
    ]);
  });

  it('falls back to sheet1.xml and refuses what is not a zip', async () => {
    const file = zip({
      'xl/worksheets/sheet1.xml':
        '<worksheet><sheetData><row><c t="inlineStr"><is><t>x</t></is></c></row></sheetData></worksheet>',
    });
    expect(await readXlsx(file)).toEqual([{ line: 1, cells: ['x'] }]);
    await expect(readXlsx(Buffer.from('PK\x03\x04 not really'))).rejects.toThrow();
    await expect(readXlsx(zip({ 'other.txt': 'x' }))).rejects.toThrow('no worksheet');
  });
});
