import { LimitError, READ_LIMITS, type ReadLimits } from './limits';

/** One record of a table file: its cells and the line it starts on (1-based). */
export interface SheetRow {
  line: number;
  cells: string[];
}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** How much of the title line is looked at to find its delimiter. */
const SNIFF_CHARS = 64 * 1024;

/** The delimiter of the title line: comma, semicolon or tab, whichever occurs most outside quotes. */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (let i = 0; i < Math.min(text.length, SNIFF_CHARS); i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * Parses CSV text (RFC 4180: quoted cells, "" for a quote, CRLF / LF / CR line ends, line breaks
 * inside quotes). Each record carries the line it starts on, so errors name the line a person
 * sees in an editor. Blank lines are skipped.
 */
export function parseCsv(text: string, delimiter = sniffDelimiter(text), limits = READ_LIMITS): SheetRow[] {
  return [...csvRecords(text, delimiter, limits)];
}

/**
 * The records of CSV text one at a time (see parseCsv), so the caller can count them and pause
 * between them. A cell longer than the cell limit, or a record with more cells than the column
 * limit, stops the read where it occurs: a title line of twenty million commas costs no more
 * than its first 256 cells.
 */
export function* csvRecords(text: string, delimiter: string, limits: ReadLimits): Generator<SheetRow> {
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  const maxCell = limits.cellChars;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    const tooLong = () => new LimitError('cellChars', String(maxCell), start);
    // One record.
    for (;;) {
      let cell: string;
      if (text.charCodeAt(i) === QUOTE) {
        i++;
        let out = '';
        let from = i;
        for (;;) {
          const q = text.indexOf('"', i);
          if ((q < 0 ? n : q) - from + out.length > maxCell) throw tooLong();
          if (q < 0) {
            // An unclosed quote runs to the end of the file.
            out += text.slice(from);
            i = n;
            break;
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            out += text.slice(from, q + 1);
            i = q + 2;
            from = i;
            continue;
          }
          out += text.slice(from, q);
          i = q + 1;
          break;
        }
        line += countLineBreaks(out);
        // Anything between the closing quote and the delimiter is kept, as spreadsheets do.
        let end = i;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === d || c === CR || c === LF) break;
          if (++end - i + out.length > maxCell) throw tooLong();
        }
        cell = out + text.slice(i, end);
        i = end;
      } else {
        let end = i;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === d || c === CR || c === LF) break;
          if (++end - i > maxCell) throw tooLong();
        }
        cell = text.slice(i, end);
        i = end;
      }
      if (cells.length === limits.columns) throw new LimitError('columns', String(limits.columns), start);
      cells.push(cell);
      if (i < n && text.charCodeAt(i) === d) {
        i++;
        continue;
      }
      break;
    }
    // The record's line end.
    if (i < n) {
      if (text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF) i += 2;
      else i++;
      line++;
    }
    if (!(cells.length === 1 && cells[0] === '')) yield { line: start, cells };
  }
}

function countLineBreaks(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === LF) count++;
    else if (c === CR && s.charCodeAt(i + 1) !== LF) count++;
  }
  return count;
}
