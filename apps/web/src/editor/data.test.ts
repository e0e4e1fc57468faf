import { type Product, productLabelData } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { dataKeyOptions } from './data';

const product: Product = {
  id: 1,
  barcode: '6901234567892',
  qrcode: '',
  name: '有机红富士苹果',
  price: '12.80',
  originalPrice: null,
  unit: '500g',
  spec: '',
  origin: '山东',
  grade: '',
  custom: { shelf: 'A3', name: 'custom must not win' },
  priceChanges: 0,
  tags: 0,
  createdAt: 0,
  updatedAt: 0,
};

describe('product data', () => {
  it('maps standard fields to their data keys and keeps custom fields', () => {
    const data = productLabelData(product);
    expect(data).toMatchObject({ name: '有机红富士苹果', price: '12.80', barcode: '6901234567892', shelf: 'A3' });
    expect(data.originalPrice).toBeNull();
  });
});

describe('data-key options', () => {
  it('shows the tenant mapping display names', () => {
    const options = dataKeyOptions(
      [
        { name: 'name', tField: '品名', standard: true },
        { name: 'shelf', tField: '货架', standard: false },
      ],
      'zh-CN',
    );
    expect(options).toEqual([
      { key: 'name', label: '品名', standard: true },
      { key: 'shelf', label: '货架', standard: false },
    ]);
  });

  it('falls back to the standard keys in the interface language', () => {
    const en = dataKeyOptions(undefined, 'en');
    expect(en.find((o) => o.key === 'price')?.label).toBe('Price');
    expect(dataKeyOptions(undefined, 'zh-CN').find((o) => o.key === 'price')?.label).toBe('价格');
  });

  it('keeps a key already bound even when the mapping lacks it', () => {
    const options = dataKeyOptions([], 'en', ['legacy']);
    expect(options).toEqual([{ key: 'legacy', label: 'legacy', standard: false }]);
  });
});
