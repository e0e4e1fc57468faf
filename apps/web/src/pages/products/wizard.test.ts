import type { ImportColumn } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { chooseField, columnLetter } from './wizard';

describe('the import wizard', () => {
  it('names columns as a spreadsheet does', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('gives a field to one column: choosing it elsewhere clears the column that had it', () => {
    const columns: ImportColumn[] = [
      { index: 0, title: '商品名称', field: 'name', match: 'synonym' },
      { index: 1, title: '售价', field: 'price', match: 'synonym' },
      { index: 2, title: '原价', field: null, match: null },
    ];
    expect(chooseField(columns, 2, 'price')).toEqual(['name', '', 'price']);
    expect(chooseField(columns, 0, '')).toEqual(['', 'price', '']);
    expect(chooseField(columns, 2, 'originalPrice')).toEqual(['name', 'price', 'originalPrice']);
  });
});
