import { findTagModel, type OpenStore, type OpenTag, type OpenTagResult, TagStatus } from '@esl/contract';
import type { StoreRow } from '../infra/db/schema';
import type { LabelledTag } from '../modules/tags/service';
import type { LastTagResultRow } from './repository';

const num = (v: number | null) => (v === null ? null : Number(v));

/** What an integration reads of a tag: no internal ids, the product by its barcode. */
export function presentOpenTag(row: LabelledTag, last: LastTagResultRow | undefined): OpenTag {
  const status = TagStatus.safeParse(row.status);
  return {
    hardwareId: row.hardware_id,
    model: row.model,
    // A learned model (docs/OEPL.md) by the name its station taught, as the console names it.
    modelName: findTagModel(row.model)?.name ?? row.learnedModel?.name ?? row.model,
    status: status.success ? status.data : 'unknown',
    battery: num(row.battery),
    signal: num(row.signal),
    lastSeen: num(row.last_seen),
    barcode: row.product_barcode ?? null,
    lastResult: last ? presentTagResult(last) : null,
  };
}

/**
 * A tag-log row as the tag's last result, read as the callbacks' `tag.result` reads it: 'ok'
 * and 'skipped' (the tag already showed it) are done; anything else failed, its code naming why.
 */
export function presentTagResult(row: LastTagResultRow): OpenTagResult {
  const done = row.result === 'ok' || row.result === 'skipped';
  return {
    state: done ? 'done' : 'failed',
    code: done ? null : row.code || row.result,
    kind: row.kind === 'image' ? 'refresh' : row.kind,
    requestId: row.request_id === null ? null : Number(row.request_id),
    time: Number(row.finished_at),
  };
}

export function presentOpenStore(row: StoreRow): OpenStore {
  return { code: row.code, name: row.name, address: row.address, contact: row.contact, phone: row.phone };
}
