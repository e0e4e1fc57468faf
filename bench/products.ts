import { gs1CheckDigit, type LabelData } from '@esl/labels';

/** The Chinese product names the label benches draw (one of each length a shelf sees). */
export const CHINESE_NAMES = [
  '有机红富士苹果',
  '新疆阿克苏冰糖心苹果（特级大果）',
  '东北五常大米 5kg',
  '蒙牛纯牛奶 250ml×16',
  '农夫山泉',
];

/**
 * `count` distinct products for the price label: names cycled from `names`, a valid EAN-13 and a
 * QR link each (distinct, so symbol caches see them as new), every third with an original price.
 */
export function priceProducts(count: number, names: readonly string[] = CHINESE_NAMES): LabelData[] {
  return Array.from({ length: count }, (_, i) => {
    const body = `690${String(100000000 + i * 7919).slice(-9)}`;
    const price = 1 + ((i * 37) % 9000) / 100;
    return {
      name: `${names[i % names.length]} ${i}`,
      price,
      originalPrice: i % 3 === 0 ? price + 2 : null,
      barcode: body + gs1CheckDigit(body),
      qrcode: `https://shop.example.com/p/${body}`,
      unit: '500g',
      spec: '特级',
      origin: '山东烟台',
    };
  });
}
