import { AddTemplateBody } from '@esl/contract';
import { Space } from 'antd';
import type { TFunction } from 'i18next';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, literal, type TextField } from '../../components/form/spec';

// The fields a new template and a saved one share (the list's add dialog, the editor's save
// dialog); their words are the `templates` namespace's.
const f = contractFields(AddTemplateBody.shape);

/** The template's name; `placeholder` a key, or none. */
export function templateName(placeholder?: string): TextField<'name'> {
  return f.text('name', { label: 'field.name', required: 'rule.name', lineBreak: true, placeholder });
}

/** A free size: width and length in pixels, side by side, each input `inputWidth` pixels wide. */
export function TemplateSize({ t, inputWidth }: { t: TFunction; inputWidth: number }) {
  const size = (name: 'width' | 'length') =>
    f.number(name, { label: `field.${name}`, required: `rule.${name}`, suffix: literal('px'), width: inputWidth });
  // One FormFields each: Space sets each of its children apart, and a fragment is one child.
  return (
    <Space size="middle" align="start">
      <FormFields fields={[size('width')]} t={t} />
      <FormFields fields={[size('length')]} t={t} />
    </Space>
  );
}
