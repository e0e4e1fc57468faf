import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { selectFilter, textFilter } from './filters';

const t = ((key: string) => `<${key}>`) as unknown as TFunction;

describe('filter wording', () => {
  it('words a text filter from the namespace’s filter.<name> keys', () => {
    expect(textFilter(t, 'code', 160)).toEqual({
      kind: 'text',
      name: 'code',
      label: '<filter.code>',
      placeholder: '<filter.codePlaceholder>',
      width: 160,
    });
  });

  it('says filter.all on an empty choice unless told another key, and searches only when asked', () => {
    const options = [{ value: 'a', label: 'A' }];
    expect(selectFilter(t, 'online', 130, options)).toMatchObject({
      kind: 'select',
      name: 'online',
      label: '<filter.online>',
      placeholder: '<filter.all>',
      width: 130,
      options,
      search: undefined,
    });
    expect(selectFilter(t, 'model', 190, options, { all: 'filter.allModels', search: true })).toMatchObject({
      placeholder: '<filter.allModels>',
      search: true,
    });
  });
});
