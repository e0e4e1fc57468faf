/*
 * Dates in an XLSX sheet. A spreadsheet keeps a date as a number of days (46346 is 2026-11-20)
 * and shows it as a date only through the cell's number format; read as a plain number, a
 * retailer's "best before" column came out as 46346 (issue 27 item 8). The cell's style names the
 * format: a built-in one by its id, or one of the workbook's own, whose code says whether it
 * shows a date, a time of day, or both.
 */

/** How a cell's number is shown: as a date, a time of day, both, or as a number (null). */
export type DateKind = 'date' | 'time' | 'dateTime' | null;

/**
 * Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30, with the East Asian
 * ids a Chinese, Japanese or Korean Excel writes: 27–36 and 50–58 are its local date forms).
 */
const BUILT_IN: ReadonlyMap<number, DateKind> = new Map<number, DateKind>([
  ...[14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58].map(
    (id) => [id, 'date'] as [number, DateKind],
  ),
  ...[18, 19, 20, 21, 32, 33, 45, 46, 47, 55, 56].map((id) => [id, 'time'] as [number, DateKind]),
  [22, 'dateTime'],
]);

/**
 * What a format code shows (its first section). Quoted text, escaped characters, fills and
 * bracketed parts (colours, locales) are left out first: "0.0 "days"" is a number. A duration
 * ([h]:mm, elapsed hours) is a number of days too, not a time of day: it stays a number.
 */
export function formatKind(code: string): DateKind {
  const first = (code.split(';')[0] ?? '').replace(/"[^"]*"/g, '').replace(/[\\_*]./g, '');
  if (/\[(?:h+|m+|s+)\]/i.test(first)) return null;
  const bare = first.replace(/\[[^\]]*\]/g, '').toLowerCase();
  if (!bare || bare === 'general' || /^[#0?.,%e+\- ]*$/.test(bare)) return null;
  const time = /[hs]/.test(bare);
  // An m beside h or s is minutes; elsewhere (with or without y and d) it is the month.
  const date = /[yd]/.test(bare) || (/m/.test(bare) && !time);
  if (date && time) return 'dateTime';
  if (date) return 'date';
  return time ? 'time' : null;
}

/**
 * The date kind of each cell style (its index in cellXfs) of a styles part, from its number
 * format: built-in, or one of the part's numFmts. Styles showing plain numbers are null.
 */
export function styleKinds(styles: string | undefined): DateKind[] {
  if (!styles) return [];
  const custom = new Map<number, DateKind>();
  for (const tag of styles.match(/<(?:\w+:)?numFmt\b[^>]*>/g) ?? []) {
    const id = Number(/\bnumFmtId="(\d+)"/.exec(tag)?.[1]);
    const code = /\bformatCode="([^"]*)"/.exec(tag)?.[1];
    if (Number.isFinite(id) && code !== undefined) custom.set(id, formatKind(unescapeAttribute(code)));
  }
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(styles)?.[1] ?? '';
  return (xfs.match(/<(?:\w+:)?xf\b[^>]*>/g) ?? []).map((xf) => {
    const id = Number(/\bnumFmtId="(\d+)"/.exec(xf)?.[1] ?? 0);
    return custom.has(id) ? (custom.get(id) ?? null) : (BUILT_IN.get(id) ?? null);
  });
}

function unescapeAttribute(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Whether the workbook counts days from 1904 (old Mac Excel) rather than 1900. */
export function uses1904(workbook: string | undefined): boolean {
  return /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(workbook ?? '');
}

/** Day 0 of each system, so that serial 61 is 1900-03-01 (Excel keeps Lotus's 29 Feb 1900, day 60). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

const two = (n: number) => String(n).padStart(2, '0');

/** The last day a spreadsheet shows as a date (9999-12-31); beyond it, and below 0, it shows ####. */
const LAST_SERIAL = 2_958_465;

/**
 * A day serial as the text a person reads, as the spreadsheet shows it in the cell: 2026-11-20
 * for a date, 08:30 (or 08:30:15) for a time of day, both with a space between. Times are
 * rounded to the second. A serial no date can show is left as its number.
 */
export function serialText(serial: number, kind: Exclude<DateKind, null>, from1904: boolean): string {
  if (!(serial >= 0 && serial <= LAST_SERIAL + 1)) return String(serial);
  let seconds = Math.round(serial * 86_400);
  // Excel's days 1–59 lie one day later than the calendar (its invented 29 Feb 1900 follows them).
  if (!from1904 && serial < 60) seconds += 86_400;
  const at = new Date((from1904 ? EPOCH_1904 : EPOCH_1900) + seconds * 1000);
  const date = `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}`;
  const s = at.getUTCSeconds();
  const time = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}${s ? `:${two(s)}` : ''}`;
  if (kind === 'date') return date;
  if (kind === 'time') return time;
  return `${date} ${time}`;
}

/**
 * A cell stored as ISO 8601 text (type d, which some programs write): its date, and its time
 * when it has one other than midnight, in the form serialText gives. Other text is left as it is.
 */
export function isoText(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!m) return value;
  const [, date, hm, s] = m;
  if (!hm || (hm === '00:00' && (!s || s === '00'))) return date ?? value;
  return `${date} ${hm}${s && s !== '00' ? `:${s}` : ''}`;
}
