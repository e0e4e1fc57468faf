import {
  ErrorCode,
  type FieldMap,
  IMPORT_HEADER_SEARCH_ROWS,
  IMPORT_PREVIEW_ROWS,
  IMPORT_REASONS,
  IMPORT_SHEETS_INSPECTED,
  IMPORT_TIME_FIELD,
  IMPORT_TIME_LABEL,
  type ImportColumn,
  type ImportData,
  type ImportInspection,
  ImportOptions,
  type ImportPreviewRow,
  type ImportSheet,
  PRODUCT_FIELD_LABELS,
  PRODUCT_FIELDS,
  PRODUCT_IMPORT_MAX_ROWS,
  type ProductField,
  REQUIRED_PRODUCT_FIELDS,
} from '@esl/contract';
import type { CallContext } from '../../../api/context';
import { AppError } from '../../../api/errors';
import { type CurrentStore, currentStore } from '../../stores/service';
import { effectiveFieldMap } from '../mapping';
import * as repo from '../repository';
import { csvRecords, type SheetRow } from './csv';
import { decodeCsv, EncodingError } from './encoding';
import { fileError, limitAnswer, readUpload, tableKind } from './file';
import { LimitError, READ_LIMITS, type ReadLimits } from './limits';
import { checkRows } from './rows';
import { RowSink } from './rowsink';
import { importGate, refused, type ScheduleRows, writeTable } from './service';
import { Slicer } from './slices';
import { type ColumnMatch, headerScore, matchColumns, titleIndex } from './synonyms';
import { Workbook } from './xlsx';

/** Rows read from the top of each sheet: where the title row is looked for, and the preview under it. */
const TOP_ROWS = IMPORT_HEADER_SEARCH_ROWS + IMPORT_PREVIEW_ROWS;
/** Bytes of a CSV file decoded to look at its top. */
const CSV_SAMPLE_BYTES = 256 * 1024;
/** Characters of a cell or title sent back in an inspection. */
const SHOWN_CHARS = 100;

type Delimiter = ',' | ';' | '\t';
const DELIMITERS: readonly Delimiter[] = [',', ';', '\t'];

/**
 * The separator of CSV text: the one that splits the first lines most consistently (the most
 * lines cut into the same number of cells, then the most cells), so an instructions line at the
 * top does not decide it. Quotes are respected.
 */
export function sniffSeparator(text: string): Delimiter {
  const lines: Map<Delimiter, number>[] = [];
  let counts = new Map<Delimiter, number>();
  let quoted = false;
  for (let i = 0; i < Math.min(text.length, CSV_SAMPLE_BYTES) && lines.length < 20; i++) {
    const c = text[i] ?? '';
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      if (counts.size) lines.push(counts);
      counts = new Map();
    } else if (!quoted && DELIMITERS.includes(c as Delimiter)) {
      counts.set(c as Delimiter, (counts.get(c as Delimiter) ?? 0) + 1);
    }
  }
  if (counts.size) lines.push(counts);
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const seen = new Map<number, number>();
    for (const line of lines) {
      const n = line.get(d) ?? 0;
      if (n > 0) seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    for (const [n, times] of seen) {
      const score = times * 1000 + n;
      if (score > bestScore) {
        best = d;
        bestScore = score;
      }
    }
  }
  return best;
}

/** A file as the wizard reads it: its sheets, and the rows of any of them (whole or the top). */
interface Source {
  kind: 'xlsx' | 'csv';
  encoding: ImportInspection['encoding'];
  delimiter: Delimiter | null;
  names: string[];
  rows(sheet: number, firstRows?: number): Promise<SheetRow[]>;
}

