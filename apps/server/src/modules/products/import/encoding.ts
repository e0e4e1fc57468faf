import type { Slicer } from './slices';

/** How a CSV file's bytes are text: UTF-8 (with or without a byte-order mark) or GB18030. */
export type CsvEncoding = 'utf-8' | 'gb18030';

export interface DecodedText {
  text: string;
  encoding: CsvEncoding;
  bom: boolean;
}

const hasBom = (bytes: Uint8Array) => bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** Thrown when the bytes are not text in the encoding found for them. */
export class EncodingError extends Error {}

/**
 * Decodes CSV bytes a megabyte at a time (pausing between pieces): as UTF-8 when they carry its
 * byte-order mark or are valid UTF-8, else — with `detect` — as GB18030, what spreadsheet
 * programs on Chinese systems save as "CSV" (GBK and GB2312 are subsets of it). Without `detect`
 * (the spec's import call) only UTF-8 is read. With `sampleBytes`, only the start of the file is
 * decoded, cut back to its last complete line.
 */
export async function decodeCsv(
  bytes: Uint8Array,
  slicer: Slicer,
  options: { detect: boolean; sampleBytes?: number },
): Promise<DecodedText> {
  const sampled = options.sampleBytes !== undefined && bytes.length > options.sampleBytes;
  let input = sampled ? bytes.subarray(0, options.sampleBytes) : bytes;
  if (sampled) {
    const lastBreak = input.lastIndexOf(0x0a);
    if (lastBreak > 0) input = input.subarray(0, lastBreak + 1);
  }
  const bom = hasBom(input);
  const first = await decodeAll(input, 'utf-8', slicer, !sampled);
  if (first !== null) return { text: first, encoding: 'utf-8', bom };
  if (!options.detect || bom) throw new EncodingError('utf-8');
  const second = await decodeAll(input, 'gb18030', slicer, !sampled);
  if (second === null) throw new EncodingError('gb18030');
  return { text: second, encoding: 'gb18030', bom };
}

/** The text, or null when the bytes are not valid in `encoding`; `end`: a cut character at the end is invalid. */
async function decodeAll(
  input: Uint8Array,
  encoding: CsvEncoding,
  slicer: Slicer,
  end: boolean,
): Promise<string | null> {
  // The decoder drops a leading BOM.
  const decoder = new TextDecoder(encoding, { fatal: true });
  const parts: string[] = [];
  const step = 1024 * 1024;
  try {
    for (let at = 0; at < input.length; at += step) {
      parts.push(decoder.decode(input.subarray(at, at + step), { stream: true }));
      await slicer.pause();
    }
    if (end) parts.push(decoder.decode());
  } catch {
    return null;
  }
  return parts.join('');
}
