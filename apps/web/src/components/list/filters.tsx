import { Checkbox, Input, Select, type SelectProps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

interface FieldBase {
  /** The form field (its input's id is `<form name>_<name>`). */
  name: string;
  label: string;
}

/** One field of a list screen's filter bar. */
export type FilterField = FieldBase &
  (
    | { kind: 'text'; placeholder?: string; width: number }
    | {
        kind: 'select';
        placeholder?: string;
        width: number;
        options: SelectProps['options'];
        /** Typing narrows the options by their labels. */
        search?: boolean;
        loading?: boolean;
      }
    /** From one day to another; either end may stay open (`datesFilter` in datesFilter.tsx makes it). */
    | { kind: 'dates'; input: ReactNode }
    /** On or off, said by the box's own text (its label stays empty). */
    | { kind: 'check'; text: string }
  );

/** A text filter worded by the screen's namespace: label `filter.<name>`, hint `filter.<name>Placeholder`. */
export function textFilter(t: TFunction, name: string, width: number): Extract<FilterField, { kind: 'text' }> {
  return { kind: 'text', name, label: t(`filter.${name}`), placeholder: t(`filter.${name}Placeholder`), width };
}

/**
 * A choice filter worded the same way: label `filter.<name>`; while nothing is chosen it says
 * `all` (the key `filter.all` unless given); `search` lets typing narrow the options.
 */
export function selectFilter(
  t: TFunction,
  name: string,
  width: number,
  options: SelectProps['options'],
  more: { all?: string; search?: boolean } = {},
): Extract<FilterField, { kind: 'select' }> {
  const placeholder = t(more.all ?? 'filter.all');
  return { kind: 'select', name, label: t(`filter.${name}`), placeholder, width, options, search: more.search };
}

/** A box the filter bar ticks: its text `filter.<name>` (true when ticked, left out when not). */
export function checkFilter(t: TFunction, name: string): Extract<FilterField, { kind: 'check' }> {
  return { kind: 'check', name, label: '', text: t(`filter.${name}`) };
}

export function filterInput(field: FilterField): ReactNode {
  switch (field.kind) {
    case 'text':
      return <Input allowClear placeholder={field.placeholder} style={{ width: field.width }} />;
    case 'select':
      return (
        <Select
          allowClear
          showSearch={field.search ? { optionFilterProp: 'label' } : undefined}
          placeholder={field.placeholder}
          loading={field.loading}
          style={{ width: field.width }}
          options={field.options}
        />
      );
    case 'dates':
      return field.input;
    case 'check':
      return <Checkbox>{field.text}</Checkbox>;
  }
}
