import { AddProductBody, AlterProductBody, MapFieldBody, type Product } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import {
  addProductBody,
  alterProductBody,
  customRecord,
  importErrorsOf,
  mappingBody,
  mappingProblems,
  productFilter,
  productFormValues,
} from './body';
import { csvCell, importFileType, toCsv } from './csv';

const form = {
  barcode: ' 6901234567892 ',
  name: ' Milk 1L ',
  price: '12.5',
  originalPrice: ' ',
  unit: 'box',
  custom: [{ key: 'brand', value: ' Bright ' }, { key: ' ', value: 'dropped' }, {}],
};

describe('product bodies', () => {
  it('trims the form, sends no original price when empty, keeps custom fields with a key', () => {
    const body = addProductBody(form);
    expect(body).toEqual({
      barcode: '6901234567892',
      name: 'Milk 1L',
      price: '12.5',
      originalPrice: null,
      qrcode: '',
      unit: 'box',
      spec: '',
      origin: '',
      grade: '',
      custom: { brand: 'Bright' },
    });
    expect(AddProductBody.safeParse(body).success).toBe(true);
  });

  it('sends every field on edit so emptied ones are cleared', () => {
    const body = alterProductBody(4, { ...form, originalPrice: '15', unit: '' });
    expect(body.id).toBe(4);
    expect(body.unit).toBe('');
    expect(body.originalPrice).toBe('15');
    expect(AlterProductBody.parse(body).originalPrice).toBe('15');
  });

  it('round-trips a product through the form', () => {
    const product: Product = {
      id: 1,
      barcode: 'A1',
      qrcode: 'https://x',
      name: 'Tea',
      price: '3.00',
      originalPrice: null,
      unit: '',
      spec: '',
      origin: '',
      grade: '',
      custom: { brand: 'Leaf' },
      priceChanges: 0,
      tags: 0,
      createdAt: 0,
      updatedAt: 0,
    };
    const values = productFormValues(product);
    expect(values.originalPrice).toBe('');
    expect(customRecord(values.custom)).toEqual({ brand: 'Leaf' });
    expect(addProductBody(values).originalPrice).toBeNull();
  });
});

describe('product filter', () => {
  it('keeps the text and the binding choice', () => {
    expect(productFilter({ text: ' milk ', bound: 'unbound' })).toEqual({ text: 'milk', bound: false });
    expect(productFilter({ text: ' ' })).toEqual({ text: undefined, bound: undefined });
  });
});

describe('field mapping', () => {
  it('accepts a mapping the contract accepts', () => {
    const rows = [
      { name: 'barcode', tField: '条码' },
      { name: 'price', tField: 'Price ' },
      { name: 'brand', tField: 'Brand' },
    ];
    expect(mappingProblems(rows).size).toBe(0);
    expect(MapFieldBody.safeParse({ fields: mappingBody(rows) }).success).toBe(true);
  });

  it('names each bad row: empty or repeated title, bad or repeated key', () => {
    const problems = mappingProblems([
      { name: 'barcode', tField: 'Code' },
      { name: 'name', tField: ' ' },
      { name: 'price', tField: 'code' },
      { name: '1brand', tField: 'Brand' },
      { name: 'barcode', tField: 'Other' },
    ]);
    expect([...problems]).toEqual([
      [1, 'title'],
      [2, 'titleRepeat'],
      [3, 'key'],
      [4, 'keyRepeat'],
    ]);
  });

  it('refuses a custom key named like a standard field', () => {
    expect(mappingProblems([{ name: 'custom.brand', tField: 'B' }]).get(0)).toBe('key');
  });
});

describe('import report', () => {
  it('reads the bad rows of a refusal and ignores anything else', () => {
    expect(
      importErrorsOf([{ line: 3, field: 'price', reason: 'price has the wrong format' }, { line: 'x' }, null]),
    ).toEqual([{ line: 3, field: 'price', reason: 'price has the wrong format' }]);
    expect(importErrorsOf({ line: 1 })).toEqual([]);
    expect(importErrorsOf(undefined)).toEqual([]);
  });
});

describe('csv', () => {
  it('quotes cells holding commas, quotes or line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(
      toCsv([
        ['line', 'reason'],
        [3, 'bad, very'],
      ]),
    ).toBe('line,reason\r\n3,"bad, very"\r\n');
  });

  it('marks texts a spreadsheet would evaluate, not numbers', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-3)).toBe('-3');
    expect(toCsv([['=a', 'b']])).toBe("'=a,b\r\n");
  });

  it('tells the import file types by name', () => {
    expect(importFileType('Products.CSV')).toBe('csv');
    expect(importFileType('a.xlsx')).toBe('xlsx');
    expect(importFileType('a.xls')).toBeNull();
  });
});
