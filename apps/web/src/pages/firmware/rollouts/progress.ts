import type { UpgradeTask } from '@esl/contract';

/** A `firmware.progress` notice: one device's upgrade moved on. */
export interface FirmwareProgress {
  type: 'firmware.progress';
  id: number;
  storeId: number;
  state: UpgradeTask['state'] | 'retry';
  code: string;
  done: number;
  total: number;
}

export function isFirmwareProgress(n: { type: string }): n is FirmwareProgress {
  const p = n as Partial<FirmwareProgress>;
  return n.type === 'firmware.progress' && typeof p.id === 'number' && typeof p.done === 'number';
}

/** The row after a notice: a retry is waiting again; bytes never go back within one state. */
export function applyProgress(row: UpgradeTask, p: FirmwareProgress): UpgradeTask {
  if (row.id !== p.id) return row;
  const state = p.state === 'retry' ? 'queued' : p.state;
  return { ...row, state, code: p.code || (state === row.state ? row.code : ''), done: p.done, total: p.total };
}

/** Per cent of the file the device holds, 0–100. */
export function percent(row: Pick<UpgradeTask, 'done' | 'total' | 'state'>): number {
  if (row.state === 'done') return 100;
  if (row.total <= 0) return 0;
  return Math.min(100, Math.floor((row.done * 100) / row.total));
}
