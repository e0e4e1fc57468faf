import type { SheetRow } from './csv';
import { readEntry, zipEntries } from './zip';

/**
 * Reads the first worksheet of an XLSX file into rows numbered as the spreadsheet numbers them,
 * every cell as the text a person sees (shared and inline strings, formula results, numbers in
 * plain decimal, TRUE/FALSE). Rows with no text are skipped. A plain scan of the sheet's XML:
 * general XLSX libraries take several seconds for 100,000 rows, this a fraction of one.
 */
export function readXlsx(bytes: Buffer): SheetRow[] {
  const entries = zipEntries(bytes);
  const text = (name: string): string | undefined => {
    const entry = entries.get(name);
    return entry ? readEntry(bytes, entry).toString('utf8') : undefined;
  };
  const sheetPath = firstSheetPath(text('xl/workbook.xml'), text('xl/_rels/workbook.xml.rels'));
  const sheet = text(sheetPath);
  if (sheet === undefined) throw new Error('no worksheet');
  const shared = sharedStrings(text('xl/sharedStrings.xml'));
  return sheetRows(sheet, shared);
}

/** The path of the workbook's first sheet, through its relationship; sheet1.xml when unnamed. */
function firstSheetPath(workbook: string | undefined, rels: string | undefined): string {
  const fallback = 'xl/worksheets/sheet1.xml';
  const sheet = workbook && /<(?:\w+:)?sheet\b[^>]*>/.exec(workbook)?.[0];
  const id = sheet && /\br:id="([^"]+)"/.exec(sheet)?.[1];
  if (!id || !rels) return fallback;
  for (const rel of rels.match(/<Relationship\b[^>]*>/g) ?? []) {
    if (attribute(rel, 'Id') !== id) continue;
    const target = attribute(rel, 'Target');
    if (!target) return fallback;
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  }
  return fallback;
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The shared strings: each <si> is the text of its <t> runs (phonetic <rPh> runs left out). */
function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const out: string[] = [];
  const item = /<si>([\s\S]*?)<\/si>|<si\/>/g;
  for (let m = item.exec(xml); m; m = item.exec(xml)) out.push(runsText(m[1] ?? ''));
  return out;
}

function runsText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  const run = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g;
  for (let m = run.exec(body); m; m = run.exec(body)) out += m[1];
  return unescapeXml(out);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      // Beyond U+10FFFF fromCodePoint throws: such a reference stays as it was written.
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

/** Column index (0-based) of a cell reference such as "AB12". */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

function sheetRows(xml: string, shared: readonly string[]): SheetRow[] {
  const rows: SheetRow[] = [];
  const rowRe = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
  const cellRe = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
  let line = 0;
  for (let r = rowRe.exec(xml); r; r = rowRe.exec(xml)) {
    const number = attribute(r[1], 'r');
    line = number ? Number(number) : line + 1;
    const body = r[2];
    if (!body) continue;
    const cells: string[] = [];
    let next = 0;
    cellRe.lastIndex = 0;
    for (let c = cellRe.exec(body); c; c = cellRe.exec(body)) {
      const ref = attribute(c[1], 'r');
      const index = ref ? columnOf(ref) : next;
      next = index + 1;
      const value = cellValue(attribute(c[1], 't'), c[2] ?? '', shared);
      while (cells.length < index) cells.push('');
      cells[index] = value;
    }
    if (cells.some((s) => s !== '')) rows.push({ line, cells });
  }
  return rows;
}

function cellValue(type: string | undefined, body: string, shared: readonly string[]): string {
  if (type === 'inlineStr') return runsText(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
  const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
  if (v === undefined) return '';
  switch (type) {
    case 's':
      return shared[Number(v)] ?? '';
    case 'str':
    case 'd':
      return unescapeXml(v);
    case 'b':
      return v === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return '';
    default: {
      // Numbers as their shortest decimal text, like a spreadsheet's general format ("12.50" → "12.5").
      const n = Number(v);
      return Number.isFinite(n) ? String(n) : unescapeXml(v);
    }
  }
}
