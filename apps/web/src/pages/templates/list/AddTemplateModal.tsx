import { findTagModel, TAG_MODELS, TagColourType, type Template } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { request } from '../../../platform/request';
import { noLineBreak as noLineBreakRule } from '../../shared/rules';
import { type AddTemplateValues, addTemplateBody, colourTypesFor } from './body';
import { ColourType } from './ColourType';

interface Props {
  open: boolean;
  onClose: () => void;
  onAdded: (template: Template) => void;
}

const ROTATIONS = [0, 90, 180, 270] as const;

/** Catalogue models as select options: name and pixel size, searchable by either. */
export const MODEL_OPTIONS = TAG_MODELS.map((m) => ({
  value: m.code,
  label: `${m.name} · ${m.w}×${m.h}`,
}));

export function AddTemplateModal({ open, onClose, onAdded }: Props) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const [form] = Form.useForm<AddTemplateValues>();
  const sizeMode = Form.useWatch('sizeMode', form);
  const modelCode = Form.useWatch('model', form);
  const model = sizeMode === 'model' && modelCode ? findTagModel(modelCode) : undefined;
  const colourTypes = colourTypesFor(model, TagColourType.options);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
  }, [open, form]);

  // The colour type follows the model: its usual colour when the chosen one is not offered.
  useEffect(() => {
    const current = form.getFieldValue('colourType') as AddTemplateValues['colourType'];
    if (current && !colourTypes.includes(current)) form.setFieldValue('colourType', colourTypes[0]);
  }, [colourTypes, form]);

  const add = useMutation({
    mutationFn: (values: AddTemplateValues) => request('addTemplate', addTemplateBody(values)),
    onSuccess: (template) => {
      message.success(t('added'));
      onAdded(template);
    },
  });

  const noLineBreak = noLineBreakRule(t('rule.lineBreak'));

  return (
    <FormModal
      open={open}
      title={t('addTitle')}
      okText={t('create')}
      cancelText={t('cancel')}
      saving={add.isPending}
      onClose={onClose}
      width={560}
      form={form}
      name="tmpl-add"
      autoComplete="off"
      initialValues={{ sizeMode: 'model', model: '0A', colourType: 'bwr', rotation: 0, width: 296, length: 152 }}
      onFinish={(values) => add.mutate(values)}
    >
      <Form.Item
        name="name"
        label={t('field.name')}
        rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
      >
        <Input maxLength={64} placeholder={t('field.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="sizeMode" label={t('field.size')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'model', label: t('field.byModel') },
            { value: 'custom', label: t('field.bySize') },
          ]}
        />
      </Form.Item>
      {sizeMode === 'custom' ? (
        <Space size="middle" align="start">
          <Form.Item name="width" label={t('field.width')} rules={[{ required: true, message: t('rule.width') }]}>
            <InputNumber min={1} max={4096} precision={0} suffix="px" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="length" label={t('field.length')} rules={[{ required: true, message: t('rule.length') }]}>
            <InputNumber min={1} max={4096} precision={0} suffix="px" style={{ width: 140 }} />
          </Form.Item>
        </Space>
      ) : (
        <Form.Item name="model" label={t('field.model')} rules={[{ required: true, message: t('rule.model') }]}>
          <Select showSearch optionFilterProp="label" options={MODEL_OPTIONS} placeholder={t('field.model')} />
        </Form.Item>
      )}
      <Form.Item name="colourType" label={t('field.colourType')} rules={[{ required: true }]}>
        <Select
          options={colourTypes.map((c) => ({ value: c, label: <ColourType value={c} /> }))}
          data-testid="tmpl-add-colour"
        />
      </Form.Item>
      <Form.Item name="rotation" label={t('field.rotation')} extra={t('field.rotationHelp')}>
        <Radio.Group optionType="button" options={ROTATIONS.map((r) => ({ value: r, label: `${r}°` }))} />
      </Form.Item>
    </FormModal>
  );
}
