import { type FirmwareChoice, findTagModel, type UpgradeTask } from '@esl/contract';

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

/**
 * What a firmware file fits, in words: tag hardware codes as their model names ("1.54T, 2.13L"),
 * station models as they are; at most `max` named, the rest counted.
 */
export function fitsList(f: Pick<FirmwareChoice, 'kind' | 'hw' | 'models'>, max = 8): { list: string; more: number } {
  const names = f.kind === 'tag' ? [...new Set(f.hw.map((code) => findTagModel(code)?.name ?? code))] : f.models;
  return { list: names.slice(0, max).join(', '), more: Math.max(0, names.length - max) };
}
