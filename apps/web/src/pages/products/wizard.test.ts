import { IMPORT_TIME_FIELD, type ImportColumn } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { chooseField, columnLetter, timeOptions } from './wizard';

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

  it('schedules with a time column or one time for the file, and waits for that time to be picked', () => {
    const col = (index: number, field: string | null): ImportColumn => ({ index, title: '', field, match: null });
    const plain = [col(0, 'barcode'), col(1, 'name'), col(2, 'price')];
    const timed = [...plain, col(3, IMPORT_TIME_FIELD)];
    const none = { wholeFile: false, at: null, scope: 'chain' as const };
    expect(timeOptions(plain, none)).toEqual({});
    expect(timeOptions(timed, none)).toEqual({ scope: 'chain' });
    expect(timeOptions(plain, { ...none, wholeFile: true })).toBeNull();
    expect(timeOptions(plain, { wholeFile: true, at: '2030-01-06T00:00', scope: 'store' })).toEqual({
      at: '2030-01-06T00:00',
      scope: 'store',
    });
  });
});
