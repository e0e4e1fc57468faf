import type { ProblemKind } from '@esl/contract';

/** The colour of a kind: stations and failures red, waiting and offline orange, misuse magenta, the rest gold. */
export const KIND_COLOUR: Record<ProblemKind, string> = {
  stationOffline: 'red',
  stationRadioSilent: 'red',
  updateFailed: 'red',
  pendingOverdue: 'orange',
  labelOffline: 'orange',
  misused: 'magenta',
  lowBattery: 'gold',
  badSignal: 'gold',
};
