import { Col, Form, Input, InputNumber, Row, Switch } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { type FieldSpec, fieldRules, gridRuns, say, text } from './spec';

interface Props {
  fields: readonly FieldSpec[];
  /** The form's translator: labels, hints and rule messages are its keys. */
  t: TFunction;
}

/**
 * A form's fields from their declarations (`spec.ts`): each a labelled input with its rules and
 * limits; fields with a span stand side by side in one grid row, the others full width.
 */
export function FormFields({ fields, t }: Props) {
  return (
    <>
      {gridRuns(fields).map((run) =>
        run.grid ? (
          <Row gutter={16} key={run.fields[0].name}>
            {run.fields.map((field) => (
              <Col span={field.span} key={field.name}>
                <FieldItem field={field} t={t} />
              </Col>
            ))}
          </Row>
        ) : (
          <FieldItem field={run.field} t={t} key={run.field.name} />
        ),
      )}
    </>
  );
}

function FieldItem({ field, t }: { field: FieldSpec; t: TFunction }) {
  const words = (w: FieldSpec['label'] | undefined) => (w === undefined ? undefined : say(t, w));
  return (
    <Form.Item
      name={field.name}
      label={words(field.label)}
      tooltip={words(field.tooltip)}
      extra={words(field.extra)}
      rules={fieldRules(field, t)}
      valuePropName={field.kind === 'switch' ? 'checked' : undefined}
      dependencies={field.kind === 'custom' ? field.dependencies : undefined}
      required={field.kind === 'custom' ? field.markRequired : undefined}
    >
      {control(field, t)}
    </Form.Item>
  );
}

function control(field: FieldSpec, t: TFunction): ReactNode {
  switch (field.kind) {
    case 'text':
      return (
        <Input
          maxLength={field.max}
          placeholder={field.placeholder === undefined ? undefined : text(t, field.placeholder)}
          autoComplete={field.autoComplete}
          autoFocus={field.autoFocus}
          disabled={field.disabled}
          inputMode={field.inputMode}
          allowClear={field.allowClear}
        />
      );
    case 'notes':
      return (
        <Input.TextArea autoSize={{ minRows: field.rows[0], maxRows: field.rows[1] }} maxLength={field.max} showCount />
      );
    case 'number':
      return (
        <InputNumber
          min={field.min}
          max={field.max}
          precision={0}
          suffix={field.suffix === undefined ? undefined : say(t, field.suffix)}
          style={{ width: field.width ?? '100%' }}
        />
      );
    case 'switch':
      return <Switch />;
    case 'custom':
      return field.control;
  }
}
