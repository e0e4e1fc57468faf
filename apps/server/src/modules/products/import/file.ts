import {
  ErrorCode,
  IMPORT_FILE_PROBLEMS,
  IMPORT_REASONS,
  type Language,
  PRODUCT_IMPORT_MAX_BYTES,
} from '@esl/contract';
import type {} from '@fastify/multipart';
import type { CallContext } from '../../../api/context';
import { AppError, badFile } from '../../../api/errors';
import { csvRecords, type SheetRow, sniffDelimiter } from './csv';
import { LimitError, READ_LIMITS, type ReadLimits } from './limits';
import { RowSink } from './rowsink';
import { Slicer } from './slices';
import { readXlsx } from './xlsx';

type FileProblem = keyof typeof IMPORT_FILE_PROBLEMS;

export const fileError = (ctx: CallContext, problem: FileProblem) =>
  new AppError(ErrorCode.BAD_FILE, { detail: IMPORT_FILE_PROBLEMS[problem][ctx.lang] });

/**
 * The uploaded file (multipart field `file`), its name, and the text of a field `options` sent
 * before it (the import wizard's choices), if any.
 */
export async function readUpload(ctx: CallContext): Promise<{ name: string; bytes: Buffer; options?: string }> {
  if (!ctx.request.isMultipart()) throw badFile('fileMissing');
  let part: Awaited<ReturnType<typeof ctx.request.file>>;
  try {
    part = await ctx.request.file({ limits: { fileSize: PRODUCT_IMPORT_MAX_BYTES, files: 1 } });
  } catch {
    // A multipart body the parser cannot read (no boundary, a broken part): no file was sent.
    throw badFile('fileMissing');
  }
  if (part?.fieldname !== 'file') throw badFile('fileMissing');
  try {
    const bytes = await part.toBuffer();
    const field = part.fields.options;
    const options = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
    return { name: part.filename.slice(0, 100), bytes, options };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileError(ctx, 'size');
    throw err;
  }
}

export type TableKind = 'xlsx' | 'csv';

/** XLSX by its zip signature; anything else must be UTF-8 text (a BOM is allowed) to be read as CSV. */
export function tableKind(bytes: Uint8Array): TableKind | null {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return 'xlsx';
  }
  // Binary files (old .xls, images, other zips) carry NUL bytes; text never does.
  if (bytes.includes(0)) return null;
  return 'csv';
}

/**
 * The rows of the file, title row first; refuses what is neither XLSX nor UTF-8 CSV, and stops
 * reading at the first limit crossed (limits.ts) with the answer that names it. The read pauses
 * for other requests every few milliseconds (`slicer`).
 */
export async function readTable(
  ctx: CallContext,
  bytes: Buffer,
  slicer = new Slicer(),
  limits = READ_LIMITS,
): Promise<SheetRow[]> {
  const kind = tableKind(bytes);
  if (kind === null) throw fileError(ctx, 'type');
  try {
    if (kind === 'xlsx') {
      try {
        return await readXlsx(bytes, { limits, slicer });
      } catch (err) {
        if (err instanceof LimitError) throw err;
        throw fileError(ctx, 'unreadable');
      }
    }
    return await readCsv(ctx, bytes, slicer, limits);
  } catch (err) {
    if (err instanceof LimitError) throw limitAnswer(err, ctx.lang);
    throw err;
  }
}

/** Decodes UTF-8 a megabyte at a time, then reads the records, pausing between them. */
async function readCsv(ctx: CallContext, bytes: Buffer, slicer: Slicer, limits: ReadLimits): Promise<SheetRow[]> {
  // The decoder drops a leading BOM.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  const step = 1024 * 1024;
  try {
    for (let at = 0; at < bytes.length; at += step) {
      parts.push(decoder.decode(bytes.subarray(at, at + step), { stream: true }));
      await slicer.pause();
    }
    parts.push(decoder.decode());
  } catch {
    throw fileError(ctx, 'encoding');
  }
  const text = parts.join('');
  parts.length = 0;
  const sink = new RowSink(limits);
  for (const row of csvRecords(text, sniffDelimiter(text), limits)) {
    sink.add(row);
    await slicer.pause();
  }
  return sink.rows;
}

/** A limit's answer: 1013 naming the line when a row crossed it, 1009 naming the limit otherwise. */
export function limitAnswer(err: LimitError, lang: Language): AppError {
  const row: Partial<Record<LimitError['kind'], keyof typeof IMPORT_REASONS>> = {
    rows: 'tooManyRows',
    columns: 'tooManyColumns',
    cellChars: 'cellTooLong',
    rowChars: 'rowTooLong',
    cells: 'tooManyCells',
  };
  const reason = row[err.kind];
  if (err.line !== undefined && reason) {
    const text = IMPORT_REASONS[reason][lang].replace('{detail}', err.limit);
    return new AppError(ErrorCode.IMPORT_FAILED, {}, [{ line: err.line, field: '', reason: text }]);
  }
  const file: Record<LimitError['kind'], FileProblem> = {
    rows: 'unreadable',
    columns: 'unreadable',
    cells: 'unreadable',
    cellChars: 'cellTooLong',
    rowChars: 'rowTooLong',
    entries: 'entries',
    partBytes: 'partTooLarge',
    totalBytes: 'totalTooLarge',
    ratio: 'ratio',
    sharedStrings: 'sharedStrings',
  };
  const detail = IMPORT_FILE_PROBLEMS[file[err.kind]][lang]
    .replace('{limit}', err.limit)
    .replace('{part}', err.part ?? '');
  return new AppError(ErrorCode.BAD_FILE, { detail });
}
