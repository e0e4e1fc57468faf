import { findTagModel, TAG_IDS_PER_ADD, type TagColourType } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Select, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { parseHardwareIds } from './body';
import { MODEL_OPTIONS } from './modelOptions';

interface Values {
  model?: string;
  colour?: TagColourType;
  ids?: string;
}

interface Props {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}

/** Adds one tag or many of one model (IDs typed or scanned, one per line). */
export function AddTagsModal({ open, onClose, onAdded }: Props) {
  const { t } = useTranslation('tags');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const modelCode = Form.useWatch('model', form);
  const idsText = Form.useWatch('ids', form);
  const model = modelCode ? findTagModel(modelCode) : undefined;
  const parsed = useMemo(() => parseHardwareIds(idsText), [idsText]);

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  // The colour type is one of the model's; its usual one when the model changes.
  useEffect(() => {
    const current = form.getFieldValue('colour') as TagColourType | undefined;
    if (!model) form.setFieldValue('colour', undefined);
    else if (!current || !model.colours.includes(current)) form.setFieldValue('colour', model.colours[0]);
  }, [model, form]);

  const save = useMutation({
    mutationFn: (v: Values) =>
      request('addTag', {
        model: v.model ?? '',
        colour: v.colour,
        hardwareIds: parseHardwareIds(v.ids).ids,
      }),
    onSuccess: (answer) => {
      message.success(t('addedCount', { count: answer.added }));
      onAdded();
    },
  });

  return (
    <FormModal
      open={open}
      title={t('addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={560}
      form={form}
      name="addTags"
      onFinish={(v) => save.mutate(v)}
    >
      <Form.Item name="model" label={t('field.model')} rules={[{ required: true, message: t('rule.modelOrId') }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('field.modelPlaceholder')}
          options={MODEL_OPTIONS}
        />
      </Form.Item>
      <Form.Item name="colour" label={t('field.colour')} extra={model ? undefined : t('field.colourHint')}>
        <Select
          disabled={!model}
          options={(model?.colours ?? []).map((c) => ({ value: c, label: t(`colour.${c}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="ids"
        label={t('field.ids')}
        extra={
          parsed.ids.length > 0 ? (
            <Typography.Text type="secondary">{t('field.idsCount', { count: parsed.ids.length })}</Typography.Text>
          ) : (
            t('field.idsHint')
          )
        }
        rules={[
          {
            validator: (_, value: string | undefined) => {
              const { ids, invalid } = parseHardwareIds(value);
              if (invalid.length > 0) {
                return Promise.reject(new Error(t('rule.badIds', { ids: invalid.slice(0, 5).join(', ') })));
              }
              if (ids.length === 0) return Promise.reject(new Error(t('rule.modelOrId')));
              if (ids.length > TAG_IDS_PER_ADD) {
                return Promise.reject(new Error(t('rule.tooManyIds', { max: TAG_IDS_PER_ADD })));
              }
              return Promise.resolve();
            },
          },
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={t('field.idsPlaceholder')}
          style={{ fontFamily: MONO_FAMILY }}
        />
      </Form.Item>
    </FormModal>
  );
}
