/**
 * Hostile files for the import's limits, built in a fraction of a second: tests and bench/ use
 * them. A deflate stream may be cut into blocks flushed to a byte boundary; one block flushed so
 * (never final) can be repeated any number of times and closed with an empty final block, which
 * is how a 300 KB file comes to hold two million rows.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';

const SYNC = { finishFlush: constants.Z_SYNC_FLUSH, level: 9 };
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

interface Part {
  name: string;
  /** Raw deflate data. */
  data: Buffer;
  size: number;
}

/** A part made of `head`, `body` repeated `times` times, then `tail`, deflated without holding it unpacked. */
function repeatedPart(name: string, head: string, body: string, times: number, tail: string): Part {
  const h = deflateRawSync(Buffer.from(head), SYNC);
  const b = deflateRawSync(Buffer.from(body), SYNC);
  const t = deflateRawSync(Buffer.from(tail), SYNC);
  const data = Buffer.concat([h, ...Array.from({ length: times }, () => b), t, FINAL_EMPTY_BLOCK]);
  const size = Buffer.byteLength(head) + Buffer.byteLength(body) * times + Buffer.byteLength(tail);
  return { name, data, size };
}

function plainPart(name: string, text: string): Part {
  return { name, data: deflateRawSync(Buffer.from(text)), size: Buffer.byteLength(text) };
}

/** A zip of deflated parts (CRCs left at 0: the reader does not check them). */
function zipOf(parts: Part[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data, size } of parts) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Math.min(size, 0xffffffff), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(Math.min(size, 0xffffffff), 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    out.push(local, nameBytes, data);
    central.push(dir, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end]);
}

const SHEET_HEAD =
  '<worksheet><sheetData><row><c t="inlineStr"><is><t>barcode</t></is></c>' +
  '<c t="inlineStr"><is><t>name</t></is></c><c t="inlineStr"><is><t>price</t></is></c></row>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** A small pseudo-random generator, so the files are the same on every run. */
function digits(seed: number, count: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += String(x % 10);
  }
  return out;
}

/** 10,000 product rows, four varied digits each, one repeated block of a sheet. */
function variedRows(): string {
  const rows: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const d = digits(i + 1, 4);
    rows.push(`<row><c><v>690123456${d}</v></c><c t="inlineStr"><is><t>Apple</t></is></c><c><v>1.5</v></c></row>`);
  }
  return rows.join('');
}

/** A sheet of `rows` product rows (a multiple of 10,000) that packs under the ratio limit: the row limit stops it. */
export function manyRowsXlsx(rows = 2_000_000): Buffer {
  return zipOf([repeatedPart('xl/worksheets/sheet1.xml', SHEET_HEAD, variedRows(), rows / 10_000, SHEET_TAIL)]);
}

/** `rows` identical rows (a multiple of 10,000) packed about 1,000:1: the ratio limit stops it. */
export function ratioBombXlsx(rows = 2_000_000): Buffer {
  const row = '<row><c><v>6901234567892</v></c><c t="inlineStr"><is><t>Apple</t></is></c><c><v>1.5</v></c></row>';
  return zipOf([repeatedPart('xl/worksheets/sheet1.xml', SHEET_HEAD, row.repeat(10_000), rows / 10_000, SHEET_TAIL)]);
}

/** A shared-strings part of about `megabytes` MB (packing under the ratio limit) beside a one-row sheet. */
export function sharedStringsBombXlsx(megabytes = 195): Buffer {
  const items: string[] = [];
  for (let i = 0; i < 4_000; i++) items.push(`<si><t>${'商品名称'.repeat(6)}${digits(i + 7, 4)}</t></si>`);
  const body = items.join('');
  const times = Math.ceil((megabytes * 1024 * 1024) / Buffer.byteLength(body));
  return zipOf([
    repeatedPart('xl/sharedStrings.xml', '<sst>', body, times, '</sst>'),
    plainPart(
      'xl/worksheets/sheet1.xml',
      '<worksheet><sheetData><row><c t="s"><v>0</v></c></row></sheetData></worksheet>',
    ),
  ]);
}

/** A title row of `columns` non-empty cells. */
export function wideXlsx(columns = 300): Buffer {
  const cells = Array.from({ length: columns }, (_, i) => `<c t="inlineStr"><is><t>c${i}</t></is></c>`).join('');
  return zipOf([
    plainPart('xl/worksheets/sheet1.xml', `<worksheet><sheetData><row>${cells}</row></sheetData></worksheet>`),
  ]);
}

/** A zip of `entries` empty files beside a sheet. */
export function manyEntriesXlsx(entries = 10_001): Buffer {
  const files: Record<string, Uint8Array> = {
    'xl/worksheets/sheet1.xml': Buffer.from(`<worksheet><sheetData>${SHEET_HEAD.slice(23)}</sheetData></worksheet>`),
  };
  for (let i = 1; i < entries; i++) files[`xl/media/f${i}.bin`] = new Uint8Array(0);
  return Buffer.from(zipSync(files, { level: 0 }));
}

/** A CSV whose title line holds `cells` empty cells (20 MB of commas by default). */
export function wideCsv(cells = 20_000_000): Buffer {
  return Buffer.alloc(cells - 1, ',');
}