async function openSource(ctx: CallContext, bytes: Buffer, slicer: Slicer, limits: ReadLimits): Promise<Source> {
  const kind = tableKind(bytes);
  if (kind === null) throw fileError(ctx, 'type');
  if (kind === 'xlsx') {
    const book = Workbook.open(bytes, { limits, slicer });
    const names = (await book.sheets()).map((s) => s.name);
    return { kind, encoding: null, delimiter: null, names, rows: (sheet, first) => book.rows(sheet, first) };
  }
  const top = await decodeCsv(bytes, slicer, { detect: true, sampleBytes: CSV_SAMPLE_BYTES });
  const delimiter = sniffSeparator(top.text);
  const encoding = top.encoding === 'gb18030' ? 'gb18030' : top.bom ? 'utf-8-bom' : 'utf-8';
  return {
    kind,
    encoding,
    delimiter,
    names: [''],
    rows: async (_sheet, first = Number.POSITIVE_INFINITY) => {
      const text = Number.isFinite(first) ? top.text : (await decodeCsv(bytes, slicer, { detect: true })).text;
      const sink = new RowSink(limits);
      for (const row of csvRecords(text, delimiter, limits)) {
        if (sink.rows.length >= first) break;
        sink.add(row);
        await slicer.pause();
      }
      return sink.rows;
    },
  };
}

/** Read errors as the caller's answer: a limit names itself, a broken file says it cannot be read. */
async function guarded<T>(ctx: CallContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LimitError) throw limitAnswer(err, ctx.lang);
    if (err instanceof EncodingError) throw fileError(ctx, 'encodings');
    if (err instanceof AppError) throw err;
    throw fileError(ctx, 'unreadable');
  }
}

/** The title row among the first rows that maps the most fields (the first of equals). */
function bestHeader(top: readonly SheetRow[], index: ReturnType<typeof titleIndex>) {
  let best: { row: SheetRow; matches: ColumnMatch[]; score: number } | undefined;
  for (const row of top.slice(0, IMPORT_HEADER_SEARCH_ROWS)) {
    const matches = matchColumns(row.cells, index);
    const score = headerScore(matches, REQUIRED_PRODUCT_FIELDS);
    if (!best || score > best.score) best = { row, matches, score };
  }
  return best;
}

interface Plan {
  sheets: ImportSheet[];
  sheet: number;
  header: SheetRow;
  columns: ImportColumn[];
  /** The rows read from the top of the chosen sheet. */
  top: SheetRow[];
  map: FieldMap[];
}

/** What the options (or, where they say nothing, the file itself) choose: sheet, title row, columns. */
async function planImport(ctx: CallContext, source: Source, options: ImportOptions, map: FieldMap[]): Promise<Plan> {
  const index = titleIndex(map);
  const sheets: ImportSheet[] = [];
  const tops: SheetRow[][] = [];
  let chosen = -1;
  let chosenScore = -1;
  for (let i = 0; i < source.names.length; i++) {
    const name = (source.names[i] ?? '').slice(0, SHOWN_CHARS);
    // Every sheet's top is looked at even when one is asked for, so the list stays the same.
    const look = i < IMPORT_SHEETS_INSPECTED || options.sheet === i;
    if (!look) {
      sheets.push({ index: i, name, headerLine: 0, matched: 0 });
      continue;
    }
    const top = await source.rows(i, TOP_ROWS);
    tops[i] = top;
    const best = bestHeader(top, index);
    const matched = best ? best.matches.filter((m) => m.field !== null).length : 0;
    sheets.push({ index: i, name, headerLine: best?.row.line ?? 0, matched });
    if (best && best.score > chosenScore) {
      chosen = i;
      chosenScore = best.score;
    }
  }
  const sheet = options.sheet ?? Math.max(chosen, 0);
  const top = tops[sheet];
  if (top === undefined) throw fileError(ctx, 'sheet');
  const reason = (key: keyof typeof IMPORT_REASONS, detail: string) =>
    IMPORT_REASONS[key][ctx.lang].replace('{detail}', detail);
  const header =
    options.headerLine === undefined
      ? bestHeader(top, index)?.row
      : top.slice(0, IMPORT_HEADER_SEARCH_ROWS).find((r) => r.line === options.headerLine);
  if (!header) {
    const line = options.headerLine ?? 1;
    throw refused([{ line, field: '', reason: reason(options.headerLine ? 'noHeader' : 'noRows', String(line)) }]);
  }
  const suggested = matchColumns(header.cells, index);
  let columns: ImportColumn[] = suggested.map((c) => ({
    index: c.index,
    title: c.title.slice(0, SHOWN_CHARS),
    field: c.field,
    match: c.kind,
  }));
  if (options.columns) {
    const chosenFields = options.columns;
    columns = columns.map((c) => {
      const field = chosenFields[c.index] || null;
      return { ...c, field, match: field === null ? null : field === c.field ? c.match : 'chosen' };
    });
    const twice = new Set<string>();
    const seen = new Set<string>();
    for (const c of columns) {
      if (c.field === null) continue;
      if (seen.has(c.field)) twice.add(c.field);
      seen.add(c.field);
    }
    if (twice.size) {
      throw refused(
        [...twice].map((f) => ({ line: header.line, field: f, reason: reason('columnTwice', fieldLabel(f, ctx)) })),
      );
    }
  }
  return { sheets, sheet, header, columns, top, map };
}

