import { findTagModel, type Tag, type TagColourType, TagStatus } from '@esl/contract';
import { formatCents } from '../../lib/price';
import type { LabelledTag } from './service';

const num = (v: number | null) => (v === null ? null : Number(v));

export function presentTag(row: LabelledTag): Tag {
  const status = TagStatus.safeParse(row.status);
  return {
    id: row.id,
    hardwareId: row.hardware_id,
    model: row.model,
    modelName: findTagModel(row.model)?.name ?? row.model,
    colour: row.colour as TagColourType,
    status: status.success ? status.data : 'unknown',
    signal: num(row.signal),
    battery: num(row.battery),
    temperature: num(row.temperature),
    hardwareModel: row.hardware_model,
    stationSn: row.station_sn,
    lastSeen: num(row.last_seen),
    product:
      row.product_id === null || row.product_barcode === null
        ? null
        : {
            id: row.product_id,
            barcode: row.product_barcode,
            name: row.product_name ?? '',
            price: formatCents(Number(row.product_price_cents ?? 0)),
          },
    label: row.label,
    createdAt: Number(row.created_at),
  };
}
