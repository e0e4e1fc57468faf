import { describe, expect, it } from 'vitest';
import { UpsertProductsBody } from '../api/open';
import { LANGUAGES } from '../errors';
import {
  CALL_NAMES,
  CALLS,
  type CallName,
  OPEN_CALL_NAMES,
  OPEN_CALLS,
  type OpenCallName,
  operationName,
} from './index';

describe('integration call names', () => {
  const names = Object.keys(OPEN_CALLS) as OpenCallName[];

  it('name every integration call in both languages, apart from every console call', () => {
    expect(Object.keys(OPEN_CALL_NAMES).sort()).toEqual([...names].sort());
    const consoleNames = Object.keys(CALLS) as CallName[];
    for (const lang of LANGUAGES) {
      const shown = names.map((n) => OPEN_CALL_NAMES[n][lang]);
      expect(new Set(shown).size, lang).toBe(shown.length);
      const taken = new Set(consoleNames.map((n) => CALL_NAMES[n][lang]));
      expect(shown.filter((s) => taken.has(s))).toEqual([]);
      expect(shown.filter((s) => s.includes('/'))).toEqual([]);
    }
    for (const n of names) expect(OPEN_CALL_NAMES[n]['zh-CN'], n).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers the operation name by the full path the operation log stores', () => {
    expect(operationName('/open/v1/products/upsert', 'en')).toBe('API: upsert products');
    expect(operationName('/open/v1/tags/bind', 'zh-CN')).toBe('接口绑定价签');
    // The console call of the same tail is another operation.
    expect(operationName('/products/upsert', 'en')).toBe('/products/upsert');
  });

  it('every integration call is signed, never a session or public call', () => {
    for (const n of names) expect(OPEN_CALLS[n].access, n).toBe('apiKey');
  });
});

describe('bulk upsert body', () => {
  const row = (i: number) => ({ barcode: `B${i}`, name: `P${i}`, price: '1.00' });

  it('takes 1,000 products and refuses 1,001', () => {
    const ok = UpsertProductsBody.safeParse({ store: 'S1', products: Array.from({ length: 1000 }, (_, i) => row(i)) });
    expect(ok.success).toBe(true);
    const over = UpsertProductsBody.safeParse({
      store: 'S1',
      products: Array.from({ length: 1001 }, (_, i) => row(i)),
    });
    expect(over.success).toBe(false);
  });

  it('refuses the same barcode twice in one call', () => {
    const r = UpsertProductsBody.safeParse({ store: 'S1', products: [row(1), { barcode: 'B1', price: 2 }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('duplicate');
  });

  it('takes partial fields: a barcode and a price only', () => {
    const r = UpsertProductsBody.parse({ store: 'S1', products: [{ barcode: '690001', price: 3.5 }] });
    expect(r.products[0]).toEqual({ barcode: '690001', price: '3.5' });
  });
});
