import type { WallTag } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { groupWall, parsePositions } from './layout';

const tag = (hardwareId: string, aisle: string, bay: string, shelf: string, position: number | null): WallTag => ({
  id: Number.parseInt(hardwareId.slice(-2), 16),
  hardwareId,
  aisle,
  bay,
  shelf,
  position,
  shownVer: null,
  desiredVer: null,
  pending: false,
  status: 'normal',
  productName: null,
  barcode: null,
  problems: [],
});

describe('the store wall', () => {
  it('groups tags in wall order into aisles, bays and shelves', () => {
    const wall = groupWall([
      tag('AA000001', 'A', '1', '1', 1),
      tag('AA000002', 'A', '1', '1', 2),
      tag('AA000003', 'A', '1', '2', 1),
      tag('AA000004', 'A', '2', '1', null),
      tag('AA000005', 'B', '1', '1', 1),
    ]);
    expect(
      wall.map((a) => [a.aisle, a.bays.map((b) => [b.bay, b.shelves.map((s) => s.tags.map((x) => x.hardwareId))])]),
    ).toEqual([
      [
        'A',
        [
          ['1', [['AA000001', 'AA000002'], ['AA000003']]],
          ['2', [['AA000004']]],
        ],
      ],
      ['B', [['1', [['AA000005']]]]],
    ]);
    expect(groupWall([])).toEqual([]);
  });

  it('reads a shelf plan: header skipped, separators, quotes, bad lines named', () => {
    const { rows, bad } = parsePositions(
      '\uFEFFhardwareId,aisle,bay,shelf,position\r\nab000001,A1,2,3,4\n\n"AB000002";A1;2;3;5\nnot-a-tag,A,1,1,1\nAB000003\tB\t1\t1\t',
    );
    expect(rows).toEqual([
      { hardwareId: 'AB000001', aisle: 'A1', bay: '2', shelf: '3', position: '4' },
      { hardwareId: 'AB000002', aisle: 'A1', bay: '2', shelf: '3', position: '5' },
      { hardwareId: 'AB000003', aisle: 'B', bay: '1', shelf: '1', position: '' },
    ]);
    expect(bad).toEqual([5]);
  });
});
