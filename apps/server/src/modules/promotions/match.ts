import type { PromotionRow } from './repository';

/*
 * Which promotion a product shows at a moment (docs/PROMOTIONS.md, "Overlap"): of the promotions
 * of its store that cover it and whose time holds the moment (start ≤ t < end; cancelled ones
 * never), the lowest promotional price wins; at equal prices, the one added last (highest id).
 */

export type PromotionLike = Pick<
  PromotionRow,
  'id' | 'price_cents' | 'barcodes' | 'match_key' | 'match_value' | 'start_at' | 'end_at' | 'state'
>;

const norm = (v: string) => v.trim().toLowerCase();

/** True when the promotion covers a product with these values (barcode, text and custom fields). */
export function covers(p: PromotionLike, fields: Readonly<Record<string, string>>): boolean {
  const barcodes = JSON.parse(p.barcodes) as string[];
  if (barcodes.length) return barcodes.includes(fields.barcode ?? '');
  return p.match_key !== '' && norm(fields[p.match_key] ?? '') === norm(p.match_value);
}

export const holds = (p: PromotionLike, t: number) =>
  p.state !== 'cancelled' && Number(p.start_at) <= t && t < Number(p.end_at);

/** The promotion that wins among those given (all covering one product at one moment), or undefined. */
export function winner<P extends PromotionLike>(list: readonly P[]): P | undefined {
  let best: P | undefined;
  for (const p of list) {
    if (
      !best ||
      Number(p.price_cents) < Number(best.price_cents) ||
      (Number(p.price_cents) === Number(best.price_cents) && p.id > best.id)
    )
      best = p;
  }
  return best;
}
