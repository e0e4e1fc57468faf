import type { UpgradeTask } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { applyProgress, fitsList, isFirmwareProgress, percent } from './progress';

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

describe('what a firmware fits, in words (issue 27: model names, not hex codes)', () => {
  it('names tag models by their catalogue names and counts the rest', () => {
    expect(fitsList({ kind: 'tag', hw: ['01', '05', '0a'], models: [] })).toEqual({
      list: '1.54T, 2.13L, 2.66L',
      more: 0,
    });
    const many = fitsList({
      kind: 'tag',
      hw: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '0A'],
      models: [],
    });
    expect(many.list.split(', ')).toHaveLength(8);
    expect(many.list).not.toMatch(/\b0[0-9A]\b/);
    expect(many.more).toBe(2);
  });

  it('keeps station models and an unknown code as they are', () => {
    expect(fitsList({ kind: 'ap', hw: [], models: ['AP-100', 'AP-200'] })).toEqual({ list: 'AP-100, AP-200', more: 0 });
    expect(fitsList({ kind: 'tag', hw: ['FE'], models: [] }).list).toBe('FE');
  });
});
