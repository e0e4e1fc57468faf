import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { addTenantBody, type TenantFormValues } from './body';

interface Props {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export function AddTenantModal({ open, onClose, onSaved }: Props) {
  const { t } = useTranslation('tenants');
  const { message } = App.useApp();
  const [form] = Form.useForm<TenantFormValues>();

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const save = useMutation({
    mutationFn: (v: TenantFormValues) => request('addTenant', addTenantBody(v, digestPassword)),
    onSuccess: (tenant) => {
      message.success(t('added', { name: tenant.name }));
      onSaved();
    },
  });

  const noLineBreak: Rule = {
    validator: (_, value: unknown) =>
      typeof value === 'string' && /[\r\n]/.test(value)
        ? Promise.reject(new Error(t('rule.lineBreak')))
        : Promise.resolve(),
  };

  return (
    <Modal
      open={open}
      title={t('addTitle')}
      okText={t('add')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      width={560}
    >
      <Form<TenantFormValues>
        form={form}
        name="tenant"
        layout="vertical"
        autoComplete="off"
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="name"
          label={t('field.name')}
          rules={[{ required: true, whitespace: true, message: t('rule.name') }, noLineBreak]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="company" label={t('field.company')} rules={[noLineBreak]}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="description" label={t('field.description')} rules={[noLineBreak]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={500} showCount />
        </Form.Item>
        <Form.Item
          name="account"
          label={t('field.account')}
          extra={t('field.accountHint')}
          rules={[
            { required: true, whitespace: true, message: t('rule.username') },
            { pattern: /^[A-Za-z0-9_.@-]*$/, message: t('rule.usernameChars') },
          ]}
        >
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item name="sapwd" label={t('field.password')} rules={[{ required: true, message: t('rule.password') }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="rsapwd"
          label={t('field.rpassword')}
          dependencies={['sapwd']}
          rules={[
            { required: true, message: t('rule.password') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('sapwd')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('rule.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
