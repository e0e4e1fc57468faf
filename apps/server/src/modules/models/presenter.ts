import type { LearnedTagModel, TagColourType } from '@esl/contract';
import type { LearnedModelRow } from './repository';

function colours(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function presentLearned(r: LearnedModelRow): LearnedTagModel {
  return {
    key: r.key,
    name: r.name,
    w: Number(r.w),
    h: Number(r.h),
    colours: colours(r.colours),
    colourType: (r.colour_type as TagColourType | null) ?? null,
    rotate: Number(r.rotate),
    led: Number(r.led) === 1,
    button: Number(r.button) === 1,
    nfc: Number(r.nfc) === 1,
    source: r.source,
    stationSn: r.station_sn ?? '',
    updatedAt: Number(r.updated_at),
  };
}
