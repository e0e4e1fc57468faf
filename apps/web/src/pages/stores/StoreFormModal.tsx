import type { Store } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Col, Form, Input, Row } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { request } from '../../platform/request';
import { noLineBreak as noLineBreakRule } from '../shared/rules';

export interface StoreFormValues {
  name: string;
  code: string;
  address?: string;
  contact?: string;
  phone?: string;
  remark?: string;
}

interface Props {
  open: boolean;
  /** The store being edited, or null to add one. */
  store: Store | null;
  onClose: () => void;
  onSaved: () => void;
}

export function storeBody(v: StoreFormValues) {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    address: (v.address ?? '').trim(),
    contact: (v.contact ?? '').trim(),
    phone: (v.phone ?? '').trim(),
    remark: (v.remark ?? '').trim(),
  };
}

export function StoreFormModal({ open, store, onClose, onSaved }: Props) {
  const { t } = useTranslation('stores');
  const { message } = App.useApp();
  const [form] = Form.useForm<StoreFormValues>();
  const adding = store === null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (store) form.setFieldsValue(store);
  }, [open, store, form]);

  const save = useMutation({
    mutationFn: (v: StoreFormValues) =>
      store ? request('alterStore', { id: store.id, ...storeBody(v) }) : request('addStore', storeBody(v)),
    onSuccess: () => {
      message.success(adding ? t('added') : t('saved'));
      onSaved();
    },
  });

  const noLineBreak = noLineBreakRule(t('rule.lineBreak'));

  return (
    <FormModal
      open={open}
      title={adding ? t('addTitle') : t('editTitle', { name: store.name })}
      okText={t('save')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={600}
      form={form}
      name="store"
      onFinish={(v) => save.mutate(v)}
    >
      <Row gutter={16}>
        <Col span={14}>
          <Form.Item
            name="name"
            label={t('field.name')}
            rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
          >
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item
            name="code"
            label={t('field.code')}
            rules={[
              { required: true, whitespace: true, message: t('rule.code') },
              { pattern: /^[A-Za-z0-9_-]*$/, message: t('rule.codeChars') },
            ]}
          >
            <Input maxLength={32} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="address" label={t('field.address')} rules={[noLineBreak]}>
        <Input maxLength={200} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="contact" label={t('field.contact')} rules={[noLineBreak]}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('field.phone')} rules={[noLineBreak]}>
            <Input maxLength={32} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="remark" label={t('field.remark')} rules={[noLineBreak]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} showCount />
      </Form.Item>
    </FormModal>
  );
}
