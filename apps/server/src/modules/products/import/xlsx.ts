import type { SheetRow } from './csv';
import { type DateKind, isoText, serialText, styleKinds, uses1904 } from './dates';
import { LimitError, READ_LIMITS, type ReadLimits } from './limits';
import { RowSink } from './rowsink';
import { Slicer } from './slices';
import { UnpackBudget, unpackEntry, type ZipEntry, zipEntries } from './zip';

export interface ReadOptions {
  limits?: ReadLimits;
  slicer?: Slicer;
  /** Which worksheet, in the workbook's order (0: the first). */
  sheet?: number;
}

/** A worksheet as the workbook lists it. */
export interface SheetEntry {
  name: string;
  path: string;
}

/** Thrown from inside a sheet's scan to stop it once enough rows are read. */
class Enough extends Error {}

/**
 * An XLSX file opened for reading: its worksheets by name, each readable whole or by its first
 * rows. Every part read counts against one budget (ReadLimits), so reading several sheets costs
 * no more than the limits allow for one file.
 */
export class Workbook {
  private readonly limits: ReadLimits;
  private readonly slicer: Slicer;
  private readonly entries: Map<string, ZipEntry>;
  private readonly budget: UnpackBudget;
  private shared: string[] | undefined;
  private sheetList: SheetEntry[] | undefined;
  private dates: CellDates | undefined;

  private constructor(
    private readonly bytes: Buffer,
    options: ReadOptions,
  ) {
    this.limits = options.limits ?? READ_LIMITS;
    this.slicer = options.slicer ?? new Slicer();
    this.entries = zipEntries(bytes, this.limits.entries);
    this.budget = new UnpackBudget(this.limits);
  }

  static open(bytes: Buffer, options: ReadOptions = {}): Workbook {
    return new Workbook(bytes, options);
  }

  private unpack(entry: ZipEntry, maxBytes: number, onText: (text: string) => void) {
    const decoder = new TextDecoder('utf-8');
    return unpackEntry(this.bytes, entry, maxBytes, this.budget, this.slicer, (chunk) =>
      onText(decoder.decode(chunk, { stream: true })),
    );
  }

  private async text(name: string): Promise<string | undefined> {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const parts: string[] = [];
    await this.unpack(entry, this.limits.otherPartBytes, (t) => parts.push(t));
    return parts.join('');
  }

  /** The worksheets in the workbook's order; sheet1.xml alone when the workbook names none. */
  async sheets(): Promise<SheetEntry[]> {
    if (!this.sheetList) {
      this.sheetList = sheetPaths(await this.text('xl/workbook.xml'), await this.text('xl/_rels/workbook.xml.rels'));
    }
    return this.sheetList;
  }

  /** Which cell styles show dates, and the day numbering, read once per workbook. */
  private async cellDates(): Promise<CellDates> {
    if (!this.dates) {
      const rels = await this.text('xl/_rels/workbook.xml.rels');
      let styles: string | undefined;
      try {
        styles = await this.text(stylesPath(rels));
      } catch (err) {
        // A styles part swollen past the part limit (formats copied in by the ten thousand) costs
        // the dates their form, not the import: its numbers are read as numbers.
        if (!(err instanceof LimitError && err.kind === 'partBytes')) throw err;
      }
      this.dates = { kinds: styleKinds(styles), from1904: uses1904(await this.text('xl/workbook.xml')) };
    }
    return this.dates;
  }

  private async sharedStrings(): Promise<string[]> {
    if (this.shared) return this.shared;
    const { limits } = this;
    const shared: string[] = [];
    const sst = this.entries.get('xl/sharedStrings.xml');
    if (sst) {
      const items = new Elements(SHARED_ITEM, SHARED_OPEN, limits.cellChars * 8 + 65_536, 'cellChars', limits, (m) => {
        if (shared.length >= limits.sharedStrings) throw new LimitError('sharedStrings', String(limits.sharedStrings));
        const value = runsText(m[1] ?? '');
        if (value.length > limits.cellChars) throw new LimitError('cellChars', String(limits.cellChars));
        shared.push(value);
      });
      await this.unpack(sst, limits.sharedStringsBytes, (t) => items.feed(t));
    }
    this.shared = shared;
    return shared;
  }

