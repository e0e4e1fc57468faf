import { findTagModel, type Tag, type TagColourType, TagStatus, type WallTag } from '@esl/contract';
import { formatCents } from '../../infra/lib/price';
import type { WallRow } from './repository';
import type { LabelledTag } from './service';

const num = (v: number | null) => (v === null ? null : Number(v));

export function presentTag(row: LabelledTag): Tag {
  const status = TagStatus.safeParse(row.status);
  return {
    id: row.id,
    hardwareId: row.hardware_id,
    model: row.model,
    modelName: findTagModel(row.model)?.name ?? row.learnedModel?.name ?? row.model,
    learnedModel: row.learnedModel,
    unknownModel: row.unknownModel,
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
    ...screenVersions(row.shown_ver, row.desired_hash),
    shownPage: Number(row.shown_page ?? 1),
    aisle: row.aisle,
    bay: row.bay,
    shelf: row.shelf,
    position: num(row.position),
    createdAt: Number(row.created_at),
  };
}

/**
 * Which screens /mgr/tag/screen can draw and whether an update is pending: the version the tag
 * last reported, the one it should show (first 16 hex digits of the desired hash, the form tags
 * report), pending while they differ (the same rule that keeps the tag's status 'online').
 */
export function screenVersions(
  shownVer: string | null,
  desiredHash: string | null,
): Pick<Tag, 'shownVer' | 'desiredVer' | 'pending'> {
  const desiredVer = desiredHash ? desiredHash.slice(0, 16) : null;
  return { shownVer, desiredVer, pending: desiredVer !== null && desiredVer !== shownVer };
}

/** A tag on the store wall (docs/SHELF.md) with the problem kinds it has now. */
export function presentWallTag(r: WallRow, problems: readonly string[]): WallTag {
  const status = TagStatus.safeParse(r.status);
  return {
    id: r.id,
    hardwareId: r.hardware_id,
    aisle: r.aisle ?? '',
    bay: r.bay ?? '',
    shelf: r.shelf ?? '',
    position: num(r.position),
    ...screenVersions(r.shown_ver, r.desired_hash),
    status: status.success ? status.data : 'unknown',
    productName: r.product_name,
    barcode: r.product_barcode,
    problems: [...problems],
  };
}
