import type { BodyOf } from '@esl/contract';

export interface StationFormValues {
  sn: string;
  name?: string;
  module?: string;
}

/** The add call's body: serial numbers are kept upper case, text trimmed. */
export function stationBody(values: StationFormValues): BodyOf<'addStation'> {
  return {
    sn: values.sn.trim().toUpperCase(),
    name: (values.name ?? '').trim(),
    module: (values.module ?? '').trim(),
  };
}
