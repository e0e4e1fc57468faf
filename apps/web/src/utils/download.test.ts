import { describe, expect, it } from 'vitest';
import { dispositionFilename } from './download';

describe('dispositionFilename', () => {
  it('prefers the UTF-8 name over the plain one', () => {
    expect(dispositionFilename(`attachment; filename="products.xlsx"; filename*=UTF-8''%E5%95%86%E5%93%81.xlsx`)).toBe(
      '商品.xlsx',
    );
  });

  it('reads a plain name, quoted or not', () => {
    expect(dispositionFilename('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(dispositionFilename('attachment; filename=p.xlsx')).toBe('p.xlsx');
  });

  it('falls back to the plain name when the UTF-8 one is malformed', () => {
    expect(dispositionFilename(`attachment; filename="x.xlsx"; filename*=UTF-8''%E5%ZZ`)).toBe('x.xlsx');
  });

  it('answers undefined without a name', () => {
    expect(dispositionFilename(undefined)).toBeUndefined();
    expect(dispositionFilename('attachment')).toBeUndefined();
  });
});
