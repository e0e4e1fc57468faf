import type { PriceProof } from '@esl/contract';
import { formatCents } from '../../infra/lib/price';
import type { ProofRow } from './repository';

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A bound tag's line of the price-accuracy report. */
export function presentProof(row: ProofRow): PriceProof {
  const screenPrice = num(row.screen_price_cents);
  const screenProduct = num(row.screen_product_id);
  return {
    id: row.id,
    hardwareId: row.hardware_id,
    productId: Number(row.product_id),
    barcode: row.barcode,
    productName: row.name,
    price: formatCents(Number(row.price_cents)),
    screenPrice: screenPrice === null ? null : formatCents(screenPrice),
    // Drawn from another product, or from none (NO_PRODUCT: the label of an unbound tag).
    otherProduct: screenProduct !== null && screenProduct !== Number(row.product_id),
    state: row.state,
    renderedAt: num(row.screen_rendered_at),
    confirmedAt: num(row.shown_at),
    lastSeen: num(row.last_seen),
    wrongSince: row.state === 'agree' ? null : num(row.price_wrong_since),
    pending: row.desired_hash !== null && row.desired_hash.slice(0, 16) !== row.shown_ver,
  };
}
