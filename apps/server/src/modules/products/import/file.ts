import { ErrorCode, IMPORT_FILE_PROBLEMS, PRODUCT_IMPORT_MAX_BYTES } from '@esl/contract';
import type {} from '@fastify/multipart';
import type { CallContext } from '../../../api/context';
import { AppError, badFile } from '../../../api/errors';
import { parseCsv, type SheetRow } from './csv';
import { readXlsx } from './xlsx';

type FileProblem = keyof typeof IMPORT_FILE_PROBLEMS;

const fileError = (ctx: CallContext, problem: FileProblem) =>
  new AppError(ErrorCode.BAD_FILE, { detail: IMPORT_FILE_PROBLEMS[problem][ctx.lang] });

/** The uploaded file (multipart field `file`) and its name. */
export async function readUpload(ctx: CallContext): Promise<{ name: string; bytes: Buffer }> {
  if (!ctx.request.isMultipart()) throw badFile('fileMissing');
  const part = await ctx.request.file({ limits: { fileSize: PRODUCT_IMPORT_MAX_BYTES, files: 1 } });
  if (part?.fieldname !== 'file') throw badFile('fileMissing');
  try {
    const bytes = await part.toBuffer();
    return { name: part.filename.slice(0, 100), bytes };
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

/** The rows of the file, title row first; refuses what is neither XLSX nor UTF-8 CSV. */
export async function readTable(ctx: CallContext, bytes: Buffer): Promise<SheetRow[]> {
  const kind = tableKind(bytes);
  if (kind === null) throw fileError(ctx, 'type');
  if (kind === 'xlsx') {
    try {
      return readXlsx(bytes);
    } catch {
      throw fileError(ctx, 'unreadable');
    }
  }
  let text: string;
  try {
    // The decoder drops a leading BOM.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileError(ctx, 'encoding');
  }
  return parseCsv(text);
}
