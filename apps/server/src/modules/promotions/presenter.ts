import { type Promotion, type PromotionState, toLocalTime } from '@esl/contract';
import { formatCents } from '../../infra/lib/price';
import type { PromotionRow } from './repository';

/** A promotion as the console sees it, its times on the store's wall clock. */
export function presentPromotion(row: PromotionRow, timeZone: string): Promotion {
  const start = Number(row.start_at);
  const end = Number(row.end_at);
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    text: row.text,
    price: formatCents(Number(row.price_cents)),
    barcodes: JSON.parse(row.barcodes) as string[],
    matchKey: row.match_key,
    matchValue: row.match_value,
    start,
    end,
    startAt: toLocalTime(start, timeZone),
    endAt: toLocalTime(end, timeZone),
    timeZone,
    state: row.state as PromotionState,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
