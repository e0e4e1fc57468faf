import { describe, expect, it } from 'vitest';
import { toSeries } from './series';

describe('statistics answers to chart series', () => {
  it('reads rows of label and number', () => {
    expect(
      toSeries([
        { name: '2.13L', value: 12 },
        { name: '4.20T', value: '3' },
      ]),
    ).toEqual({ labels: ['2.13L', '4.20T'], values: [12, 3] });
    expect(toSeries([{ date: '2026-01-02', count: 5 }])).toEqual({ labels: ['2026-01-02'], values: [5] });
  });

  it('reads an object of numbers, and rows nested under a list key', () => {
    expect(toSeries({ online: 3, offline: 1, note: 'x' })).toEqual({ labels: ['online', 'offline'], values: [3, 1] });
    expect(toSeries({ rows: [{ storeName: 'A', tags: 7 }] })).toEqual({ labels: ['A'], values: [7] });
  });

  it('gives null for what it cannot draw', () => {
    expect(toSeries(null)).toBeNull();
    expect(toSeries([])).toBeNull();
    expect(toSeries('text')).toBeNull();
    expect(toSeries([{ name: 'a' }])).toBeNull();
    expect(toSeries([{ value: 1 }])).toBeNull();
    expect(toSeries({ a: 'b' })).toBeNull();
  });
});