  /**
   * The rows of one worksheet (see readXlsx); with `firstRows`, the scan stops once that many rows
   * holding text are read, so looking at the top of a large sheet costs only the top.
   */
  async rows(index: number, firstRows = Number.POSITIVE_INFINITY): Promise<SheetRow[]> {
    const { limits } = this;
    const path = (await this.sheets())[index]?.path;
    const sheet = path === undefined ? undefined : this.entries.get(path);
    if (sheet === undefined) throw new Error('no worksheet');
    const shared = await this.sharedStrings();
    const dates = await this.cellDates();
    const sink = new RowSink(limits);
    let line = 0;
    const rows = new Elements(ROW, ROW_OPEN, limits.columns * (limits.cellChars + 1024), 'rowChars', limits, (m) => {
      const number = attribute(m[1] ?? '', 'r');
      line = number ? Number(number) : line + 1;
      const row = m[2] ? rowCells(m[2], line, shared, dates, limits) : null;
      if (row) sink.add({ line, cells: row });
      if (sink.rows.length >= firstRows) throw new Enough();
    });
    try {
      await this.unpack(sheet, limits.sheetBytes, (t) => rows.feed(t));
    } catch (err) {
      if (!(err instanceof Enough)) throw err;
    }
    return sink.rows;
  }
}

/** The date kind of each cell style, and whether days count from 1904. */
interface CellDates {
  kinds: readonly DateKind[];
  from1904: boolean;
}

/**
 * Reads one worksheet (the first unless `options.sheet` says) of an XLSX file into rows numbered
 * as the spreadsheet numbers them, every cell as the text a person sees (shared and inline
 * strings, formula results, numbers in plain decimal, dates and times as 2026-11-20 08:30 where
 * the cell's format shows them so, TRUE/FALSE). Rows with no text are skipped.
 * A plain scan of the sheet's XML as it unpacks, one row at a time: general XLSX libraries take
 * several seconds for 100,000 rows, this a fraction of one. Every limit (ReadLimits) is checked
 * while reading, and the work pauses for other requests between pieces.
 */
export async function readXlsx(bytes: Buffer, options: ReadOptions = {}): Promise<SheetRow[]> {
  return Workbook.open(bytes, options).rows(options.sheet ?? 0);
}

const SHARED_ITEM = /<si>([\s\S]*?)<\/si>|<si\/>/g;
const SHARED_OPEN = /<si[\s>/]/g;
const ROW = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
const ROW_OPEN = /<row[\s>/]/g;
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;

/**
 * Finds whole elements in XML that arrives in pieces: each complete match goes to `each`, the
 * unfinished element at the end waits for the next piece. An unfinished element longer than
 * `maxPending` characters is refused (kind `tooLong`), so one endless element cannot fill memory.
 */
class Elements {
  private pending = '';

  constructor(
    private readonly whole: RegExp,
    private readonly open: RegExp,
    private readonly maxPending: number,
    private readonly tooLong: 'cellChars' | 'rowChars',
    private readonly limits: ReadLimits,
    private readonly each: (m: RegExpExecArray) => void,
  ) {}

  feed(piece: string): void {
    const text = this.pending + piece;
    this.whole.lastIndex = 0;
    let done = 0;
    for (let m = this.whole.exec(text); m; m = this.whole.exec(text)) {
      this.each(m);
      done = this.whole.lastIndex;
    }
    this.open.lastIndex = done;
    let keep = this.open.exec(text)?.index ?? -1;
    if (keep < 0) {
      // Nothing begun: keep only a tag cut in two by the piece boundary.
      const lt = text.lastIndexOf('<');
      keep = lt >= done && text.indexOf('>', lt) < 0 ? lt : text.length;
    }
    this.pending = text.slice(keep);
    if (this.pending.length > this.maxPending) {
      const limit = this.tooLong === 'cellChars' ? this.limits.cellChars : this.maxPending;
      throw new LimitError(this.tooLong, String(limit));
    }
  }
}

