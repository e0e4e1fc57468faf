import { Inflate } from 'fflate';
import { LimitError, megabytes, type ReadLimits } from './limits';
import type { Slicer } from './slices';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Packed bytes handed to the inflater at a time. Up to ~1,000 times as many come out of one
 * push, so a part that packs tightly (or has not shown its ratio yet) is fed 1 KB at a time.
 */
const PUSH_BYTES = 8 * 1024;
const TIGHT_PUSH_BYTES = 1024;
const TIGHT_RATIO = 20;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/**
 * The entries of a zip archive by name, read from its central directory (no ZIP64, no
 * encryption: what spreadsheet programs write for files of this size). The directory, not the
 * local headers, is read because it is the archive's own index: it gives every size even when a
 * writer streamed the data (sizes in a trailing descriptor), and lets the reader take the parts
 * in the order it needs them (ExcelJS writes the workbook last, Excel the shared strings after
 * the sheet). Throws on anything else, and refuses more than `maxEntries` entries before
 * listing them.
 */
export function zipEntries(zip: Buffer, maxEntries: number): Map<string, ZipEntry> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive');
  const count = zip.readUInt16LE(eocd + 10);
  if (count > maxEntries) throw new LimitError('entries', String(maxEntries));
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error('broken central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    if (at + 46 + nameLength > zip.length) throw new Error('broken central directory');
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      name,
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Unpacked bytes of every part read from one file, against the file's total. */
export class UnpackBudget {
  used = 0;
  constructor(readonly limits: ReadLimits) {}
}

/**
 * Streams one entry's bytes (stored, or deflated through fflate's streaming inflater) to
 * `onChunk` a piece at a time, counting as it unpacks: the part's own size, the file's total and
 * the compression ratio are checked on every piece, before the piece is handed on, so a zip bomb
 * stops within a few megabytes. Pauses between pieces (see Slicer).
 */
export async function unpackEntry(
  zip: Buffer,
  entry: ZipEntry,
  maxBytes: number,
  budget: UnpackBudget,
  slicer: Slicer,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const at = entry.localOffset;
  if (zip.readUInt32LE(at) !== LOCAL) throw new Error('broken local header');
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw new Error('entry runs past the end of the file');
  const { limits } = budget;
  let packed = 0;
  let unpacked = 0;
  const count = (chunk: Uint8Array) => {
    unpacked += chunk.length;
    budget.used += chunk.length;
    if (unpacked > maxBytes) throw new LimitError('partBytes', megabytes(maxBytes), undefined, entry.name);
    if (budget.used > limits.totalBytes) throw new LimitError('totalBytes', megabytes(limits.totalBytes));
    if (unpacked > limits.ratioFrom && unpacked > packed * limits.ratio) {
      throw new LimitError('ratio', `${limits.ratio}:1`, undefined, entry.name);
    }
    if (chunk.length) onChunk(chunk);
  };
  if (entry.method !== 0 && entry.method !== 8) throw new Error(`unsupported zip method ${entry.method}`);
  // fflate calls back synchronously inside push(), so a limit thrown in `count` leaves push() at once.
  const inflate = entry.method === 8 ? new Inflate((chunk) => count(chunk)) : null;
  for (let from = start; from < end; ) {
    const step = packed > 0 && unpacked < packed * TIGHT_RATIO ? PUSH_BYTES : TIGHT_PUSH_BYTES;
    const piece = zip.subarray(from, Math.min(end, from + step));
    from += piece.length;
    packed += piece.length;
    if (inflate) inflate.push(piece, false);
    else count(piece);
    await slicer.pause();
  }
  if (inflate) inflate.push(new Uint8Array(0), true);
}
