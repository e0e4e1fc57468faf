import { Form, Input, InputNumber, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { noLineBreak as noLineBreakRule } from '../../shared/rules';

export interface SaveValues {
  name: string;
  width: number;
  length: number;
}

interface Props {
  open: boolean;
  initial: SaveValues;
  saving: boolean;
  onSave: (values: SaveValues) => void;
  onClose: () => void;
}

/** Saving asks for the template's name, width and length (the panel's pixels). */
export function SaveModal({ open, initial, saving, onSave, onClose }: Props) {
  const { t } = useTranslation(['editor', 'templates']);
  const [form] = Form.useForm<SaveValues>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled each time the dialog opens
  useEffect(() => {
    if (open) form.setFieldsValue(initial);
  }, [open]);

  const noLineBreak = noLineBreakRule(t('templates:rule.lineBreak'));

  return (
    <FormModal
      open={open}
      title={t('editor:saveTitle')}
      okText={t('editor:save')}
      cancelText={t('templates:cancel')}
      saving={saving}
      onClose={onClose}
      width={440}
      form={form}
      name="tmpl-save"
      autoComplete="off"
      onFinish={(values) => onSave({ ...values, name: values.name.trim() })}
    >
      <Form.Item
        name="name"
        label={t('templates:field.name')}
        rules={[{ required: true, whitespace: true, message: t('templates:rule.name') }, noLineBreak]}
      >
        <Input maxLength={64} />
      </Form.Item>
      <Space size="middle" align="start">
        <Form.Item
          name="width"
          label={t('templates:field.width')}
          rules={[{ required: true, message: t('templates:rule.width') }]}
        >
          <InputNumber min={1} max={4096} precision={0} suffix="px" style={{ width: 150 }} />
        </Form.Item>
        <Form.Item
          name="length"
          label={t('templates:field.length')}
          rules={[{ required: true, message: t('templates:rule.length') }]}
        >
          <InputNumber min={1} max={4096} precision={0} suffix="px" style={{ width: 150 }} />
        </Form.Item>
      </Space>
    </FormModal>
  );
}
