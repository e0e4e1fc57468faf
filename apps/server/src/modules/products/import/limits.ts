import { PRODUCT_IMPORT_MAX_ROWS } from '@esl/contract';

/**
 * What one import may cost, checked while the file is read (never after): a file that passes
 * every limit is far larger than any real price list, and one that fails is stopped at the
 * point where it crosses the line, so a 300 KB upload cannot buy gigabytes of work.
 */
export interface ReadLimits {
  /** Product rows after the title row (the contract's limit). */
  rows: number;
  /** Cells per row that may hold text. */
  columns: number;
  /** Characters in one cell (a spreadsheet's own limit is 32,767). */
  cellChars: number;
  /** Cells of all rows together, empty ones inside a row included: what the rows cost in memory. */
  cells: number;
  /** Files in the zip's central directory. */
  entries: number;
  /** Unpacked bytes of the worksheet part. */
  sheetBytes: number;
  /** Unpacked bytes of the shared-strings part. */
  sharedStringsBytes: number;
  /** Strings in the shared-strings part. */
  sharedStrings: number;
  /** Unpacked bytes of any other part read (workbook, relationships). */
  otherPartBytes: number;
  /** Unpacked bytes of every part read, together. */
  totalBytes: number;
  /** Unpacked ÷ packed bytes of one part, once it has unpacked `ratioFrom` bytes. */
  ratio: number;
  ratioFrom: number;
}

export const READ_LIMITS: ReadLimits = {
  rows: PRODUCT_IMPORT_MAX_ROWS,
  columns: 256,
  cellChars: 32_767,
  cells: 10_000_000,
  entries: 10_000,
  // A 200,000-row sheet of ten columns written by Excel or ExcelJS unpacks to about 65 MB,
  // its shared strings to about 15 MB; both pack about 10:1.
  sheetBytes: 256 * 1024 * 1024,
  sharedStringsBytes: 64 * 1024 * 1024,
  sharedStrings: 2_000_000,
  otherPartBytes: 4 * 1024 * 1024,
  totalBytes: 320 * 1024 * 1024,
  ratio: 100,
  ratioFrom: 1024 * 1024,
};

/** Which limit a file crossed; `line` when a row can be named (rows, columns, cells). */
export type LimitKind =
  | 'rows'
  | 'columns'
  | 'cellChars'
  | 'rowChars'
  | 'cells'
  | 'entries'
  | 'partBytes'
  | 'totalBytes'
  | 'ratio'
  | 'sharedStrings';

/** Thrown by the readers when a file crosses a limit; the import service turns it into its answer. */
export class LimitError extends Error {
  constructor(
    readonly kind: LimitKind,
    /** The limit crossed, as a person reads it ("200000", "64 MB", "100:1"). */
    readonly limit: string,
    /** The line of the file where it was crossed, when there is one. */
    readonly line?: number,
    /** The zip part, for the part-size limit. */
    readonly part?: string,
  ) {
    super(`import limit ${kind} (${limit})`);
    this.name = 'LimitError';
  }
}

export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