/** Every worksheet of the workbook with its path, through its relationship; sheet1.xml when unnamed. */
function sheetPaths(workbook: string | undefined, rels: string | undefined): SheetEntry[] {
  const fallback = [{ name: 'Sheet1', path: 'xl/worksheets/sheet1.xml' }];
  const targets = new Map<string, string>();
  for (const rel of rels?.match(/<Relationship\b[^>]*>/g) ?? []) {
    const id = attribute(rel, 'Id');
    const target = attribute(rel, 'Target');
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  }
  const out: SheetEntry[] = [];
  for (const tag of workbook?.match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? []) {
    const id = /\br:id="([^"]+)"/.exec(tag)?.[1];
    const path = id ? targets.get(id) : undefined;
    if (path) out.push({ name: unescapeXml(attribute(tag, 'name') ?? ''), path });
  }
  return out.length ? out : fallback;
}

const attributeRes = new Map<string, RegExp>();

/** An attribute's value; the expressions are made once per name (this runs for every cell). */
function attribute(tag: string, name: string): string | undefined {
  let re = attributeRes.get(name);
  if (!re) {
    re = new RegExp(`\\b${name}="([^"]*)"`);
    attributeRes.set(name, re);
  }
  return re.exec(tag)?.[1];
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

/** The styles part the workbook's relationships name (xl/styles.xml when they name none). */
function stylesPath(rels: string | undefined): string {
  for (const rel of rels?.match(/<Relationship\b[^>]*>/g) ?? []) {
    const target = attribute(rel, 'Target');
    if (target && /\/styles"/.test(rel)) return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  }
  return 'xl/styles.xml';
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

/**
 * The cells of one row's XML, or null when none holds text. A cell with text beyond the column
 * limit, or longer than the cell limit, stops the read; empty cells beyond it are ignored.
 */
function rowCells(
  body: string,
  line: number,
  shared: readonly string[],
  dates: CellDates,
  limits: ReadLimits,
): string[] | null {
  const cells: string[] = [];
  let next = 0;
  let any = false;
  CELL.lastIndex = 0;
  for (let c = CELL.exec(body); c; c = CELL.exec(body)) {
    const ref = attribute(c[1] ?? '', 'r');
    const index = ref ? columnOf(ref) : next;
    next = index + 1;
    const value = cellValue(c[1] ?? '', c[2] ?? '', shared, dates);
    if (index >= limits.columns || index < 0) {
      if (value === '') continue;
      throw new LimitError('columns', String(limits.columns), line);
    }
    if (value.length > limits.cellChars) throw new LimitError('cellChars', String(limits.cellChars), line);
    while (cells.length < index) cells.push('');
    cells[index] = value;
    if (value !== '') any = true;
  }
  return any ? cells : null;
}

function cellValue(tag: string, body: string, shared: readonly string[], dates: CellDates): string {
  const type = attribute(tag, 't');
  if (type === 'inlineStr') return runsText(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
  const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
  if (v === undefined) return '';
  switch (type) {
    case 's':
      return shared[Number(v)] ?? '';
    case 'str':
      return unescapeXml(v);
    case 'd':
      return isoText(unescapeXml(v));
    case 'b':
      return v === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return '';
    default: {
      // Numbers as their shortest decimal text, like a spreadsheet's general format ("12.50" → "12.5"),
      // unless the cell's style shows it as a date or time.
      const n = Number(v);
      if (!Number.isFinite(n)) return unescapeXml(v);
      const style = dates.kinds.length ? attribute(tag, 's') : undefined;
      const kind = style === undefined ? null : (dates.kinds[Number(style)] ?? null);
      return kind ? serialText(n, kind, dates.from1904) : String(n);
    }
  }
}
