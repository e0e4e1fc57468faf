import type { ColourType, Element, ElementType, Ink, Range } from '@esl/labels/model';
import { Form, InputNumber, Select, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type ElementPatch, inksOf } from '../../../../editor/commands';
import type { DataKeyOption } from '../../../../editor/data';
import { InkDot } from '../../list/ColourType';

/** Changes the selected elements; `field` names the input, so typing in it is one undo step. */
export type Patch = (field: string, p: ElementPatch) => void;

/** What the fields of one element type receive. */
export interface TypeFieldsProps<T extends ElementType> {
  el: Extract<Element, { type: T }>;
  patch: Patch;
  /** Ends the current gesture (an undo step), e.g. after an image was read. */
  done: () => void;
  /** The data keys a template can bind to. */
  keys: readonly DataKeyOption[];
}

/** A whole number within a range of the document schema. */
export function NumberField({
  label,
  value,
  range,
  onChange,
  testId,
  width,
  step,
  integer = true,
  suffix,
}: {
  label: string;
  value: number;
  range: Range;
  onChange: (v: number) => void;
  testId?: string;
  /** A narrow field of fixed width; without it the field shares its row. */
  width?: number;
  step?: number;
  integer?: boolean;
  suffix?: string;
}) {
  return (
    <Form.Item label={label} style={width ? { flex: 'none', width } : { flex: 1 }}>
      <InputNumber
        aria-label={label}
        size="small"
        value={value}
        min={range.min}
        max={range.max}
        step={step}
        precision={integer ? 0 : undefined}
        suffix={suffix}
        style={width ? undefined : { width: '100%' }}
        data-testid={testId}
        onChange={(v) => v !== null && onChange(v)}
      />
    </Form.Item>
  );
}

export function InkSelect({
  value,
  colourType,
  onChange,
  allowNone,
  testId,
  label,
}: {
  /** The field's name, read to screen readers. */
  label?: string;
  value: Ink | null;
  colourType: ColourType;
  onChange: (ink: Ink | null) => void;
  allowNone?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('editor');
  const inks = inksOf(colourType);
  const options: { value: string; label: ReactNode }[] = inks.map((ink) => ({
    value: ink,
    label: (
      <Space size={6}>
        <InkDot ink={ink} />
        {t(`ink.${ink}`)}
      </Space>
    ),
  }));
  if (allowNone) options.unshift({ value: 'none', label: t('ink.none') });
  return (
    <Select
      aria-label={label}
      size="small"
      // With no ink and no "none" choice, the elements differ: the placeholder says so.
      value={value ?? (allowNone ? 'none' : undefined)}
      placeholder={t('props.mixed')}
      options={options}
      data-testid={testId}
      onChange={(v: string) => onChange(v === 'none' ? null : (inks.find((ink) => ink === v) ?? null))}
    />
  );
}
