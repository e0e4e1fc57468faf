import { PRICE_PATTERN } from '@esl/contract';

/**
 * Prices are kept as integer cents and cross the wire as decimal strings, so no price ever
 * passes through a binary float: "12.5" → 1250 → "12.50".
 */
export function toCents(price: string): number {
  if (!PRICE_PATTERN.test(price)) throw new Error(`not a price: ${price}`);
  const [whole = '0', fraction = ''] = price.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function formatCents(cents: number): string {
  const n = Number(cents);
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}
