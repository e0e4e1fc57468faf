import type { BodyOf, StationKind } from '@esl/contract';

export interface StationFormValues {
  sn: string;
  name?: string;
  module?: string;
  kind?: StationKind;
  apUrl?: string;
}

/** The add call's body: serial numbers are kept upper case, text trimmed; an AP address only for its kind. */
export function stationBody(values: StationFormValues): BodyOf<'addStation'> {
  const kind = values.kind ?? 'station';
  return {
    sn: values.sn.trim().toUpperCase(),
    name: (values.name ?? '').trim(),
    module: (values.module ?? '').trim(),
    kind,
    apUrl: kind === 'oepl' ? (values.apUrl ?? '').trim() : '',
  };
}

/** The edit call's body: the name, and for an OEPL station its AP's address. */
export function editBody(id: number, kind: StationKind, values: StationFormValues): BodyOf<'editStation'> {
  return {
    id,
    name: (values.name ?? '').trim(),
    ...(kind === 'oepl' ? { apUrl: (values.apUrl ?? '').trim() } : {}),
  };
}

/** Client-side check of an AP address (the server checks again): http(s)://HOST[:PORT][/]. */
export const AP_URL = /^\s*https?:\/\/[^/?#@\s]+\/?\s*$/i;
