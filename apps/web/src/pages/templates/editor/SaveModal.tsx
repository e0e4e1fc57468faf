import { Form, Input, InputNumber, Modal, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

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

  const noLineBreak: Rule = {
    validator: (_, value: unknown) =>
      typeof value === 'string' && /[\r\n]/.test(value)
        ? Promise.reject(new Error(t('templates:rule.lineBreak')))
        : Promise.resolve(),
  };

  return (
    <Modal
      open={open}
      title={t('editor:saveTitle')}
      okText={t('editor:save')}
      cancelText={t('templates:cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      width={440}
    >
      <Form<SaveValues>
        form={form}
        name="tmpl-save"
        layout="vertical"
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
      </Form>
    </Modal>
  );
}
