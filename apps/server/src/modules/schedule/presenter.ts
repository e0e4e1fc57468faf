import { type ScheduledChange, type ScheduleStatus, toLocalTime } from '@esl/contract';
import type { ChangeRow } from './repository';

/** A scheduled change as the console and the ERP API see it, with its time on the store's wall clock. */
export function presentChange(
  row: ChangeRow,
  timeZone: string,
  progress: ScheduledChange['progress'] = null,
): ScheduledChange {
  const at = Number(row.effective_at);
  return {
    id: row.id,
    storeId: row.store_id,
    productId: row.product_id,
    barcode: row.barcode,
    productName: row.product_name,
    changes: JSON.parse(row.changes) as Record<string, unknown>,
    at,
    localAt: toLocalTime(at, timeZone),
    timeZone,
    status: row.status as ScheduleStatus,
    note: row.note,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    appliedAt: row.applied_at === null ? null : Number(row.applied_at),
    progress: row.status === 'pending' ? (progress ?? { held: 0, tags: 0 }) : null,
  };
}
