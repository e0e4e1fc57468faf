import { findTagModel, type OpenStore, type OpenTag, TagStatus } from '@esl/contract';
import type { StoreRow } from '../db/schema';
import type { LabelledTag } from '../modules/tags/service';

const num = (v: number | null) => (v === null ? null : Number(v));

/** What an integration reads of a tag: no internal ids, the product by its barcode. */
export function presentOpenTag(row: LabelledTag): OpenTag {
  const status = TagStatus.safeParse(row.status);
  return {
    hardwareId: row.hardware_id,
    model: row.model,
    modelName: findTagModel(row.model)?.name ?? row.model,
    status: status.success ? status.data : 'unknown',
    battery: num(row.battery),
    signal: num(row.signal),
    lastSeen: num(row.last_seen),
    barcode: row.product_barcode ?? null,
  };
}

export function presentOpenStore(row: StoreRow): OpenStore {
  return { code: row.code, name: row.name, address: row.address, contact: row.contact, phone: row.phone };
}
