import type { UpgradeTask } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { applyProgress, isFirmwareProgress, percent } from './progress';

const row: UpgradeTask = {
  id: 7,
  kind: 'apfw',
  device: 'AP-1',
  stationSn: 'AP-1',
  fromVersion: '1.0.0',
  version: '2.0.0',
  state: 'accepted',
  code: '',
  attempt: 1,
  done: 0,
  total: 1000,
  createdAt: 0,
  finishedAt: null,
};

describe('upgrade progress', () => {
  it('moves a row by its notice and leaves the others alone', () => {
    const n = { type: 'firmware.progress', id: 7, storeId: 1, state: 'accepted', code: '', done: 500, total: 1000 };
    expect(isFirmwareProgress(n)).toBe(true);
    if (!isFirmwareProgress(n)) return;
    expect(applyProgress(row, n)).toMatchObject({ state: 'accepted', done: 500 });
    expect(applyProgress({ ...row, id: 8 }, n)).toEqual({ ...row, id: 8 });
    expect(percent(applyProgress(row, n))).toBe(50);
  });

  it('shows a retry as waiting again with its reason, and done as 100 %', () => {
    const retry = {
      type: 'firmware.progress' as const,
      id: 7,
      storeId: 1,
      state: 'retry' as const,
      code: 'badBlob',
      done: 0,
      total: 1000,
    };
    expect(applyProgress(row, retry)).toMatchObject({ state: 'queued', code: 'badBlob', done: 0 });
    expect(percent({ state: 'done', done: 0, total: 1000 })).toBe(100);
    expect(isFirmwareProgress({ type: 'station.status' })).toBe(false);
  });
});
