import type { AddStationData } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { request } from '../../platform/request';
import { noLineBreak } from '../shared/rules';
import { type StationFormValues, stationBody } from './body';

interface Props {
  open: boolean;
  onClose: () => void;
  /** The station was added; its secret is in the answer, to be shown once. */
  onAdded: (station: AddStationData) => void;
}

export function AddStationModal({ open, onClose, onAdded }: Props) {
  const { t } = useTranslation('stations');
  const [form] = Form.useForm<StationFormValues>();

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const save = useMutation({
    mutationFn: (values: StationFormValues) => request('addStation', stationBody(values)),
    onSuccess: (station) => onAdded(station),
  });

  return (
    <FormModal
      open={open}
      title={t('addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={520}
      form={form}
      name="station"
      autoComplete="off"
      onFinish={(values) => save.mutate(values)}
    >
      <Form.Item
        name="sn"
        label={t('field.sn')}
        extra={t('field.snHint')}
        rules={[
          { required: true, whitespace: true, message: t('rule.sn') },
          { pattern: /^\s*[A-Za-z0-9_-]*\s*$/, message: t('rule.snChars') },
        ]}
      >
        <Input maxLength={32} autoFocus />
      </Form.Item>
      <Form.Item name="name" label={t('field.name')} rules={[noLineBreak(t('rule.lineBreak'))]}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="module" label={t('field.module')} rules={[noLineBreak(t('rule.lineBreak'))]}>
        <Input maxLength={32} placeholder={t('field.modulePlaceholder')} />
      </Form.Item>
    </FormModal>
  );
}
