import type { TagChangeDay } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { barOption, changesOption, horizontalBarOption, pieOption, sum, topStores } from './charts';

const day = (
  date: string,
  binding: number,
  tags: number,
  products: number,
  delivered = 0,
  failed = 0,
): TagChangeDay => ({
  date,
  binding,
  tags,
  products,
  count: binding + tags + products,
  delivered,
  failed,
});

describe('dashboard chart options', () => {
  it('draws bars and pies from labelled numbers', () => {
    const points = [
      { name: '2.13L', value: 12 },
      { name: '4.20T', value: 3 },
    ];
    expect(barOption(points, 'Tags')).toMatchObject({
      xAxis: { data: ['2.13L', '4.20T'] },
      yAxis: { name: 'Tags' },
      series: [{ type: 'bar', data: [12, 3] }],
    });
    expect(pieOption(points, 'Tags')).toMatchObject({ baseOption: { series: [{ type: 'pie', data: points }] } });
  });

  it('puts the largest store on top of the horizontal bars', () => {
    const option = horizontalBarOption(
      [
        { name: 'A', value: 9 },
        { name: 'B', value: 4 },
      ],
      'Tags',
    );
    expect(option).toMatchObject({ baseOption: { yAxis: { data: ['B', 'A'] }, series: [{ data: [4, 9] }] } });
    expect(option).toMatchObject({ baseOption: { yAxis: { axisLabel: { overflow: 'truncate' } } } });
    // Status names wrap onto lines, never cut (issue 27: "Communication inte…"), on a phone too.
    const wrapped = horizontalBarOption([{ name: 'Communication interruption', value: 1 }], 'Tags', true);
    expect(wrapped).toMatchObject({
      baseOption: { yAxis: { axisLabel: { overflow: 'break', interval: 0 } } },
      media: [{ option: { yAxis: { axisLabel: { overflow: 'break' } } } }],
    });
  });

  it('stacks confirmed and failed screen updates as bars, the changes as lines on their own axis, dated by month and day', () => {
    const option = changesOption(
      [day('2026-01-14', 1, 0, 2, 120, 3), day('2026-01-15', 0, 3, 0, 40, 0)],
      [{ kind: 'products', name: 'Products' }],
      'Changes',
      { delivered: 'Updated', failed: 'Failed', valueName: 'Screens' },
    );
    expect(option).toMatchObject({
      baseOption: {
        xAxis: { data: ['01-14', '01-15'] },
        yAxis: [{ name: 'Screens' }, { name: 'Changes' }],
        series: [
          { type: 'bar', name: 'Updated', stack: 'updates', data: [120, 40] },
          { type: 'bar', name: 'Failed', stack: 'updates', data: [3, 0] },
          { type: 'line', name: 'Products', yAxisIndex: 1, data: [2, 0] },
        ],
      },
    });
  });

  it('keeps the stores with most tags and sums the rest', () => {
    const rows = [
      { storeId: 3, name: 'C', count: 1 },
      { storeId: 1, name: 'A', count: 5 },
      { storeId: 2, name: 'B', count: 5 },
      { storeId: 4, name: 'D', count: 2 },
    ];
    expect(topStores(rows, 2, (n) => `${n} others`)).toEqual([
      { name: 'A', value: 5 },
      { name: 'B', value: 5 },
      { name: '2 others', value: 3 },
    ]);
    expect(topStores(rows, 10, (n) => `${n} others`)).toHaveLength(4);
    expect(sum([1, 2, 3])).toBe(6);
  });
});
