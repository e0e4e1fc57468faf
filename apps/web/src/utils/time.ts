export type TimeInput = Date | number | string;

const DEFAULT_FORMAT = '{y}-{m}-{d} {h}:{i}:{s}';
const WEEKDAYS = {
  'zh-CN': ['日', '一', '二', '三', '四', '五', '六'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
} as const;
type Lang = keyof typeof WEEKDAYS;

/** A ten-digit number is Unix seconds; a longer one is milliseconds (SPEC.md §9). */
export function toDate(time: TimeInput): Date | null {
  if (time instanceof Date) return Number.isNaN(time.getTime()) ? null : time;
  let value: number | string = time;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+$/.test(text)) value = Number(text);
    // Safari does not parse "2024-01-02 10:00"; the slash form is read the same everywhere.
    else value = text.replace(/-/g, '/').replace('T', ' ');
  }
  if (typeof value === 'number' && String(Math.trunc(Math.abs(value))).length === 10) value *= 1000;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Formats a time with placeholders {y} {m} {d} {h} {i} {s} (two digits where it applies) and
 * {a} (weekday). Default '{y}-{m}-{d} {h}:{i}:{s}'. Empty input or an unreadable time gives null.
 */
export function parseTime(
  time: TimeInput | null | undefined,
  format: string = DEFAULT_FORMAT,
  lang: Lang = 'zh-CN',
): string | null {
  if (time === null || time === undefined || time === '') return null;
  const date = toDate(time);
  if (!date) return null;
  const parts: Record<string, number> = {
    y: date.getFullYear(),
    m: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    i: date.getMinutes(),
    s: date.getSeconds(),
    a: date.getDay(),
  };
  return format.replace(/\{([ymdhisa])\}/g, (_, key: string) => {
    const value = parts[key];
    if (key === 'a') return WEEKDAYS[lang][value];
    return key === 'y' ? String(value) : String(value).padStart(2, '0');
  });
}

/**
 * A relative time, by SPEC.md §9's rules: under 30 s 'just now', under an hour minutes ago,
 * under a day hours ago, under two days '1 day ago', otherwise a date (in `format` when given).
 * Chinese by default.
 */
export function formatTime(
  time: TimeInput,
  format?: string,
  lang: Lang = 'zh-CN',
  now: number = Date.now(),
): string | null {
  const date = toDate(time);
  if (!date) return null;
  const seconds = (now - date.getTime()) / 1000;
  const zh = lang === 'zh-CN';
  if (seconds < 30) return zh ? '刚刚' : 'just now';
  if (seconds < 3600) {
    const n = Math.ceil(seconds / 60);
    return zh ? `${n}分钟前` : `${n} minute${n === 1 ? '' : 's'} ago`;
  }
  if (seconds < 3600 * 24) {
    const n = Math.ceil(seconds / 3600);
    return zh ? `${n}小时前` : `${n} hour${n === 1 ? '' : 's'} ago`;
  }
  if (seconds < 3600 * 24 * 2) return zh ? '1天前' : '1 day ago';
  if (format) return parseTime(date, format, lang);
  return zh
    ? `${date.getMonth() + 1}月${date.getDate()}日${date.getHours()}时${date.getMinutes()}分`
    : (parseTime(date, '{y}-{m}-{d} {h}:{i}', lang) ?? '');
}
