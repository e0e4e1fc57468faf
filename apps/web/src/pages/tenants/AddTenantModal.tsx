import { useMutation } from '@tanstack/react-query';
import { App, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { request } from '../../platform/request';
import { digestPassword } from '../../utils/digest';
import { noLineBreak as noLineBreakRule } from '../shared/rules';
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

  const noLineBreak = noLineBreakRule(t('rule.lineBreak'));

  return (
    <FormModal
      open={open}
      title={t('addTitle')}
      okText={t('add')}
      cancelText={t('cancel')}
      saving={save.isPending}
      onClose={onClose}
      width={560}
      form={form}
      name="tenant"
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
      <NewPasswordFields names={['sapwd', 'rsapwd']} labels={[t('field.password'), t('field.rpassword')]} />
    </FormModal>
  );
}
