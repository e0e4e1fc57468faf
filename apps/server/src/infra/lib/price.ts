/**
 * Prices are kept as integer cents and cross the wire as decimal strings, so no price ever
 * passes through a binary float: "12.5" → 1250 → "12.50".
 */

/**
 * The cents of a price written as PRICE_PATTERN allows (1–10 digits, optionally a point and 1–2
 * digits), or -1 when it is not one. One pass, no regular expression: imports call it per row.
 */
export function centsOf(price: string): number {
  const n = price.length;
  let whole = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = price.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return -1;
    whole = whole * 10 + (c - 48);
  }
  if (i === 0 || i > 10) return -1;
  if (i === n) return whole * 100;
  const fraction = n - i - 1;
  if (fraction < 1 || fraction > 2) return -1;
  let cents = 0;
  for (let j = i + 1; j < n; j++) {
    const c = price.charCodeAt(j);
    if (c < 48 || c > 57) return -1;
    cents = cents * 10 + (c - 48);
  }
  return whole * 100 + (fraction === 1 ? cents * 10 : cents);
}

export function toCents(price: string): number {
  const cents = centsOf(price);
  if (cents < 0) throw new Error(`not a price: ${price}`);
  return cents;
}

export function formatCents(cents: number): string {
  const n = Number(cents);
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}
