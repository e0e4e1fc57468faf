import { findTagModel, TagColourType, type Template } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Form, Radio, Select, type SelectProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../../components/FormModal';
import { FormFields } from '../../../components/form/FormFields';
import { queryKeys } from '../../../platform/queryKeys';
import { request } from '../../../platform/request';
import { TemplateSize, templateName } from '../fields';
import { type AddTemplateValues, addTemplateBody, colourTypesFor } from './body';
import { ColourType } from './ColourType';
import { MODEL_OPTIONS } from './modelOptions';

interface Props {
  open: boolean;
  onClose: () => void;
  onAdded: (template: Template) => void;
}

const ROTATIONS = [0, 90, 180, 270] as const;
/** Select values of learned models (never a catalogue code). */
const LEARNED = 'learned:';

export function AddTemplateModal({ open, onClose, onAdded }: Props) {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const dialog = useFormDialog({
    open,
    onClose,
    save: (values: AddTemplateValues) => request('addTemplate', addTemplateBody(values)),
    onSaved: (template) => {
      message.success(t('added'));
      onAdded(template);
    },
  });
  const { form } = dialog;
  const sizeMode = Form.useWatch('sizeMode', form);
  const modelCode = Form.useWatch('model', form);
  const model = sizeMode === 'model' && modelCode ? findTagModel(modelCode) : undefined;
  const colourTypes = colourTypesFor(model, TagColourType.options);
  // Models the tenant's stations taught (docs/OEPL.md): chosen, they fill in a free size.
  const learned = useQuery({
    queryKey: queryKeys.learnedModels(),
    queryFn: () => request('learnedModelList', {}),
    enabled: open,
  });
  const drawable = (learned.data?.rows ?? []).filter((m) => m.colourType !== null);
  const modelOptions: SelectProps['options'] = drawable.length
    ? [
        { label: t('field.catalogue'), options: MODEL_OPTIONS },
        {
          label: t('field.learned'),
          options: drawable.map((m) => ({
            value: `${LEARNED}${m.key}`,
            label: `${m.name} · ${m.w}×${m.h} · ${t('field.learnedFrom', { source: m.source })}`,
          })),
        },
      ]
    : MODEL_OPTIONS;
  const pickModel = (value: string) => {
    const chosen = value.startsWith(LEARNED) ? drawable.find((m) => `${LEARNED}${m.key}` === value) : undefined;
    if (!chosen?.colourType) return;
    // A learned model is no catalogue code: the template is of its width × length and colour type.
    form.setFieldsValue({ sizeMode: 'custom', width: chosen.w, length: chosen.h, colourType: chosen.colourType });
  };

  // The colour type follows the model: its usual colour when the chosen one is not offered.
  useEffect(() => {
    const current = form.getFieldValue('colourType') as AddTemplateValues['colourType'];
    if (current && !colourTypes.includes(current)) form.setFieldValue('colourType', colourTypes[0]);
  }, [colourTypes, form]);

  return (
    <FormModal
      {...dialog}
      title={t('addTitle')}
      okText={t('create')}
      width={560}
      name="tmpl-add"
      autoComplete="off"
      initialValues={{ sizeMode: 'model', model: '0A', colourType: 'bwr', rotation: 0, width: 296, length: 152 }}
    >
      <FormFields fields={[templateName('field.namePlaceholder')]} t={t} />
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
        <TemplateSize t={t} inputWidth={140} />
      ) : (
        <Form.Item name="model" label={t('field.model')} rules={[{ required: true, message: t('rule.model') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={modelOptions}
            placeholder={t('field.model')}
            onChange={pickModel}
            data-testid="tmpl-add-model"
          />
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
