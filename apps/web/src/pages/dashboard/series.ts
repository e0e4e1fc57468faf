/** One statistic drawn as a chart: a label per point and its number. */
export interface Series {
  labels: string[];
  values: number[];
}

const LABEL_KEYS = ['name', 'label', 'model', 'storeName', 'shopName', 'store', 'shop', 'date', 'day', 'time', 'key'];
const VALUE_KEYS = ['value', 'count', 'total', 'num', 'tags', 'amount'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numeric(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function pick(row: Record<string, unknown>, keys: readonly string[], want: 'label' | 'value'): string | number | null {
  for (const key of keys) {
    const v = row[key];
    if (want === 'value') {
      const n = numeric(v);
      if (n !== null) return n;
    } else if (typeof v === 'string' || typeof v === 'number') {
      return String(v);
    }
  }
  return null;
}

/**
 * Reads a statistics answer whose exact shape the contract leaves open: a list of rows with a
 * label and a number (`[{ name, value }]`, `[{ date, count }]`, …), an object of numbers
 * (`{ online: 3, offline: 1 }`), or either of those under `rows`/`list`/`data`.
 * Null when nothing in it can be drawn.
 */
export function toSeries(data: unknown): Series | null {
  if (isRecord(data)) {
    for (const key of ['rows', 'list', 'data', 'items']) {
      if (Array.isArray(data[key])) return toSeries(data[key]);
    }
    const entries = Object.entries(data)
      .map(([k, v]) => [k, numeric(v)] as const)
      .filter((e): e is readonly [string, number] => e[1] !== null);
    if (entries.length === 0) return null;
    return { labels: entries.map((e) => e[0]), values: entries.map((e) => e[1]) };
  }
  if (!Array.isArray(data) || data.length === 0) return null;
  const labels: string[] = [];
  const values: number[] = [];
  for (const row of data) {
    if (!isRecord(row)) return null;
    const label = pick(row, LABEL_KEYS, 'label');
    const value = pick(row, VALUE_KEYS, 'value');
    if (label === null || value === null) return null;
    labels.push(String(label));
    values.push(Number(value));
  }
  return { labels, values };
}