/** The first non-empty cells of a row, as one short line of text. */
function glimpse(cells: readonly string[]): string {
  const text = cells
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .join(' | ');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

const fieldLabel = (field: string, ctx: CallContext) =>
  field === IMPORT_TIME_FIELD
    ? IMPORT_TIME_LABEL[ctx.lang]
    : (PRODUCT_FIELDS as readonly string[]).includes(field)
      ? PRODUCT_FIELD_LABELS[field as ProductField][ctx.lang]
      : field;

const columnMap = (columns: readonly ImportColumn[]) =>
  new Map(columns.filter((c) => c.field !== null).map((c) => [c.index, c.field as string]));

const missingOf = (columns: readonly ImportColumn[]) =>
  REQUIRED_PRODUCT_FIELDS.filter((f) => !columns.some((c) => c.field === f));

/** The multipart upload and its options; options that are not valid JSON or break the schema are refused. */
async function upload(ctx: CallContext) {
  const file = await readUpload(ctx);
  let raw: unknown = {};
  if (file.options !== undefined && file.options.trim() !== '') {
    try {
      raw = JSON.parse(file.options);
    } catch {
      throw fileError(ctx, 'options');
    }
  }
  const parsed = ImportOptions.safeParse(raw);
  if (!parsed.success) throw fileError(ctx, 'options');
  return { ...file, options: parsed.data };
}

/** A call of the wizard: one at a time per the import gate, as the import itself. */
async function gated<T>(ctx: CallContext, work: (at: CurrentStore) => Promise<T>): Promise<T> {
  const at = await currentStore(ctx);
  const leave = importGate.enter(at.tenantId);
  if (!leave) throw new AppError(ErrorCode.BUSY, { detail: 'importBusy' });
  try {
    return await work(at);
  } finally {
    leave();
  }
}

/**
 * Looks at an import file (beyond SPEC): its sheets, the title row of each (the row among the
 * first ones that maps the most fields through the mapping and the synonyms), the columns of the
 * chosen sheet with the field suggested or chosen for each, and its first rows with what the
 * import would refuse in them. Only the first rows of each sheet are read, within every limit.
 */
export function inspectImport(ctx: CallContext): Promise<ImportInspection> {
  return gated(ctx, async (at) => {
    const slicer = new Slicer();
    const file = await upload(ctx);
    ctx.target = { kind: 'file', name: file.name };
    const map = effectiveFieldMap(await repo.findFieldMap(ctx.services.db, at.tenantId));
    return guarded(ctx, async () => {
      const source = await openSource(ctx, file.bytes, slicer, READ_LIMITS);
      const plan = await planImport(ctx, source, file.options, map);
      const rows = plan.top.filter((r) => r.line > plan.header.line).slice(0, IMPORT_PREVIEW_ROWS);
      const { errors } = await checkRows(rows, columnMap(plan.columns), plan.header.cells.length, ctx.lang);
      const preview: ImportPreviewRow[] = rows.map((r) => ({
        line: r.line,
        cells: r.cells.map((c) => c.slice(0, SHOWN_CHARS)),
        problems: errors.filter((e) => e.line === r.line).map(({ field, reason }) => ({ field, reason })),
      }));
      return {
        kind: source.kind,
        encoding: source.encoding,
        delimiter: source.delimiter,
        sheets: plan.sheets.slice(0, 100),
        sheet: plan.sheet,
        headerLine: plan.header.line,
        lines: plan.top.slice(0, IMPORT_HEADER_SEARCH_ROWS).map((r) => ({ line: r.line, text: glimpse(r.cells) })),
        columns: plan.columns,
        missing: missingOf(plan.columns),
        fields: map,
        preview,
      };
    });
  });
}

/**
 * Imports a file with the wizard's choices (beyond SPEC): the chosen sheet, the rows under the
 * chosen title row, the chosen columns; all or nothing as the spec's import. With `save`, the
 * titles of the chosen columns become the tenant's field mapping once the import succeeds. Rows
 * with a time ("takes effect at", or the file's `at`) become scheduled changes through `schedule`
 * (docs/SCHEDULE.md).
 */
export function importMapped(ctx: CallContext, schedule: ScheduleRows): Promise<ImportData> {
  return gated(ctx, async (at) => {
    const slicer = new Slicer();
    const file = await upload(ctx);
    ctx.target = { kind: 'file', name: file.name };
    const map = effectiveFieldMap(await repo.findFieldMap(ctx.services.db, at.tenantId));
    const reason = (key: keyof typeof IMPORT_REASONS, detail = '') =>
      IMPORT_REASONS[key][ctx.lang].replace('{detail}', detail);
    const { plan, table } = await guarded(ctx, async () => {
      const source = await openSource(ctx, file.bytes, slicer, READ_LIMITS);
      const plan = await planImport(ctx, source, file.options, map);
      const rows = await source.rows(plan.sheet);
      // The title row, then the rows under it.
      return { plan, table: [plan.header, ...rows.filter((r) => r.line > plan.header.line)] };
    });
    const line = plan.header.line;
    const missing = missingOf(plan.columns);
    if (missing.length) {
      throw refused(missing.map((f) => ({ line, field: f, reason: reason('missingField', fieldLabel(f, ctx)) })));
    }
    if (table.length === 1) throw refused([{ line, field: '', reason: reason('noRows') }]);
    if (table.length - 1 > PRODUCT_IMPORT_MAX_ROWS) {
      throw refused([{ line, field: '', reason: reason('tooManyRows', String(PRODUCT_IMPORT_MAX_ROWS)) }]);
    }
    const result = await writeTable(
      ctx,
      at,
      file.name,
      table,
      columnMap(plan.columns),
      plan.header.cells.length,
      slicer,
      { write: schedule, at: file.options.at, scope: file.options.scope ?? 'store' },
    );
    if (file.options.save) {
      const saved = savedMapping(map, plan.columns);
      await repo.saveFieldMap(ctx.services.db, at.tenantId, JSON.stringify(saved), ctx.now);
    }
    return result;
  });
}

/**
 * The field mapping after saving the chosen columns: each chosen field takes its column's title;
 * a field not chosen keeps its title unless a chosen column now uses it, in which case a standard
 * field goes back to its default title (or its own name) and a custom field is dropped.
 */
export function savedMapping(current: readonly FieldMap[], columns: readonly ImportColumn[]): FieldMap[] {
  const chosen = new Map<string, string>();
  // The time column is no product field: the mapping does not keep it (its synonyms find it).
  for (const c of columns)
    if (c.field !== null && c.field !== IMPORT_TIME_FIELD && c.title.trim() !== '')
      chosen.set(c.field, c.title.trim().slice(0, 64));
  const used = new Set([...chosen.values()].map((t) => t.toLowerCase()));
  const out: FieldMap[] = [];
  for (const { name, tField } of current) {
    const title = chosen.get(name);
    if (title !== undefined) {
      out.push({ name, tField: title });
      continue;
    }
    if (!used.has(tField.toLowerCase())) {
      out.push({ name, tField });
      used.add(tField.toLowerCase());
      continue;
    }
    if (!(PRODUCT_FIELDS as readonly string[]).includes(name)) continue;
    const fallback = [PRODUCT_FIELD_LABELS[name as ProductField]['zh-CN'], name].find(
      (t) => !used.has(t.toLowerCase()),
    );
    out.push({ name, tField: fallback ?? name });
    used.add((fallback ?? name).toLowerCase());
  }
  // Custom fields chosen that the mapping did not list yet.
  for (const [name, tField] of chosen) if (!out.some((f) => f.name === name)) out.push({ name, tField });
  return out;
}
